// Types for mock-model-server.mjs, so the TypeScript specs and fixtures can import it.

/** One scripted answer to a POST /v1/chat/completions, consumed in order. */
export type ScriptedResponse = {
  /** SSE chunks: objects are sent as `data: {json}` (id/object/created/model filled in), strings verbatim after `data: `. */
  chunks?: Array<Record<string, unknown> | string>
  /** Keep the stream open after the first N chunks until POST /__release. */
  holdAfter?: number
  /** Answer with this HTTP status (and `body`) instead of a stream. */
  status?: number
  body?: string
}

export type MockModelServer = {
  port: number
  /** e.g. http://127.0.0.1:40123 (no /v1 suffix). */
  url: string
  close(): Promise<void>
}

export function startMockModelServer(options?: { port?: number }): Promise<MockModelServer>
