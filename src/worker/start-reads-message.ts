/**
 * What a page asks a new engine worker to read at start-up (start-reads.ts), and its answer. A
 * module of its own with no imports, so the page's first script stays tiny.
 */
export const READ_AT_START = 'fxterm:read-at-start'

/** Posted with a MessagePort (the answer comes back on it). */
export type StartReadsRequest = {
  type: typeof READ_AT_START
  /** The stores' namespace: databases `<namespace>-sessions`, `-config`, `-history`. */
  namespace: string
  /** The settings to read. */
  configIds: readonly string[]
  /** The prompt history to read: the workspace root, and at most this many entries. */
  historyRoot: string
  historyLimit: number
  /** engine.wasm: given, the worker compiles it and decodes the session before boot (decode-ahead.ts). */
  wasmUrl?: string
}

/**
 * What the worker found: the newest session (its bytes stay in the worker), the settings that are
 * set, the prompt history oldest first. Each is null when its read failed: the page then reads it.
 */
export type StartReadsAnswer = {
  session: { found: { id: string; revision: string } | null } | null
  config: Record<string, string> | null
  history: string[] | null
}
