// The test side of the mock issuer: script the next sign-in and read back what it saw.
import type { IssuedTokens, IssuerLogEntry, IssuerScript } from './mock-issuer-server.mjs'

export type { IssuedTokens, IssuerLogEntry, IssuerScript }

export class MockIssuerClient {
  constructor(readonly url: string) {}

  /** The issuer as a page configures it (discovery is read from it). */
  get issuer(): string {
    return this.url
  }

  /** The same issuer answering without any CORS header. */
  get noCorsIssuer(): string {
    return `${this.url}/nocors`
  }

  script(script: IssuerScript): Promise<unknown> {
    return this.call('POST', '/__script', script)
  }

  log(): Promise<IssuerLogEntry[]> {
    return this.call('GET', '/__log') as Promise<IssuerLogEntry[]>
  }

  tokens(): Promise<IssuedTokens> {
    return this.call('GET', '/__tokens') as Promise<IssuedTokens>
  }

  reset(): Promise<unknown> {
    return this.call('POST', '/__reset')
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.url}${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
    if (!response.ok) throw new Error(`mock issuer ${method} ${path}: HTTP ${response.status}`)
    return response.json()
  }
}
