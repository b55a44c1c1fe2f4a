/**
 * Conversations in IndexedDB (`<namespace>-sessions`), three kinds of record in one object store,
 * always written together in one transaction:
 *
 * - `['meta', id]` → `{ id, revision, seq, updatedAtMs }`, small, so `list()` never reads bytes;
 * - `['data', id]` → `{ revision, parts, nextKey }`: the session's parts in order;
 * - `['part', id, key]` → up to 128 KiB of the bytes (session-parts.ts): a commit writes only
 *   the parts that changed since this store's last commit of the session.
 *
 * `commit` reads the meta record, compares revisions and writes in ONE readwrite transaction.
 * IndexedDB runs readwrite transactions on the same store one after another, even across tabs,
 * so of two racing commits from the same revision exactly one wins. A `['data', id]` record of
 * `{ bytes, revision }` (how sessions were stored before parts) still loads, and the next commit
 * replaces it with parts.
 */
import { promisifyRequest } from 'idb-keyval'
import { databaseName, keyvalStore, onResult, prefixRange } from './keyval-database.ts'
import { copyBytes, nextRevision } from './revision.ts'
import { isPartList, joinParts, planParts, type Part } from './session-parts.ts'
import { letGoOf } from '../../shared/snapshot-buffers.ts'
import { sessionConflict } from '../../shared/stores/store-errors.ts'
import { ErrorCode, FxError } from '../../shared/errors.ts'
import type { AsyncSessionStore, IdbStoreOptions, RevisionedBytes, SessionStoreHandOver, SessionStoreHeads } from '../../shared/stores/types.ts'

type SessionMeta = { id: string; revision: string; seq: number; updatedAtMs: number }
type PartsRecord = { revision: string; parts: Part[]; nextKey: number }

/** Options of `idbSessionStore`. */
export type IdbSessionStoreOptions = IdbStoreOptions & {
  /** The clock for `updatedAtMs`; default `Date.now`. */
  now?: () => number
  /**
   * The caller hands its bytes over to `commit` and never changes them afterwards (a worker that
   * received them by postMessage), so they are kept without a defensive copy. Default false.
   */
  handsOverBytes?: boolean
}

/**
 * The store, with `lastCommitted` (SessionStoreHandOver) and `warm(id)`: reads session `id` into
 * what the next commit compares with, so that the first commit after a reload writes only the parts
 * that changed, not all of them (a commit waits for a warm-up under way). It answers what it read,
 * as `load` does, but those bytes stay the store's too: the caller must not change them.
 * `warmNewest()` warms up with the newest session, the one a `--resume last` page continues, and
 * answers it with its id (null when there is none); it reads once, however often it is asked.
 */
export type IdbSessionStore = AsyncSessionStore &
  SessionStoreHeads &
  Pick<SessionStoreHandOver, 'lastCommitted'> & { warm(id: string): Promise<RevisionedBytes | null>; warmNewest(): Promise<(RevisionedBytes & { id: string }) | null> }

const metaKey = (id: string) => ['meta', id]
const dataKey = (id: string) => ['data', id]
const partKey = (id: string, key: number) => ['part', id, key]
const partRange = (id: string) => IDBKeyRange.bound(['part', id], ['part', id, []])

