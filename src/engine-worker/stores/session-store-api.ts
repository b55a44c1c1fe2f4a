/**
 * The IndexedDB session store, callable across a MessagePort, for a worker to run: IndexedDB
 * serializes a value inside put(), synchronously on the calling thread (about 20 ms for a 4 MB
 * commit, which typing waited behind). A load's bytes cross back without a copy, and a commit's
 * bytes, cloned or moved into this worker by postMessage, are stored without another copy.
 *
 * Errors cross the port as plain data (`code`, `name`, `message`) and are rebuilt on the other
 * side, so callers still branch on FX_SESSION_REVISION_CONFLICT or a QuotaExceededError.
 */
import * as Comlink from 'comlink'
import { idbSessionStore, type IdbSessionStore } from './idb-session-store.ts'
import { sharedSessionStore } from './shared-session-store.ts'
import { recycleSnapshotBuffers } from '../../shared/snapshot-buffers.ts'
import type { RevisionedBytes } from '../../shared/stores/types.ts'
import type { Listed, SessionStoreApi, WireResult } from '../../shared/messages/session-store-api.ts'
export type { SessionStoreApi, WireError, WireResult } from '../../shared/messages/session-store-api.ts'

/**
 * The API over idbSessionStore, one store per namespace. `shared`: the thread's stores
 * (shared-session-store.ts), as the engine worker's start-up read uses them. The other options are for tests.
 */
export function sessionStoreApi({ indexedDB, now, shared = false }: { indexedDB?: IDBFactory; now?: () => number; shared?: boolean } = {}): SessionStoreApi {
  const stores = new Map<string, IdbSessionStore>()
  const storeFor = (namespace: string | undefined) => {
    const options = { ...(namespace !== undefined ? { namespace } : {}), ...(indexedDB ? { indexedDB } : {}) }
    if (shared) return sharedSessionStore(options)
    const key = namespace ?? ''
    let store = stores.get(key)
    if (!store) stores.set(key, (store = idbSessionStore({ handsOverBytes: true, ...options, ...(now ? { now } : {}) })))
    return store
  }
  return {
    load: async (namespace, id) => moved(await settle(storeFor(namespace).load(id))),
    loadHead: async (namespace, id, atLeast) => moved(await settle(storeFor(namespace).loadHead(id, atLeast))),
    list: (namespace) => settle(storeFor(namespace).list()),
    commit: (namespace, id, bytes, expectedRevision) => settle(storeFor(namespace).commit(id, bytes, expectedRevision)),
    remove: (namespace, id) => settle(storeFor(namespace).remove(id)),
    lastCommitted: (namespace, id) => settle(storeFor(namespace).lastCommitted(id)),
    // Only whether it is done crosses back: the bytes stay here, where commits compare with them.
    warmNewest: (namespace) => settle(storeFor(namespace).warmNewest().then(() => undefined)),
  }
}

/** A read's bytes cross without a copy (they were read here, so they are this side's own). */
function moved(result: WireResult<RevisionedBytes | null>): WireResult<RevisionedBytes | null> {
  return result.ok && result.value ? Comlink.transfer(result, [result.value.bytes.buffer as ArrayBuffer]) : result
}

async function settle<T>(work: Promise<T>): Promise<WireResult<T>> {
  try {
    return { ok: true, value: await work }
  } catch (error) {
    const { code, name, message } = (typeof error === 'object' && error !== null ? error : {}) as Partial<Record<'code' | 'name' | 'message', unknown>>
    return {
      ok: false,
      error: {
        ...(typeof code === 'string' ? { code } : {}),
        name: typeof name === 'string' ? name : 'Error',
        message: typeof message === 'string' ? message : String(error),
      },
    }
  }
}

/** Serves this thread's shared stores on `port` (the engine worker, for its page). */
export function serveSessionStore(port: MessagePort): void {
  // This thread copies snapshots out of the engine and now stores them too (snapshot-buffers.ts).
  recycleSnapshotBuffers()
  Comlink.expose(sessionStoreApi({ shared: true }), port)
}
