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
  /** Answer with this HTTP status (and `body`) instead of a stream. */
  status?: number
  body?: string
}

/** How one answered stream went: chunks handed to the socket, of how many, and how it ended. */
export type StreamRecord = { sent: number; total: number; outcome: 'open' | 'done' | 'aborted' }

export type MockModelServer = {
  port: number
  /** e.g. http://127.0.0.1:40123 (no /v1 suffix). */
  url: string
  close(): Promise<void>
}

export function startMockModelServer(options?: { port?: number }): Promise<MockModelServer>
