import { describe, expect, test } from 'vitest'
import 'fake-indexeddb/auto'
import { deferStores, openDeferredStores } from './page-deferred-stores.ts'
import { memoryConfigStore, memoryOAuthSessionStore, memoryPromptHistoryStore, memorySessionStore } from '../stores/memory-stores.ts'
import type { BrowserStores } from '../stores/open-browser-stores.ts'
import type { SessionStoreHandOver } from '../../shared/stores/types.ts'

/** A probe the test decides: resolves with stores on "IndexedDB" (persistent) or in memory. */
function probe() {
  let settle!: (stores: BrowserStores) => void
  const opening = new Promise<BrowserStores>((resolve) => (settle = resolve))
  const chosen = (persistent: boolean): BrowserStores => ({
    config: memoryConfigStore(),
    history: memoryPromptHistoryStore(),
    sessions: memorySessionStore(),
    oauth: memoryOAuthSessionStore(),
    persistent,
  })
  return { opening, settle, chosen }
}

describe('deferStores reading ahead of the probe', () => {
  test('a read starts at once and its answer is used once the probe chooses IndexedDB', async () => {
    const { opening, settle, chosen } = probe()
    const early = memoryConfigStore()
    await early.set('model', 'from-idb')
    const asked: string[] = []
    const spy = { get: (id: string) => (asked.push(id), early.get(id)), set: early.set }
    const stores = deferStores(opening, { config: spy })
    const read = stores.config.get('model')
    expect(asked, 'asked before the probe answered').toEqual(['model'])
    settle(chosen(true))
    expect(await read).toBe('from-idb')
  })

  test('when the probe falls back to memory, the early answer is dropped and memory answers', async () => {
    const { opening, settle, chosen } = probe()
    const early = memoryConfigStore()
    await early.set('model', 'from-idb')
    const stores = deferStores(opening, { config: early })
    const read = stores.config.get('model')
    const inMemory = chosen(false)
    await inMemory.config.set('model', 'in-memory')
    settle(inMemory)
    expect(await read).toBe('in-memory')
  })

  test('an early read that fails is asked again of the chosen store', async () => {
    const { opening, settle, chosen } = probe()
    const failing = { get: () => Promise.reject(new Error('open failed')), set: () => Promise.resolve() }
    const stores = deferStores(opening, { config: failing })
    const read = stores.config.get('mode')
    const opened = chosen(true)
    await opened.config.set('mode', 'ask')
    settle(opened)
    expect(await read).toBe('ask')
  })

  test('after a write, reads wait for the probe like writes: a read never misses a write made before it', async () => {
    const { opening, settle, chosen } = probe()
    const early = memoryConfigStore() // the same data as the chosen store would hold, before the write
    const stores = deferStores(opening, { config: early })
    const write = stores.config.set('model', 'new')
    const read = stores.config.get('model')
    const opened = chosen(true)
    settle(opened)
    await write
    expect(await read).toBe('new')
    expect(await early.get('model'), 'the read did not run ahead').toBeNull()
  })

  test('on fake IndexedDB: the latest session is read while the probe runs, and the page sees it', async () => {
    const first = openDeferredStores({ namespace: 'ahead' })
    await first.stores.sessions.commit('s1', new Uint8Array([1, 2, 3]), undefined)
    const second = openDeferredStores({ namespace: 'ahead' })
    const [list, loaded, opened] = await Promise.all([second.stores.sessions.list(), second.stores.sessions.load('s1'), second.opening])
    expect(opened.persistent).toBe(true)
    expect(list.map((entry) => entry.id)).toEqual(['s1'])
    expect([...(loaded?.bytes ?? [])]).toEqual([1, 2, 3])
  })

  test('without read-ahead, reads still answer from IndexedDB once the probe has chosen it', async () => {
    const first = openDeferredStores({ namespace: 'no-ahead' })
    await first.stores.config.set('model', 'kept')
    const second = openDeferredStores({ namespace: 'no-ahead', readAhead: false })
    expect(await second.stores.config.get('model')).toBe('kept')
    expect((await second.opening).persistent).toBe(true)
  })
})

describe('deferStores and the off-thread session store\'s additions', () => {
  test('a chosen store without them commits by copy and knows no late write; one with them gets the calls', async () => {
    const plain = probe()
    const stores = deferStores(plain.opening)
    plain.settle(plain.chosen(false))
    const sessions = stores.sessions as typeof stores.sessions & SessionStoreHandOver
    const { revision } = await sessions.commitHandingOver('s1', new TextEncoder().encode('kept'), undefined)
    expect(await sessions.load('s1')).toEqual({ bytes: new TextEncoder().encode('kept'), revision })
    expect(await sessions.lastCommitted('s1')).toBeNull()

    const offThread = probe()
    const calls: string[] = []
    const chosen = offThread.chosen(true)
    const withThem = { ...chosen, sessions: { ...chosen.sessions, commitHandingOver: async () => (calls.push('handed over'), { revision: 'r9' }), lastCommitted: async () => (calls.push('last'), 'r9') } }
    const deferred = deferStores(offThread.opening).sessions as typeof sessions
    offThread.settle(withThem)
    expect(await deferred.commitHandingOver('s1', new Uint8Array(1), undefined)).toEqual({ revision: 'r9' })
    expect(await deferred.lastCommitted('s1')).toBe('r9')
    expect(calls).toEqual(['handed over', 'last'])
  })
})

describe('deferStores: who writes the sessions', () => {
  test('the engine worker, once the probe chose its IndexedDB store; nobody there when storage fell back to memory', async () => {
    const onIdb = probe()
    const idb = deferStores(onIdb.opening)
    const asked = idb.sessions.writtenInEngineWorker!()
    const chosen = onIdb.chosen(true)
    onIdb.settle({ ...chosen, sessions: { ...chosen.sessions, writtenInEngineWorker: async () => ({ namespace: 'fx' }) } })
    expect(await asked).toEqual({ namespace: 'fx' })

    const inMemory = probe()
    const memory = deferStores(inMemory.opening)
    const answer = memory.sessions.writtenInEngineWorker!()
    inMemory.settle(inMemory.chosen(false))
    expect(await answer).toBeNull()
  })
})
