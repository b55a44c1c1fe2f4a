/**
 * idbSessionStore for a page: reads (`load`, `list`) run here, so start-up never waits for a
 * worker; writes (`commit`, `remove`) run in a small worker (session-writes.ts), so a 4 MB commit
 * never holds up typing. The worker starts on the first write. Where workers cannot start, the
 * writes run here, as plain idbSessionStore would.
 */
import * as Comlink from 'comlink'
import { checkId, idbSessionStore, type IdbSessionStoreOptions } from './idb-session-store.ts'
import { FxError } from '../terminal/fx-error.ts'
import type { SessionWritesApi, WireError, WireResult } from './session-writes.ts'
import type { AsyncSessionStore } from './types.ts'

export type OffThreadOptions = IdbSessionStoreOptions & {
  /** The writes' endpoint (tests pass one end of a MessageChannel); default a module worker. */
  connect?: () => Comlink.Endpoint
}

function spawnWritesWorker(): Comlink.Endpoint {
  return new Worker(new URL('./session-writes-worker.ts', import.meta.url), { type: 'module', name: 'fxterm-session-writes' })
}

/** See the file comment. */
export function idbSessionStoreOffThread(options: OffThreadOptions = {}): AsyncSessionStore {
  const here = idbSessionStore(options)
  let writes: { api: Comlink.Remote<SessionWritesApi>; failed: Promise<null> } | null | undefined
  const remote = () => {
    if (writes === undefined) {
      try {
        const endpoint = (options.connect ?? spawnWritesWorker)()
        // A worker whose script cannot load (a CSP without worker-src, say) only says so in an
        // error event; its calls would never answer, so they are raced against that event.
        const failed = new Promise<null>((resolve) => endpoint.addEventListener('error', () => resolve(null)))
        writes = { api: Comlink.wrap<SessionWritesApi>(endpoint), failed }
      } catch {
        writes = null // no module workers here: write on this thread
      }
    }
    return writes
  }
  /** The worker's answer, or null (and writes on this thread from now on) when it failed. */
  const ask = async <T>(call: (api: Comlink.Remote<SessionWritesApi>) => Promise<WireResult<T>>): Promise<WireResult<T> | null> => {
    const worker = remote()
    if (!worker) return null
    const result = await Promise.race([call(worker.api), worker.failed])
    if (result === null) writes = null
    return result
  }
  return {
    load: (id) => here.load(id),
    list: () => here.list(),
    async commit(id, bytes, expectedRevision) {
      checkId(id)
      // A copy, handed over: the caller keeps its own bytes.
      const copy = bytes.slice()
      const result = await ask((api) => api.commit(options.namespace, id, Comlink.transfer(copy, [copy.buffer as ArrayBuffer]), expectedRevision))
      return result ? unwrap(result) : here.commit(id, bytes, expectedRevision)
    },
    async remove(id) {
      checkId(id)
      const result = await ask((api) => api.remove(options.namespace, id))
      return result ? unwrap(result) : here.remove(id)
    },
  }
}

function unwrap<T>(result: WireResult<T>): T {
  if (result.ok) return result.value
  throw rebuild(result.error)
}

/** The error as the store threw it: an FxError with its code, or a DOMException by its name. */
function rebuild(error: WireError): Error {
  if (error.code) return new FxError(error.code, error.message)
  if (typeof DOMException === 'function' && error.name !== 'Error') return new DOMException(error.message, error.name)
  return new Error(error.message)
}
