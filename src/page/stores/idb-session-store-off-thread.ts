/**
 * idbSessionStore for a page, run in a small worker (session-store-api.ts): a 4 MB commit never
 * holds up typing. The worker starts on the first call (or after `startWorkerAfterMs`); the
 * static page's engine worker reads the session a reload resumes itself
 * (src/engine-worker/host/worker-start-reads.ts), and other pages read it on the page (open-browser-stores.ts).
 * Where this worker cannot start or load, every call runs here, as plain idbSessionStore would,
 * and nothing is lost.
 */
import * as Comlink from 'comlink'
import { checkId, idbSessionStore, type IdbSessionStoreOptions } from '../../engine-worker/stores/idb-session-store.ts'
import { ErrorCode, errorOf, FxError } from '../../shared/errors.ts'
import { SERVE_SESSIONS } from '../../shared/messages/start-reads-message.ts'
import { movesWithItsBuffer } from '../../shared/snapshot-buffers.ts'
import type { SessionStoreApi, WireError, WireResult } from '../../shared/messages/session-store-api.ts'
import type { AsyncSessionStore, SessionStoreHandOver, SessionStoreHeads, SessionStoreInEngineWorker } from '../../shared/stores/types.ts'

export type OffThreadOptions = IdbSessionStoreOptions & {
  /** The store's endpoint (tests pass one end of a MessageChannel); default a module worker. */
  connect?: () => Comlink.Endpoint
  /**
   * Starts the worker this long after the store is made (then at the page's next idle moment),
   * if no call has started it yet: the first commit then finds it running, and the page's
   * start-up does not pay for it.
   */
  startWorkerAfterMs?: number
  /** Connects at once: for a worker that runs already (sessionStoreServedBy), where that costs nothing. */
  connectNow?: boolean
  /** Served by the engine worker (sessionStoreServedBy), which then writes the sessions itself. */
  inEngineWorker?: boolean
  /**
   * As it starts, the worker reads the newest session (the one a `--resume last` page continues),
   * and a commit waits for that read, so the first commit after a reload writes only the parts
   * that changed: it wrote all of a 4 MB session again (130-170 ms).
   */
  warmNewest?: boolean
}

/** Something that takes a message with a port: the engine worker (a Worker). */
export type SessionsServer = { postMessage(message: unknown, transfer: Transferable[]): void }

/**
 * An endpoint to the session store `server` runs (the engine worker, which serves one when asked
 * with SERVE_SESSIONS): it has read the session a reload resumes already, and it is running, where
 * a worker of the store's own took 50-75 ms to start before the first commit after a reload.
 */
export function sessionStoreServedBy(server: SessionsServer): () => Comlink.Endpoint {
  return () => {
    const { port1, port2 } = new MessageChannel()
    server.postMessage({ type: SERVE_SESSIONS, port: port2 }, [port2])
    return port1
  }
}

function spawnStoreWorker(): Comlink.Endpoint {
  return new Worker(new URL('../../engine-worker/stores/session-store-worker.ts', import.meta.url), { type: 'module', name: 'fxterm-sessions' })
}

type Api = Comlink.Remote<SessionStoreApi>

/** See the file comment. */
export function idbSessionStoreOffThread(options: OffThreadOptions = {}): AsyncSessionStore & SessionStoreHandOver & SessionStoreHeads & Partial<SessionStoreInEngineWorker> {
  // Opened here only when the worker cannot serve: no second connection on the page otherwise.
  let onPage: ReturnType<typeof idbSessionStore> | undefined
  const here = () => (onPage ??= idbSessionStore(options))
  const { namespace } = options
  let worker: { api: Api; failed: Promise<null> } | null | undefined
  /** The worker has answered a call: it runs, so bytes moved to it are not lost to a failed start. */
  let answered = false
  const remote = () => {
    if (worker === undefined) {
      try {
        const endpoint = (options.connect ?? spawnStoreWorker)()
        // A worker whose script cannot load (a CSP without worker-src, say) only says so in an
        // error event; its calls would never answer, so they are raced against that event.
        const failed = new Promise<null>((resolve) => endpoint.addEventListener('error', () => resolve(null)))
        worker = { api: Comlink.wrap<SessionStoreApi>(endpoint), failed }
        // First in the worker's queue, so the calls after it (a commit) find it under way.
        // Its answer also shows the worker runs, so the first commit's bytes can move there.
        if (options.warmNewest) void worker.api.warmNewest(namespace).then(() => (answered = true))
      } catch {
        worker = null // no module workers here
      }
    }
    return worker
  }
  if (options.connectNow) remote()
  else if (options.startWorkerAfterMs !== undefined) setTimeout(() => whenIdle(remote), options.startWorkerAfterMs)
  /** The worker's answer, or `fallback` run here (and every later call too) when it failed. */
  const ask = async <T>(call: (api: Api) => Promise<WireResult<T>>, fallback: () => Promise<T>): Promise<T> => {
    const current = remote()
    const result = current ? await Promise.race([call(current.api), current.failed]) : null
    if (result === null) {
      worker = null
      return fallback()
    }
    answered = true
    if (result.ok) return result.value
    throw rebuild(result.error)
  }
  const commit = (id: string, bytes: Uint8Array, expectedRevision: string | undefined) => {
    checkId(id)
    // Cloned by postMessage into the worker's memory: the caller keeps its bytes, and the page
    // allocates no 4 MB copy of its own per commit (slice() and transfer did; the garbage
    // collections that much memory brings stalled typing).
    return ask(
      (api) => api.commit(namespace, id, bytes, expectedRevision),
      () => here().commit(id, bytes, expectedRevision),
    )
  }
  return {
    ...(options.inEngineWorker ? { writtenInEngineWorker: () => Promise.resolve({ namespace }) } : {}),
    load(id) {
      checkId(id)
      return ask((api) => api.load(namespace, id), () => here().load(id))
    },
    loadHead(id, atLeast) {
      checkId(id)
      return ask((api) => api.loadHead(namespace, id, atLeast), () => here().loadHead(id, atLeast))
    },
    list: () => ask((api) => api.list(namespace), () => here().list()),
    commit,
    commitHandingOver(id, bytes, expectedRevision) {
      checkId(id)
      // Moved only to a worker that is known to run (else a failed start would lose them) and
      // only with a buffer of their own (else the rest would go along).
      if (!answered || !movesWithItsBuffer(bytes)) return commit(id, bytes, expectedRevision)
      return ask(
        (api) => api.commit(namespace, id, Comlink.transfer(bytes, [bytes.buffer as ArrayBuffer]), expectedRevision),
        () => Promise.reject(new FxError(ErrorCode.FX_STORE_FAILED, 'the session store worker stopped answering')),
      )
    },
    lastCommitted(id) {
      checkId(id)
      return ask((api) => api.lastCommitted(namespace, id), () => here().lastCommitted(id))
    },
    remove(id) {
      checkId(id)
      return ask((api) => api.remove(namespace, id), () => here().remove(id))
    },
  }
}

/** `work` when the page's thread is next idle (at once where there is no requestIdleCallback). */
function whenIdle(work: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(work, { timeout: 1_000 })
  else work()
}

/** The error as the store threw it: an FxError with its code, or a DOMException by its name. */
function rebuild(error: WireError): Error {
  if (error.code) return errorOf({ code: error.code, message: error.message })
  if (typeof DOMException === 'function' && error.name !== 'Error') return new DOMException(error.message, error.name)
  return new Error(error.message)
}
