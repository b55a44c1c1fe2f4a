/**
 * What a page asks a new engine worker to read at start-up (worker-start-reads.ts), and its answer. A
 * module of its own with no imports, so the page's first script stays tiny.
 *
 * The request travels in the worker's name (as JSON after a space), so the worker begins its reads
 * the moment it runs; the answer comes back as a message from the worker. A message posted to a
 * worker that has not started yet waits for the page's thread to forward it, after the page's own
 * start-up work: a request (or a port for the answer) sent that way reached the worker 20-110 ms
 * after it was ready, on a two-core machine.
 */
export const READ_AT_START = 'fxterm:read-at-start'
/** The `type` of the worker's answer message. */
export const READ_AT_START_ANSWER = 'fxterm:read-at-start-answer'
/**
 * The `type` of a message from the page carrying a MessagePort (`port`) on which the engine worker
 * serves the page's session store (serveSessionStore): the store that read the session at start-up.
 */
export const SERVE_SESSIONS = 'fxterm:serve-sessions'
/** The engine worker's name when it reads nothing. */
export const ENGINE_WORKER_NAME = 'fxterm-engine'

export type StartReadsRequest = {
  type: typeof READ_AT_START
  /** The stores' namespace: databases `<namespace>-sessions`, `-config`, `-history`. */
  namespace: string
  /** The settings to read. */
  configIds: readonly string[]
  /** The prompt history to read: the workspace root, and at most this many entries. */
  historyRoot: string
  historyLimit: number
  /** engine.wasm: given, the worker compiles it and decodes the session before boot (worker-decode-ahead.ts). */
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

/** The message that carries the answer. */
export type StartReadsAnswerMessage = { type: typeof READ_AT_START_ANSWER; answer: StartReadsAnswer }

/** The worker's name that carries `request`. */
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