/** A session store on IndexedDB; `list()` answers newest first (ties by id). */
export function idbSessionStore(options: IdbSessionStoreOptions = {}): IdbSessionStore {
  const use = keyvalStore(databaseName(options.namespace, 'sessions'), options.indexedDB)
  const now = options.now ?? Date.now
  /**
   * What this store last committed (or warmed up with) per session: the next commit writes only
   * what differs.
   */
  const written = new Map<string, PartsRecord & { bytes: Uint8Array; handedOver?: boolean }>()
  const warming = new Map<string, Promise<RevisionedBytes | null>>()
  let warmingNewest: Promise<(RevisionedBytes & { id: string }) | null> | undefined
  /** The revision of this store's own last commit per session (SessionStoreHandOver.lastCommitted). */
  const committed = new Map<string, string>()

  /**
   * Session `id` as stored, with its parts when it is stored in parts; null when there is none.
   * With `atLeast`, only the parts that hold its first `atLeast` bytes (no parts then).
   */
  const read = (id: string, atLeast = Infinity): Promise<(RevisionedBytes & Partial<Pick<PartsRecord, 'parts' | 'nextKey'>>) | null> => {
    const invalid = (why: string) => new FxError(ErrorCode.FX_STORE_RECORD_INVALID, `the stored session "${id}" ${why}; it was left as it is`)
    return use('readonly', (store) => {
      return new Promise((resolve, reject) => {
        onResult(store.get(dataKey(id)), reject, (record: unknown) => {
          if (record === undefined) return resolve(null)
          if (isBytesRecord(record)) return resolve({ bytes: record.bytes, revision: record.revision })
          if (!isPartsRecord(record)) return reject(invalid('is not in the format fxterm writes'))
          if (atLeast !== Infinity) return readHead(store, id, record, atLeast, reject, resolve)
          const keys = store.getAllKeys(partRange(id))
          onResult(store.getAll(partRange(id)), reject, (values: unknown[]) => {
            const byKey = new Map<number, unknown>()
            keys.result.forEach((key, i) => byKey.set((key as [string, string, number])[2], values[i]))
            const bytes = joinParts(record.parts, byKey)
            if (bytes === null) return reject(invalid('is missing some of its parts'))
            resolve({ bytes, revision: record.revision, parts: record.parts, nextKey: record.nextKey })
          })
        })
      })
    })
  }

  const self: IdbSessionStore = {
    async load(id) {
      checkId(id)
      const found = await read(id)
      return found && { bytes: found.bytes, revision: found.revision }
    },

    warmNewest() {
      warmingNewest ??= self.list().then(async ([newest]) => {
        const found = newest ? await self.warm(newest.id) : null
        return found && { id: newest!.id, ...found }
      })
      return warmingNewest
    },

    async loadHead(id, atLeast) {
      checkId(id)
      const found = await read(id, atLeast)
      return found && { bytes: found.bytes, revision: found.revision }
    },

    warm(id) {
      checkId(id)
      const last = written.get(id)
      if (last) {
        last.handedOver = false // lent out now: never recycled
        return Promise.resolve({ bytes: last.bytes, revision: last.revision })
      }
      let warmed = warming.get(id)
      if (!warmed) {
        warmed = read(id).then((found) => {
          // A commit that landed meanwhile left what it wrote, which is newer.
          if (found?.parts && found.nextKey !== undefined && !written.has(id)) written.set(id, { revision: found.revision, parts: found.parts, nextKey: found.nextKey, bytes: found.bytes })
          return found && { bytes: found.bytes, revision: found.revision }
        })
        warming.set(id, warmed)
        const done = () => void warming.delete(id)
        warmed.then(done, done)
      }
      return warmed
    },

    async commit(id, bytes, expectedRevision) {
      checkId(id)
      // A read that tells which parts this commit may keep.
      await warmingNewest?.catch(() => {})
      // A failed read leaves nothing to compare with: this commit writes every part, as it would have.
      await warming.get(id)?.catch(() => {})
      const handedOver = options.handsOverBytes === true && bytes instanceof Uint8Array
      const owned = handedOver ? bytes : copyBytes(bytes)
      const updatedAtMs = now()
      return use('readwrite', (store) => {
        return new Promise<{ revision: string }>((resolve, reject) => {
          const meta = store.get(metaKey(id))
          onResult(store.get(dataKey(id)), reject, (data: unknown) => {
            const found = meta.result as SessionMeta | undefined
            // `undefined` expected means "must not exist yet", so it conflicts with any record.
            if (found?.revision !== expectedRevision) return reject(sessionConflict(id, expectedRevision, found?.revision))
            const stored = isPartsRecord(data) ? data : null
            const last = written.get(id)
            const previous = stored && last && last.revision === stored.revision && sameParts(last.parts, stored.parts) ? last : null
            const plan = planParts(owned, previous, stored?.nextKey ?? 0)
            // Parts of a record this store did not write last are all replaced.
            const removes = previous ? plan.removes : (stored?.parts ?? []).map((p) => p.key)
            const { seq, revision } = nextRevision(found?.seq)
            for (const key of removes) store.delete(partKey(id, key))
            for (const write of plan.writes) store.put(owned.slice(write.from, write.to), partKey(id, write.key))
            const record: PartsRecord = { revision, parts: plan.parts, nextKey: plan.nextKey }
            store.put({ id, revision, seq, updatedAtMs } satisfies SessionMeta, metaKey(id))
            store.put(record, dataKey(id))
            // Answer only once the transaction is durable, so a returned revision is really stored.
            promisifyRequest(store.transaction).then(() => {
              // The bytes compared with last time are no one else's: a later snapshot may reuse them.
              const replaced = written.get(id)
              if (replaced?.handedOver && replaced.bytes !== owned) letGoOf(replaced.bytes)
              written.set(id, { ...record, bytes: owned, handedOver })
              committed.set(id, revision)
              resolve({ revision })
            }, (error: unknown) => {
              written.delete(id)
              reject(error)
            })
          })
        })
      })
    },

    lastCommitted: async (id) => committed.get(id) ?? null,

    async list() {
      const metas = await use('readonly', (store) => promisifyRequest(store.getAll(prefixRange('meta'))))
      return (metas as Array<Partial<SessionMeta>>)
        .filter((meta): meta is SessionMeta => typeof meta.id === 'string' && typeof meta.updatedAtMs === 'number')
        .map(({ id, updatedAtMs }) => ({ id, updatedAtMs }))
        .sort(newestFirst)
    },

    async remove(id) {
      checkId(id)
      written.delete(id)
      committed.delete(id)
      await use('readwrite', (store) => {
        store.delete(metaKey(id))
        store.delete(dataKey(id))
        store.delete(partRange(id))
        return promisifyRequest(store.transaction)
      })
    },
  }
  return self
}

