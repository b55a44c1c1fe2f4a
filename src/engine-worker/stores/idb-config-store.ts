/**
 * Settings (active model, mode, provider, …) in IndexedDB: one string per id, in the database
 * `<namespace>-config`. The engine validates what it reads back, so this store only keeps strings.
 */
import { get, set } from 'idb-keyval'
import { databaseName, keyvalStore } from './keyval-database.ts'
import type { AsyncConfigStore, IdbStoreOptions } from '../../shared/stores/types.ts'

/** A config store on IndexedDB: `get` answers null for an id never set. */
export function idbConfigStore(options: IdbStoreOptions = {}): AsyncConfigStore {
  const use = keyvalStore(databaseName(options.namespace, 'config'), options.indexedDB)
  return {
    async get(id) {
      const value: unknown = await get(id, use)
      // Anything but a string was not written by `set`; treat it as unset rather than pass it on.
      return typeof value === 'string' ? value : null
    },
    async set(id, value) {
      if (typeof value !== 'string') throw new TypeError(`config value for "${id}" must be a string`)
      await set(id, value, use)
    },
  }
}
