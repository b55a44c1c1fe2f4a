// The test side of the mock model server: scripts replies and reads back what the page sent.
import type { Hit, ScriptedResponse, StreamRecord } from '../../mock-servers/mock-model-server.mjs'

export type { Hit, ScriptedResponse, StreamRecord }

/** A chat completions request body as the page sends it (only the fields the specs inspect). */
export type ReceivedRequest = {
  model?: string
  stream?: boolean
  messages: Array<{ role: string; content?: unknown; tool_call_id?: string; tool_calls?: unknown[] }>
  tools?: unknown[]
}

export class MockModel {
  constructor(readonly url: string) {}

  /** The baseUrl the page should use (OpenAI-compatible clients append /chat/completions). */
  get baseUrl(): string {
    return `${this.url}/v1`
  }

  /** The same server answering without any CORS header (preflights included): an origin-refusing server. */
  get noCorsBaseUrl(): string {
    return `${this.url}/nocors/v1`
  }

  /** host:port, the provider label the status line should show. */
  get host(): string {
    return new URL(this.url).host
  }

  async script(...responses: ScriptedResponse[]): Promise<void> {
    await this.call('POST', '/__script', responses)
  }

  async release(): Promise<number> {
    return ((await this.call('POST', '/__release')) as { released: number }).released
  }

  /** How many streams are paused at their holdAfter point right now. */
  async held(): Promise<number> {
    return ((await this.call('GET', '/__held')) as { held: number }).held
  }

  async requests(): Promise<ReceivedRequest[]> {
    return (await this.call('GET', '/__requests')) as ReceivedRequest[]
  }

  /** Every stream answered so far, oldest first: an interrupted turn shows up as 'aborted'. */
  async streams(): Promise<StreamRecord[]> {
    return (await this.call('GET', '/__streams')) as StreamRecord[]
  }

  /** Every request to a model path (preflights, probes and model lists included), oldest first. */
  async hits(): Promise<Hit[]> {
    return (await this.call('GET', '/__hits')) as Hit[]
  }

  async reset(): Promise<void> {
    await this.call('POST', '/__reset')
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`mock ${method} ${path}: HTTP ${response.status} ${await response.text()}`)
    return response.json()
  }
}
