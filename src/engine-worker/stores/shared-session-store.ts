/**
 * One idbSessionStore per database in a thread, for the engine worker: its start-up read of the
 * session a reload resumes (src/engine-worker/host/worker-start-reads.ts), the store it writes
 * the engine's commits to (host/worker-session-writes.ts) and the one it serves the page's reads
 * from (session-store-api.ts) are the same store, so the first commit after a reload compares
 * with the bytes read at start-up and writes only what changed, with no second read of the session.
 */
import { idbSessionStore, type IdbSessionStore } from './idb-session-store.ts'

const byFactory = new WeakMap<IDBFactory, Map<string, IdbSessionStore>>()
const byNamespace = new Map<string, IdbSessionStore>()

/** The store of `namespace` on `indexedDB` (default the global one), made on first use. */
export function sharedSessionStore(options: { namespace?: string; indexedDB?: IDBFactory }): IdbSessionStore {
  let stores = byNamespace
  if (options.indexedDB) {
    stores = byFactory.get(options.indexedDB) ?? new Map()
    byFactory.set(options.indexedDB, stores)
  }
  const key = options.namespace ?? ''
  let store = stores.get(key)
  // Its commits' bytes are its own: copied out of the engine here, or moved here by postMessage.
  if (!store) stores.set(key, (store = idbSessionStore({ ...options, handsOverBytes: true })))
  return store
}
