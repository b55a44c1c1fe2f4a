// Types for mock-model-server.mjs, so the TypeScript specs and fixtures can import it.

/** One scripted answer to a POST /v1/chat/completions, consumed in order. */
export type ScriptedResponse = {
  /** SSE chunks: objects are sent as `data: {json}` (id/object/created/model filled in), strings verbatim after `data: `. */
  chunks?: Array<Record<string, unknown> | string>
  /** A whole text reply the server cuts into deltas itself (role chunk, deltas, finish, usage); replaces `chunks`. */
  text?: string
  /** Code points per delta of `text` (default 4). */
  deltaChars?: number
  /** Keep the stream open after the first N chunks until POST /__release. */
  holdAfter?: number
  /** Wait this long before each chunk after the first: a slow model. */
  intervalMs?: number
  /** Wait this long before the first chunk (headers already sent): a model's time to first token. */
  firstDelayMs?: number
  /** Answer with this HTTP status (and `body`) instead of a stream. */
  status?: number
  body?: string
  /** Extra response headers (e.g. `{ 'retry-after': '1' }`), exposed to the page through CORS. */
  headers?: Record<string, string>
  /** Send the first N chunks (after any hold), then destroy the socket: no finish_reason, no [DONE]. */
  cutAfter?: number
  /** Written verbatim at the `cutAfter` point, where the body then ends cleanly: a body that stops inside a line. */
  partial?: string
  /** Send the first N chunks, then reset the connection (TCP RST). */
  resetAfter?: number
  /** Send only `: keep-alive` comments, one every N ms, until the client leaves. */
  keepAliveEveryMs?: number
}

/** How one answered stream went: chunks handed to the socket, of how many, and how it ended. */
export type StreamRecord = {
  sent: number
  total: number
  outcome: 'open' | 'done' | 'aborted' | 'cut' | 'reset'
  /** When the body's first byte was handed to the socket, on the server's /__clock clock. */
  firstByteAtMs?: number
}

/**
 * One request to a model path (not a /__ control path): preflights and probes included; the
 * Anthropic headers only when the request carried x-api-key.
 */
export type Hit = { method: string; path: string; /** The Host the request named (e.g. localhost:40123). */ host: string | null; origin: string | null; authorization: string | null; apiKey?: string; anthropicVersion?: string | null; browserAccess?: string | null; atMs: number; /** The request body's size, for a model request. */ bytes?: number }

export type MockModelServer = {
  port: number
  /** e.g. http://127.0.0.1:40123 (no /v1 suffix). */
  url: string
  close(): Promise<void>
}

export function startMockModelServer(options?: { port?: number }): Promise<MockModelServer>
