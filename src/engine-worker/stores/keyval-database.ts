/**
 * Opens the one database behind each store, on idb-keyval. One database per store because
 * idb-keyval's `createStore` cannot add an object store to a database that already exists.
 */
import { createStore, promisifyRequest, type UseStore } from 'idb-keyval'

/** The object store inside every fxterm database. */
export const OBJECT_STORE = 'records'

/** The stores fxterm keeps, each in a database of its own. */
export type StoreKind = 'config' | 'history' | 'sessions' | 'oauth' | 'files'

/** `fxterm-sessions` for the default namespace: the namespace keeps two embeds apart. */
export function databaseName(namespace: string | undefined, kind: StoreKind): string {
  const prefix = namespace ?? 'fxterm'
  if (typeof prefix !== 'string' || prefix === '') {
    throw new TypeError(`a store namespace must be a non-empty string, not ${JSON.stringify(namespace)}`)
  }
  return `${prefix}-${kind}`
}

/**
 * The idb-keyval store for `dbName`. Without `factory` this is idb-keyval's own `createStore`,
 * which always opens the global `indexedDB`. With one (tests pass a fresh fake each; the page may
 * pass the factory it probed) it is the same function on that factory, which also closes its
 * connection when another tab deletes or upgrades the database instead of blocking it.
 */
export function keyvalStore(dbName: string, factory?: IDBFactory): UseStore {
  return factory === undefined ? createStore(dbName, OBJECT_STORE) : createStoreOn(factory, dbName)
}

function createStoreOn(factory: IDBFactory, dbName: string): UseStore {
  let opening: Promise<IDBDatabase> | undefined
  const database = (): Promise<IDBDatabase> => {
    if (opening) return opening
    const request = factory.open(dbName)
    request.onupgradeneeded = () => request.result.createObjectStore(OBJECT_STORE)
    const opened = promisifyRequest(request)
    opening = opened
    opened.then(
      (db) => {
        // The browser may close a connection on its own (Safari does); reopen on the next call.
        db.onclose = () => (opening = undefined)
        db.onversionchange = () => {
          db.close()
          opening = undefined
        }
      },
      () => (opening = undefined),
    )
    return opened
  }
  return (mode, callback) => database().then((db) => callback(db.transaction(OBJECT_STORE, mode).objectStore(OBJECT_STORE)))
}

/**
 * Calls `use` with the result of `request` while its transaction is still active, so `use` can
 * write in the same transaction. If `use` throws, the transaction is aborted: a read-compare-write
 * must not commit half of its writes.
 */
export function onResult<T>(request: IDBRequest<T>, reject: (error: unknown) => void, use: (result: T) => void): void {
  request.onsuccess = () => {
    try {
      use(request.result)
    } catch (error) {
      try {
        request.transaction?.abort()
      } catch {
        // Already finished or aborted: nothing was left to undo.
      }
      reject(error)
    }
  }
  request.onerror = () => reject(request.error)
}

/** A key range over every array key that starts with `prefix` (`[prefix, …]`). */
export function prefixRange(prefix: IDBValidKey): IDBKeyRange {
  // Arrays sort after every other key type, so `[prefix, []]` is above any `[prefix, id]`.
  return IDBKeyRange.bound([prefix], [prefix, []])
}
