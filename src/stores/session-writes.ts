/**
 * The writes of the IndexedDB session store, callable across a MessagePort. A session commit is
 * the whole snapshot (4 MB for a long session), and IndexedDB serializes a value inside put(),
 * synchronously, on the calling thread: about 20 ms a commit on the page, which typing waited
 * behind. Run here, in a worker, the page only hands the bytes over.
 *
 * Errors cross the port as plain data (`code`, `name`, `message`) and are rebuilt on the other
 * side, so callers still branch on FX_SESSION_REVISION_CONFLICT or a QuotaExceededError.
 */
import { idbSessionStore } from './idb-session-store.ts'
import type { AsyncSessionStore } from './types.ts'

export type WireError = { code?: string; name: string; message: string }
export type WireResult<T> = { ok: true; value: T } | { ok: false; error: WireError }

/** What the writes worker exposes. */
export type SessionWritesApi = {
  commit(namespace: string | undefined, id: string, bytes: Uint8Array, expectedRevision: string | undefined): Promise<WireResult<{ revision: string }>>
  remove(namespace: string | undefined, id: string): Promise<WireResult<void>>
}

/** The API over idbSessionStore, one store per namespace; the options are for tests. */
export function sessionWritesApi({ indexedDB, now }: { indexedDB?: IDBFactory; now?: () => number } = {}): SessionWritesApi {
  const stores = new Map<string, AsyncSessionStore>()
  const storeFor = (namespace: string | undefined) => {
    const key = namespace ?? ''
    let store = stores.get(key)
    if (!store) stores.set(key, (store = idbSessionStore({ ...(namespace !== undefined ? { namespace } : {}), ...(indexedDB ? { indexedDB } : {}), ...(now ? { now } : {}) })))
    return store
  }
  return {
    commit: (namespace, id, bytes, expectedRevision) => settle(storeFor(namespace).commit(id, bytes, expectedRevision)),
    remove: (namespace, id) => settle(storeFor(namespace).remove(id)),
  }
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
