/**
 * Test helpers: a fresh fake IndexedDB per test (tests never share one) and raw reads of what a
 * store wrote, to check the stored form itself rather than what the store answers.
 */
import 'fake-indexeddb/auto' // IDBKeyRange and friends as globals, as in a browser
import { IDBFactory } from 'fake-indexeddb'
import { OBJECT_STORE } from '../../src/engine-worker/stores/keyval-database.ts'

/** A new, empty IndexedDB. */
export function freshIndexedDB(): IDBFactory {
  return new IDBFactory()
}

/** Runs `body` on the raw object store of `dbName` and closes the connection after. */
export function rawStore<T>(factory: IDBFactory, dbName: string, mode: IDBTransactionMode, body: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const open = factory.open(dbName)
    open.onerror = () => reject(open.error)
    open.onsuccess = () => {
      const db = open.result
      const request = body(db.transaction(OBJECT_STORE, mode).objectStore(OBJECT_STORE))
      request.onsuccess = () => {
        db.close()
        resolve(request.result)
      }
      request.onerror = () => {
        db.close()
        reject(request.error)
      }
    }
  })
}

/** Every [key, value] in `dbName`, as stored. */
export async function rawEntries(factory: IDBFactory, dbName: string): Promise<Array<[IDBValidKey, unknown]>> {
  const keys = await rawStore(factory, dbName, 'readonly', (store) => store.getAllKeys())
  const values = await rawStore(factory, dbName, 'readonly', (store) => store.getAll())
  return keys.map((key, i) => [key, values[i]])
}

/** True when `needle` occurs as a run of bytes anywhere in `haystack`. */
export function containsBytes(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer
    return true
  }
  return false
}

/** `await promise`'s rejection, so a test can assert the whole error (fails if it resolves). */
export async function rejectionOf(promise: unknown): Promise<{ code?: unknown; message: string; name: string; cause?: unknown }> {
  try {
    await promise
  } catch (error) {
    return error as { code?: unknown; message: string; name: string; cause?: unknown }
  }
  throw new Error('expected the promise to reject, but it resolved')
}

/** UTF-8 bytes of `text`. */
export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

/** Byte equality without the matcher's element-by-element walk (seconds for megabytes). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength))
}
