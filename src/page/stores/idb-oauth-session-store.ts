/**
 * The signed-in OAuth session in IndexedDB (`<namespace>-oauth`), sealed: the record under
 * 'session' holds an IV and AES-GCM ciphertext, never the plain bytes; the non-extractable key
 * sits beside it under 'key' (see seal.ts).
 *
 * Same revision discipline as sessions. Sealing is asynchronous and an IndexedDB transaction
 * cannot wait for it, so `commit` reads first (to fail a stale revision before encrypting), seals,
 * and then compares again and writes in ONE readwrite transaction. That transaction also writes
 * the key it sealed with, so the stored key and record always belong together, even if another
 * tab generated a key of its own meanwhile or the site's data was cleared in between.
 *
 * A record that cannot be opened (its key is gone, it was tampered with, or it is not of the
 * shape written here) loads as null, never as garbage: the bytes are lost either way. The store
 * that answered null then lets `commit(…, undefined)` and `remove(undefined)` replace that
 * record, so a new sign-in is not blocked by a conflict with something nobody can read; until
 * then the record is kept as it is.
 */
import { promisifyRequest } from 'idb-keyval'
import { databaseName, keyvalStore, onResult } from '../../engine-worker/stores/keyval-database.ts'
import { copyBytes, nextRevision } from '../../engine-worker/stores/revision.ts'
import { generateSealingKey, isSealedBytes, isSealingKey, seal, unseal, type SealedBytes } from './seal.ts'
import { oauthConflict } from '../../shared/stores/store-errors.ts'
import type { AsyncOAuthSessionStore, IdbStoreOptions } from '../../shared/stores/types.ts'

/** The stored record: sealed bytes and their revision (revisions are not secret). */
type SealedRecord = SealedBytes & { revision: string; seq: number }

const KEY = 'key'
const SESSION = 'session'

/** An OAuth session store on IndexedDB that keeps the bytes sealed at rest. */
export function idbOAuthSessionStore(options: IdbStoreOptions = {}): AsyncOAuthSessionStore {
  const use = keyvalStore(databaseName(options.namespace, 'oauth'), options.indexedDB)
  // The revision of a record this instance found unreadable, which `undefined` may then replace.
  let unreadableRevision: string | undefined

  /** Whether a caller holding `expected` may replace `found` (the raw stored value). */
  const matches = (found: unknown, expected: string | undefined): boolean => {
    if (found === undefined) return expected === undefined
    // A record of another shape loads as null, so only a caller that saw nothing may replace it.
    if (!isSealedRecord(found)) return expected === undefined
    return found.revision === expected || (expected === undefined && found.revision === unreadableRevision)
  }

  /** The key and the record, read in one transaction so they are from the same moment. */
  const read = () =>
    use('readonly', async (store) => {
      const [key, record] = await Promise.all([promisifyRequest(store.get(KEY)), promisifyRequest(store.get(SESSION))])
      return { key: key as unknown, record: record as unknown }
    })

  return {
    async load() {
      const { key, record } = await read()
      if (record === undefined) return null
      if (!isSealedRecord(record)) return null
      const bytes = isSealingKey(key) ? await unseal(key, record) : null
      if (bytes === null) {
        unreadableRevision = record.revision
        return null
      }
      return { bytes, revision: record.revision }
    },

    async commit(bytes, expectedRevision) {
      const plain = copyBytes(bytes)
      const before = await read()
      if (!matches(before.record, expectedRevision)) throw conflict('commit', expectedRevision, before.record)
      const key = isSealingKey(before.key) ? before.key : await generateSealingKey()
      const sealed = await seal(key, plain)
      return use('readwrite', (store) => {
        return new Promise<{ revision: string }>((resolve, reject) => {
          onResult(store.get(SESSION), reject, (found: unknown) => {
            if (!matches(found, expectedRevision)) return reject(conflict('commit', expectedRevision, found))
            const { seq, revision } = nextRevision(isSealedRecord(found) ? found.seq : undefined)
            store.put(key, KEY)
            store.put({ ...sealed, revision, seq } satisfies SealedRecord, SESSION)
            promisifyRequest(store.transaction).then(() => {
              unreadableRevision = undefined
              resolve({ revision })
            }, reject)
          })
        })
      })
    },

    async remove(expectedRevision) {
      return use('readwrite', (store) => {
        return new Promise<true | 'missing'>((resolve, reject) => {
          onResult(store.get(SESSION), reject, (found: unknown) => {
            if (found === undefined) return resolve('missing')
            if (!matches(found, expectedRevision)) return reject(conflict('remove', expectedRevision, found))
            store.delete(SESSION)
            promisifyRequest(store.transaction).then(() => {
              unreadableRevision = undefined
              resolve(true)
            }, reject)
          })
        })
      })
    },
  }
}

function conflict(action: 'commit' | 'remove', expected: string | undefined, found: unknown) {
  return oauthConflict(action, expected, isSealedRecord(found) ? found.revision : found === undefined ? undefined : 'unreadable')
}

function isSealedRecord(value: unknown): value is SealedRecord {
  const record = value as Partial<SealedRecord> | null
  return isSealedBytes(value) && typeof record?.revision === 'string' && typeof record.seq === 'number'
}
