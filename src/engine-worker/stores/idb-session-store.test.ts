import { describe, expect, it } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import { sessionStoreContract } from '../../../test/support/store-contract-suites.ts'
import { idbSessionStore } from './idb-session-store.ts'
import { PART_BYTES } from './session-parts.ts'
import { freshIndexedDB, rawEntries, rawStore, rejectionOf, sameBytes, utf8 } from '../../../test/support/idb.ts'

sessionStoreContract('idbSessionStore', (now) => idbSessionStore({ now, indexedDB: freshIndexedDB() }))

/**
 * A load's answer with its bytes compared to `bytes`: a deep toEqual of a few hundred KB goes
 * element by element and took over 20 s on a loaded machine.
 */
const comparedTo = (bytes: Uint8Array, answer: { bytes: Uint8Array; revision: string } | null) =>
  answer && { sameBytes: sameBytes(answer.bytes, bytes), revision: answer.revision }

describe('idbSessionStore', () => {
  it('survives a reload: a new store loads the bytes and accepts the stored revision', async () => {
    const indexedDB = freshIndexedDB()
    const { revision } = await idbSessionStore({ indexedDB }).commit('s1', utf8('turns'), undefined)
    const reloaded = idbSessionStore({ indexedDB })
    expect(await reloaded.load('s1')).toEqual({ bytes: utf8('turns'), revision })
    expect((await reloaded.commit('s1', utf8('more turns'), revision)).revision).not.toBe(revision)
  })

  it('lets exactly one of two tabs win a race to create the same session', async () => {
    const indexedDB = freshIndexedDB()
    const tabA = idbSessionStore({ indexedDB })
    const tabB = idbSessionStore({ indexedDB })
    const results = await Promise.allSettled([tabA.commit('s1', utf8('A'), undefined), tabB.commit('s1', utf8('B'), undefined)])
    const won = results.filter((result) => result.status === 'fulfilled')
    const lost = results.filter((result) => result.status === 'rejected')
    expect([won.length, lost.length]).toEqual([1, 1])
    expect((lost[0] as PromiseRejectedResult).reason.code).toBe(ErrorCode.FX_SESSION_REVISION_CONFLICT)
    const winner = results.indexOf(won[0]!) === 0 ? 'A' : 'B'
    expect(await tabA.load('s1')).toEqual({ bytes: utf8(winner), revision: (won[0] as PromiseFulfilledResult<{ revision: string }>).value.revision })
  })

  it('lets exactly one of two tabs win a race from the same revision', async () => {
    const indexedDB = freshIndexedDB()
    const tabA = idbSessionStore({ indexedDB })
    const tabB = idbSessionStore({ indexedDB })
    const { revision } = await tabA.commit('s1', utf8('base'), undefined)
    const results = await Promise.allSettled([tabA.commit('s1', utf8('A'), revision), tabB.commit('s1', utf8('B'), revision)])
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected'])
    const loaded = await tabB.load('s1')
    expect(['A', 'B']).toContain(new TextDecoder().decode(loaded!.bytes))
  })

  it('keeps two namespaces apart', async () => {
    const indexedDB = freshIndexedDB()
    const left = idbSessionStore({ namespace: 'left', indexedDB })
    const right = idbSessionStore({ namespace: 'right', indexedDB })
    await left.commit('s1', utf8('left'), undefined)
    expect([await right.load('s1'), await right.list()]).toEqual([null, []])
    // The same id in the other namespace is a first commit, not a conflict.
    await right.commit('s1', utf8('right'), undefined)
    expect((await left.load('s1'))?.bytes).toEqual(utf8('left'))
  })

  it('keeps list metadata apart from the bytes, so listing never reads a session', async () => {
    const indexedDB = freshIndexedDB()
    const { revision } = await idbSessionStore({ indexedDB, now: () => 42 }).commit('s1', utf8('big'), undefined)
    expect(await rawEntries(indexedDB, 'fxterm-sessions')).toEqual([
      [['data', 's1'], { revision, parts: [{ key: 0, length: 3 }], nextKey: 1 }],
      [['meta', 's1'], { id: 's1', revision, seq: 1, updatedAtMs: 42 }],
      [['part', 's1', 0], utf8('big')],
    ])
  })

  it('writes only the parts a commit changed, and leaves no part behind', async () => {
    const indexedDB = freshIndexedDB()
    const store = idbSessionStore({ indexedDB })
    const big = Uint8Array.from({ length: 5 * PART_BYTES }, (_, i) => (i * 7) % 256)
    let { revision } = await store.commit('s1', big, undefined)
    const before = await partRecords(indexedDB)
    // A rename: a few bytes near the start change and the rest moves by two.
    const renamed = new Uint8Array(big.length + 2)
    renamed.set(big.subarray(0, 20))
    renamed.set([1, 2, 3], 20)
    renamed.set(big.subarray(21), 23)
    ;({ revision } = await store.commit('s1', renamed, revision))
    const after = await partRecords(indexedDB)
    // Only the first part was written again (in two halves, being over the size of one now).
    const rewritten = after.filter(([key]) => !before.some(([old]) => old === key))
    expect(rewritten.reduce((n, [, bytes]) => n + bytes.byteLength, 0)).toBe(PART_BYTES + 2)
    const kept = after.filter(([key]) => before.some(([old]) => old === key))
    expect(kept.map(([key]) => key)).toEqual(before.slice(1).map(([key]) => key))
    expect(kept.every(([, bytes], i) => sameBytes(bytes, before[i + 1]![1]))).toBe(true)
    // A new store (a reload) reads it back whole, and its first commit rewrites every part.
    const reloaded = idbSessionStore({ indexedDB })
    expect(comparedTo(renamed, await reloaded.load('s1'))).toEqual({ sameBytes: true, revision })
    await reloaded.commit('s1', utf8('short now'), revision)
    expect(await partRecords(indexedDB)).toEqual([[7, utf8('short now')]])
    await reloaded.remove('s1')
    expect(await rawEntries(indexedDB, 'fxterm-sessions')).toEqual([])
  })

  it('warmed up with a session, a new store (a reload) writes only what its first commit changed', async () => {
    const indexedDB = freshIndexedDB()
    const big = Uint8Array.from({ length: 5 * PART_BYTES }, (_, i) => (i * 7) % 256)
    const { revision } = await idbSessionStore({ indexedDB }).commit('s1', big, undefined)
    const before = await partRecords(indexedDB)
    const reloaded = idbSessionStore({ indexedDB })
    const warming = reloaded.warm('s1')
    // A turn appended: the commit waits for the warm-up under way, then writes the last part only.
    const longer = new Uint8Array(big.length + 100)
    longer.set(big)
    longer.fill(9, big.length)
    const { revision: next } = await reloaded.commit('s1', longer, revision)
    await warming
    const after = await partRecords(indexedDB)
    expect(after.slice(0, 4).map(([key]) => key)).toEqual(before.slice(0, 4).map(([key]) => key))
    expect(after.slice(0, 4).every(([, bytes], i) => sameBytes(bytes, before[i]![1]))).toBe(true)
    expect(after.slice(4).reduce((n, [, bytes]) => n + bytes.byteLength, 0)).toBe(PART_BYTES + 100)
    expect(comparedTo(longer, await idbSessionStore({ indexedDB }).load('s1'))).toEqual({ sameBytes: true, revision: next })
    expect(await reloaded.lastCommitted('s1')).toBe(next)
  })

  it('a warm-up of a session another tab then changes is not used: that commit conflicts, the next writes every part', async () => {
    const indexedDB = freshIndexedDB()
    const { revision } = await idbSessionStore({ indexedDB }).commit('s1', new Uint8Array(3 * PART_BYTES).fill(1), undefined)
    const mine = idbSessionStore({ indexedDB })
    await mine.warm('s1')
    expect(await mine.lastCommitted('s1')).toBeNull() // read, not written, by this store
    const { revision: theirs } = await idbSessionStore({ indexedDB }).commit('s1', new Uint8Array(3 * PART_BYTES).fill(2), revision)
    expect(((await rejectionOf(mine.commit('s1', new Uint8Array(3 * PART_BYTES).fill(3), revision))) as { code?: string }).code).toBe(ErrorCode.FX_SESSION_REVISION_CONFLICT)
    const mixed = new Uint8Array(3 * PART_BYTES).fill(2)
    mixed.fill(4, 0, 10)
    const { revision: mixedRevision } = await mine.commit('s1', mixed, theirs)
    expect(comparedTo(mixed, await idbSessionStore({ indexedDB }).load('s1'))).toEqual({ sameBytes: true, revision: mixedRevision })
  })

  it('loadHead reads only the parts that hold the start asked for', async () => {
    const indexedDB = freshIndexedDB()
    const store = idbSessionStore({ indexedDB })
    const big = Uint8Array.from({ length: 3 * PART_BYTES }, (_, i) => (i * 7) % 256)
    const { revision } = await store.commit('s1', big, undefined)
    expect(comparedTo(big.subarray(0, PART_BYTES), await store.loadHead('s1', 10))).toEqual({ sameBytes: true, revision })
    expect(comparedTo(big.subarray(0, 2 * PART_BYTES), await store.loadHead('s1', PART_BYTES + 1))).toEqual({ sameBytes: true, revision })
    expect(comparedTo(big, await store.loadHead('s1', 10 * PART_BYTES))).toEqual({ sameBytes: true, revision })
    expect(await store.loadHead('missing', 10)).toBeNull()
    await rawStore(indexedDB, 'fxterm-sessions', 'readwrite', (raw) => raw.delete(['part', 's1', 0]))
    expect(((await rejectionOf(store.loadHead('s1', 10))) as { code?: string }).code).toBe(ErrorCode.FX_STORE_RECORD_INVALID)
  })

  it('loads a session stored whole (before parts), and its next commit stores parts', async () => {
    const indexedDB = freshIndexedDB()
    const store = idbSessionStore({ indexedDB })
    await store.commit('other', utf8('x'), undefined) // creates the database
    await rawStore(indexedDB, 'fxterm-sessions', 'readwrite', (raw) => raw.put({ bytes: utf8('old format'), revision: '1-old' }, ['data', 's1']))
    await rawStore(indexedDB, 'fxterm-sessions', 'readwrite', (raw) => raw.put({ id: 's1', revision: '1-old', seq: 1, updatedAtMs: 1 }, ['meta', 's1']))
    expect(await store.load('s1')).toEqual({ bytes: utf8('old format'), revision: '1-old' })
    const { revision } = await store.commit('s1', utf8('new format'), '1-old')
    expect(await rawStore(indexedDB, 'fxterm-sessions', 'readonly', (raw) => raw.get(['data', 's1']))).toEqual({ revision, parts: [{ key: 0, length: 10 }], nextKey: 1 })
    expect(await store.load('s1')).toEqual({ bytes: utf8('new format'), revision })
  })

  it('refuses a session with a missing part with FX_STORE_RECORD_INVALID and leaves it in place', async () => {
    const indexedDB = freshIndexedDB()
    const store = idbSessionStore({ indexedDB })
    await store.commit('s1', new Uint8Array(3 * PART_BYTES), undefined)
    await rawStore(indexedDB, 'fxterm-sessions', 'readwrite', (raw) => raw.delete(['part', 's1', 1]))
    const error = await rejectionOf(store.load('s1'))
    expect([error.code, error.message]).toEqual([ErrorCode.FX_STORE_RECORD_INVALID, 'the stored session "s1" is missing some of its parts; it was left as it is'])
    expect((await partRecords(indexedDB)).map(([key]) => key)).toEqual([0, 2])
  })

  it('refuses a record it did not write with FX_STORE_RECORD_INVALID and leaves it in place', async () => {
    const indexedDB = freshIndexedDB()
    const store = idbSessionStore({ indexedDB })
    await store.commit('other', utf8('x'), undefined) // creates the database
    await rawStore(indexedDB, 'fxterm-sessions', 'readwrite', (raw) => raw.put('garbage', ['data', 's1']))
    const error = await rejectionOf(store.load('s1'))
    expect([error.code, error.message]).toEqual([
      ErrorCode.FX_STORE_RECORD_INVALID,
      'the stored session "s1" is not in the format fxterm writes; it was left as it is',
    ])
    expect(await rawStore(indexedDB, 'fxterm-sessions', 'readonly', (raw) => raw.get(['data', 's1']))).toBe('garbage')
  })
})

/** The session parts in storage, as [part number, bytes]. */
async function partRecords(indexedDB: IDBFactory): Promise<Array<[number, Uint8Array]>> {
  const entries = await rawEntries(indexedDB, 'fxterm-sessions')
  return entries.filter(([key]) => (key as unknown[])[0] === 'part').map(([key, value]) => [(key as [string, string, number])[2], value as Uint8Array])
}
