import { describe, expect, it } from 'vitest'
import { sessionStoreContract } from './contract-suites.ts'
import { idbSessionStore } from './idb-session-store.ts'
import { freshIndexedDB, rawEntries, rawStore, rejectionOf, utf8 } from './test-idb.ts'

sessionStoreContract('idbSessionStore', (now) => idbSessionStore({ now, indexedDB: freshIndexedDB() }))

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
    expect((lost[0] as PromiseRejectedResult).reason.code).toBe('FX_SESSION_REVISION_CONFLICT')
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
      [['data', 's1'], { bytes: utf8('big'), revision }],
      [['meta', 's1'], { id: 's1', revision, seq: 1, updatedAtMs: 42 }],
    ])
  })

  it('refuses a record it did not write with FX_STORE_RECORD_INVALID and leaves it in place', async () => {
    const indexedDB = freshIndexedDB()
    const store = idbSessionStore({ indexedDB })
    await store.commit('other', utf8('x'), undefined) // creates the database
    await rawStore(indexedDB, 'fxterm-sessions', 'readwrite', (raw) => raw.put('garbage', ['data', 's1']))
    const error = await rejectionOf(store.load('s1'))
    expect([error.code, error.message]).toEqual([
      'FX_STORE_RECORD_INVALID',
      'the stored session "s1" is not in the format fxterm writes; it was left as it is',
    ])
    expect(await rawStore(indexedDB, 'fxterm-sessions', 'readonly', (raw) => raw.get(['data', 's1']))).toBe('garbage')
  })
})
