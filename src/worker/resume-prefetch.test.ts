import { beforeEach, describe, expect, it, vi } from 'vitest'
import { idbSessionStore } from '../stores/idb-session-store.ts'
import { freshIndexedDB, utf8 } from '../stores/test-idb.ts'
import { PREFETCH_RESUME } from './prefetch-message.ts'

// The module holds the worker's one read: a fresh copy per test.
let prefetch: typeof import('./resume-prefetch.ts')
beforeEach(async () => {
  vi.resetModules()
  prefetch = await import('./resume-prefetch.ts')
})

/** A worker scope stand-in: the prefetch listener first, then "Comlink", which records what reaches it. */
function scope(indexedDB: IDBFactory) {
  const target = new EventTarget()
  prefetch.listenForPrefetch(target, indexedDB)
  const comlinkSaw: unknown[] = []
  target.addEventListener('message', (event) => comlinkSaw.push((event as MessageEvent).data))
  return { post: (data: unknown) => target.dispatchEvent(new MessageEvent('message', { data })), comlinkSaw }
}

describe('resume prefetch in the engine worker', () => {
  it('reads the newest session of the namespace asked for; the page gets its id and revision, the engine its bytes once', async () => {
    const indexedDB = freshIndexedDB()
    let clock = 1
    const store = idbSessionStore({ namespace: 'docs', indexedDB, now: () => clock++ })
    await store.commit('older', utf8('older bytes'), undefined)
    const { revision } = await store.commit('newest', utf8('newest bytes'), undefined)
    await idbSessionStore({ namespace: 'other', indexedDB, now: () => 99 }).commit('elsewhere', utf8('x'), undefined)
    const worker = scope(indexedDB)
    worker.post({ type: PREFETCH_RESUME, namespace: 'docs' })
    expect(await prefetch.prefetchedSession()).toEqual({ found: { id: 'newest', revision } })
    expect(worker.comlinkSaw).toEqual([]) // the request never reaches Comlink
    expect(prefetch.takePrefetchedBytes('older')).toBeNull()
    expect(prefetch.takePrefetchedBytes('newest')).toEqual(utf8('newest bytes'))
    expect(prefetch.takePrefetchedBytes('newest')).toBeNull()
  })

  it('answers found: null when nothing is saved, and undefined when the page never asked', async () => {
    expect(await prefetch.prefetchedSession()).toBeUndefined()
    const worker = scope(freshIndexedDB())
    worker.post({ type: 'something else', id: 1 })
    expect(worker.comlinkSaw).toEqual([{ type: 'something else', id: 1 }])
    expect(await prefetch.prefetchedSession()).toBeUndefined()
    worker.post({ type: PREFETCH_RESUME, namespace: 'fxterm' })
    expect(await prefetch.prefetchedSession()).toEqual({ found: null })
  })

  it('answers undefined when the read fails, so the page reads the session itself', async () => {
    const broken = { open: () => { throw new Error('storage is blocked') } } as unknown as IDBFactory
    const worker = scope(broken)
    worker.post({ type: PREFETCH_RESUME, namespace: 'fxterm' })
    expect(await prefetch.prefetchedSession()).toBeUndefined()
  })
})