/** The first parts of `record` that hold `atLeast` bytes, joined, into `resolve` (see `read`). */
function readHead(store: IDBObjectStore, id: string, record: PartsRecord, atLeast: number, reject: (error: unknown) => void, resolve: (found: RevisionedBytes) => void): void {
  const parts: Part[] = []
  let length = 0
  for (const part of record.parts) {
    if (length >= atLeast) break
    parts.push(part)
    length += part.length
  }
  const byKey = new Map<number, unknown>()
  if (parts.length === 0) return resolve({ bytes: new Uint8Array(0), revision: record.revision })
  parts.forEach((part, i) =>
    onResult(store.get(partKey(id, part.key)), reject, (value: unknown) => {
      byKey.set(part.key, value)
      if (i < parts.length - 1) return // requests answer in order: the last one answers last
      const bytes = joinParts(parts, byKey)
      if (bytes === null) return reject(new FxError(ErrorCode.FX_STORE_RECORD_INVALID, `the stored session "${id}" is missing some of its parts; it was left as it is`))
      resolve({ bytes, revision: record.revision })
    }),
  )
}

/** Session ids are strings; anything else is a caller's bug, reported before touching storage. */
export function checkId(id: unknown): asserts id is string {
  if (typeof id !== 'string') throw new TypeError('a session id must be a string')
}

/** The order of `list()`: latest `updatedAtMs` first, then by id, so equal times stay stable. */
export function newestFirst(a: { id: string; updatedAtMs: number }, b: { id: string; updatedAtMs: number }): number {
  return b.updatedAtMs - a.updatedAtMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

/** A session stored whole, as before parts. */
function isBytesRecord(value: unknown): value is { bytes: Uint8Array; revision: string } {
  const record = value as { bytes?: unknown; revision?: unknown } | null
  return typeof record === 'object' && record !== null && record.bytes instanceof Uint8Array && typeof record.revision === 'string'
}

function isPartsRecord(value: unknown): value is PartsRecord {
  const record = value as Partial<PartsRecord> | null
  return typeof record === 'object' && record !== null && typeof record.revision === 'string' && Number.isInteger(record.nextKey) && isPartList(record.parts)
}

function sameParts(a: readonly Part[], b: readonly Part[]): boolean {
  return a.length === b.length && a.every((part, i) => part.key === b[i]!.key && part.length === b[i]!.length)
}
