/**
 * Conversations in IndexedDB (`<namespace>-sessions`). Each session is two records in the one
 * object store, always written together in one transaction:
 *
 * - `['meta', id]` → `{ id, revision, seq, updatedAtMs }`, small, so `list()` never reads bytes;
 * - `['data', id]` → `{ bytes, revision }`, so `load()` is a single read.
 *
 * `commit` reads the meta record, compares revisions and writes both records in ONE readwrite
 * transaction. IndexedDB runs readwrite transactions on the same store one after another, even
 * across tabs, so of two racing commits from the same revision exactly one wins.
 */
import { promisifyRequest } from 'idb-keyval'
import { databaseName, keyvalStore, onResult, prefixRange } from './keyval-database.ts'
import { copyBytes, nextRevision } from './revision.ts'
import { FX_STORE_RECORD_INVALID, sessionConflict } from './store-errors.ts'
import { FxError } from '../terminal/fx-error.ts'
import type { AsyncSessionStore, IdbStoreOptions, RevisionedBytes } from './types.ts'

type SessionMeta = { id: string; revision: string; seq: number; updatedAtMs: number }

/** Options of `idbSessionStore`. */
export type IdbSessionStoreOptions = IdbStoreOptions & {
  /** The clock for `updatedAtMs`; default `Date.now`. */
  now?: () => number
}

const metaKey = (id: string) => ['meta', id]
const dataKey = (id: string) => ['data', id]

/** A session store on IndexedDB; `list()` answers newest first (ties by id). */
export function idbSessionStore(options: IdbSessionStoreOptions = {}): AsyncSessionStore {
  const use = keyvalStore(databaseName(options.namespace, 'sessions'), options.indexedDB)
  const now = options.now ?? Date.now

  return {
    async load(id) {
      checkId(id)
      const record: unknown = await use('readonly', (store) => promisifyRequest(store.get(dataKey(id))))
      if (record === undefined) return null
      if (!isRevisionedBytes(record)) {
        throw new FxError(FX_STORE_RECORD_INVALID, `the stored session "${id}" is not in the format fxterm writes; it was left as it is`)
      }
      return { bytes: record.bytes, revision: record.revision }
    },

    async commit(id, bytes, expectedRevision) {
      checkId(id)
      const copy = copyBytes(bytes)
      const updatedAtMs = now()
      return use('readwrite', (store) => {
        return new Promise<{ revision: string }>((resolve, reject) => {
          onResult(store.get(metaKey(id)), reject, (found: SessionMeta | undefined) => {
            // `undefined` expected means "must not exist yet", so it conflicts with any record.
            if (found?.revision !== expectedRevision) return reject(sessionConflict(id, expectedRevision, found?.revision))
            const { seq, revision } = nextRevision(found?.seq)
            const meta: SessionMeta = { id, revision, seq, updatedAtMs }
            store.put(meta, metaKey(id))
            store.put({ bytes: copy, revision } satisfies RevisionedBytes, dataKey(id))
            // Answer only once the transaction is durable, so a returned revision is really stored.
            promisifyRequest(store.transaction).then(() => resolve({ revision }), reject)
          })
        })
      })
    },

    async list() {
      const metas = await use('readonly', (store) => promisifyRequest(store.getAll(prefixRange('meta'))))
      return (metas as Array<Partial<SessionMeta>>)
        .filter((meta): meta is SessionMeta => typeof meta.id === 'string' && typeof meta.updatedAtMs === 'number')
        .map(({ id, updatedAtMs }) => ({ id, updatedAtMs }))
        .sort(newestFirst)
    },

    async remove(id) {
      checkId(id)
      await use('readwrite', (store) => {
        store.delete(metaKey(id))
        store.delete(dataKey(id))
        return promisifyRequest(store.transaction)
      })
    },
  }
}

/** Session ids are strings; anything else is a caller's bug, reported before touching storage. */
export function checkId(id: unknown): asserts id is string {
  if (typeof id !== 'string') throw new TypeError('a session id must be a string')
}

/** The order of `list()`: latest `updatedAtMs` first, then by id, so equal times stay stable. */
export function newestFirst(a: { id: string; updatedAtMs: number }, b: { id: string; updatedAtMs: number }): number {
  return b.updatedAtMs - a.updatedAtMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

function isRevisionedBytes(value: unknown): value is RevisionedBytes {
  const record = value as Partial<RevisionedBytes> | null
  return typeof record === 'object' && record !== null && record.bytes instanceof Uint8Array && typeof record.revision === 'string'
}
