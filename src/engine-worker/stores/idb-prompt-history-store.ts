/**
 * Prompt history in IndexedDB (`<namespace>-history`), one record per prompt under the key
 * `[workspaceRoot, seq]`. Per-prompt records keep an append to one small write however long the
 * history is; `seq` grows by one per append, so a root's records are contiguous and trimming to
 * `maxEntries` is a single key-range delete.
 */
import { promisifyRequest } from 'idb-keyval'
import { checkRoot, exceedsUtf8Bytes, loadCount, resolveHistoryLimits, type HistoryLimits } from './history-rules.ts'
import { databaseName, keyvalStore, onResult, prefixRange } from './keyval-database.ts'
import type { AsyncPromptHistoryStore, IdbStoreOptions } from '../../shared/stores/types.ts'

type HistoryRecord = { value: string; timestampMs: number }

/** Options of `idbPromptHistoryStore`. */
export type IdbPromptHistoryStoreOptions = IdbStoreOptions & HistoryLimits

/** A prompt history store on IndexedDB, per workspace root. */
export function idbPromptHistoryStore(options: IdbPromptHistoryStoreOptions = {}): AsyncPromptHistoryStore {
  const { maxEntries, maxRecordBytes } = resolveHistoryLimits(options)
  const use = keyvalStore(databaseName(options.namespace, 'history'), options.indexedDB)

  return {
    async load(workspaceRoot, limit) {
      checkRoot(workspaceRoot)
      const count = loadCount(limit)
      if (count === 0) return []
      return use('readonly', (store) => {
        return new Promise<string[]>((resolve, reject) => {
          const newestFirst: string[] = []
          const request = store.openCursor(prefixRange(workspaceRoot), 'prev')
          onResult(request, reject, (cursor) => {
            if (cursor === null) return resolve(newestFirst.reverse())
            const record = cursor.value as Partial<HistoryRecord> | undefined
            // A record of another shape was not written here; skip it rather than fail the load.
            if (typeof record?.value === 'string') newestFirst.push(record.value)
            if (newestFirst.length >= count) return resolve(newestFirst.reverse())
            cursor.continue()
          })
        })
      })
    },

    async append(workspaceRoot, value, timestampMs) {
      checkRoot(workspaceRoot)
      if (typeof value !== 'string') throw new TypeError('a history entry must be a string')
      if (exceedsUtf8Bytes(value, maxRecordBytes)) return 'record_too_large'
      return use('readwrite', (store) => {
        return new Promise<void | 'duplicate'>((resolve, reject) => {
          // Read the latest entry and write the next in one transaction, so two tabs appending at
          // once cannot both take the same seq.
          const request = store.openCursor(prefixRange(workspaceRoot), 'prev')
          onResult(request, reject, (cursor) => {
            const latest = cursor?.value as Partial<HistoryRecord> | undefined
            if (latest?.value === value) return resolve('duplicate')
            const seq = cursor === null ? 1 : seqOf(cursor.primaryKey) + 1
            const record: HistoryRecord = { value, timestampMs }
            store.put(record, [workspaceRoot, seq])
            if (seq > maxEntries) store.delete(IDBKeyRange.bound([workspaceRoot], [workspaceRoot, seq - maxEntries]))
            promisifyRequest(store.transaction).then(() => resolve(), reject)
          })
        })
      })
    },

    async clear(workspaceRoot) {
      checkRoot(workspaceRoot)
      await use('readwrite', (store) => {
        store.delete(prefixRange(workspaceRoot))
        return promisifyRequest(store.transaction)
      })
    },
  }
}

/** The seq of a `[workspaceRoot, seq]` key. */
function seqOf(key: IDBValidKey): number {
  const seq = Array.isArray(key) ? key[1] : undefined
  return typeof seq === 'number' && Number.isSafeInteger(seq) ? seq : 0
}
