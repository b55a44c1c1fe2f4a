// Types for mock-issuer-server.mjs.

/** How the next sign-in goes; see the module comment. */
export type IssuerScript = {
  pending?: number
  slowDown?: number
  outcome?: 'approve' | 'deny' | 'expire' | 'error'
  /** Seconds between polls the issuer asks for (default 0.05, so tests run fast). */
  interval?: number
  expiresIn?: number
  /** expires_in of each access token issued, in order (the last repeats). */
  accessTtls?: number[]
  refreshOutcome?: 'ok' | 'reject'
  revokeStatus?: number
}

export type IssuerLogEntry = { method: string; path: string; grant?: string; origin: string | null; atMs: number }
export type IssuedTokens = { access: string[]; refresh: string[]; revoked: string[] }

export type MockIssuer = { port: number; url: string; close(): Promise<void> }

export function startMockIssuer(options?: { port?: number }): Promise<MockIssuer>
