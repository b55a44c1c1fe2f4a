/**
 * What a page asks a new engine worker to read at start-up (start-reads.ts), and its answer. A
 * module of its own with no imports, so the page's first script stays tiny.
 */
export const READ_AT_START = 'fxterm:read-at-start'

/**
 * The worker's name for a request: the request also travels in the name (as JSON after a space),
 * so the worker begins its reads the moment it runs. A message posted to a worker that has not
 * started yet waits for the page's thread to forward it, after the page's own start-up work:
 * seen 20-110 ms after the worker was ready. The message still brings the port for the answer.
 */
export const ENGINE_WORKER_NAME = 'fxterm-engine'

export function startReadsWorkerName(request: StartReadsRequest): string {
  return `${ENGINE_WORKER_NAME} ${JSON.stringify(request)}`
}

/** The request in a worker's name, or null when the name carries none. */
export function startReadsInName(name: string): StartReadsRequest | null {
  const at = name.indexOf(' ')
  if (at < 0 || name.slice(0, at) !== ENGINE_WORKER_NAME) return null
  try {
    const request = JSON.parse(name.slice(at + 1)) as Partial<StartReadsRequest> | null
    return request?.type === READ_AT_START && typeof request.namespace === 'string' ? (request as StartReadsRequest) : null
  } catch {
    return null
  }
}

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
