import { afterEach, describe, expect, it, vi } from 'vitest'
import * as Comlink from 'comlink'
import { ErrorCode } from '../../shared/errors.ts'
import { sessionStoreContract } from '../../../test/support/store-contract-suites.ts'
import { idbSessionStore } from '../../engine-worker/stores/idb-session-store.ts'
import { idbSessionStoreOffThread } from './idb-session-store-off-thread.ts'
import { sessionStoreApi } from '../../engine-worker/stores/session-store-api.ts'
import { freshIndexedDB, rejectionOf, utf8 } from '../../../test/support/idb.ts'

afterEach(() => vi.useRealTimers())

/** The store with its writes across a real MessagePort, as a worker would take them; `nextWrite` resolves at the worker's next call. */
function offThread(indexedDB: IDBFactory, now?: () => number, more: { startWorkerAfterMs?: number; warmNewest?: boolean } = {}) {
  const writes: string[] = []
  const waiting: Array<() => void> = []
  const note = (call: string) => {
    writes.push(call)
    for (const wake of waiting.splice(0)) wake()
  }
  const nextWrite = () => new Promise<void>((resolve) => waiting.push(resolve))
  const api = sessionStoreApi({ indexedDB, ...(now ? { now } : {}) })
  const counted: typeof api = {
    load: (...args) => (note(`load ${args[1]}`), api.load(...args)),
    loadHead: (...args) => (note(`head ${args[1]}`), api.loadHead(...args)),
    list: (...args) => (note('list'), api.list(...args)),
    commit: (...args) => (note(`commit ${args[1]}`), api.commit(...args)),
    remove: (...args) => (note(`remove ${args[1]}`), api.remove(...args)),
    lastCommitted: (...args) => api.lastCommitted(...args),
    warmNewest: (...args) => (note('warm'), api.warmNewest(...args)),
  }
  const store = idbSessionStoreOffThread({
    indexedDB,
    ...(now ? { now } : {}),
    ...more,
    connect: () => {
      const { port1, port2 } = new MessageChannel()
      Comlink.expose(counted, port1)
      return port2 as unknown as Comlink.Endpoint
    },
  })
  return { store, writes, nextWrite }
}

sessionStoreContract('idbSessionStoreOffThread', (now) => offThread(freshIndexedDB(), now).store)

describe('idbSessionStoreOffThread', () => {
  it('every call goes through the port, and a plain store on the same database sees the writes', async () => {
    const indexedDB = freshIndexedDB()
    const { store, writes } = offThread(indexedDB)
    const { revision } = await store.commit('s1', utf8('turns'), undefined)
    expect(await idbSessionStore({ indexedDB }).load('s1')).toEqual({ bytes: utf8('turns'), revision })
    expect((await store.list()).map((entry) => entry.id)).toEqual(['s1'])
    await store.remove('s1')
    expect(await store.load('s1')).toBeNull()
    expect(writes).toEqual(['commit s1', 'list', 'remove s1', 'load s1'])
  })

  it('the caller keeps its bytes (a copy crosses the port)', async () => {
    const { store } = offThread(freshIndexedDB())
    const bytes = utf8('still mine')
    await store.commit('s1', bytes, undefined)
    expect(new TextDecoder().decode(bytes)).toBe('still mine')
  })

  it('commitHandingOver moves the bytes to a worker that has answered before, and copies them until then', async () => {
    const { store } = offThread(freshIndexedDB())
    const early = utf8('before the worker answered')
    const { revision } = await store.commitHandingOver('s1', early, undefined)
    expect(new TextDecoder().decode(early)).toBe('before the worker answered')
    const part = utf8('xx a view into a bigger buffer').subarray(3)
    const { revision: second } = await store.commitHandingOver('s1', part, revision)
    expect(part.byteLength).toBeGreaterThan(0) // not its whole buffer: copied
    const moved = utf8('moved')
    const { revision: third } = await store.commitHandingOver('s1', moved, second)
    expect(moved.byteLength).toBe(0)
    expect(await store.load('s1')).toEqual({ bytes: utf8('moved'), revision: third })
  })

  it('lastCommitted answers the revision of its own last commit of a session, null before any', async () => {
    const indexedDB = freshIndexedDB()
    const { store } = offThread(indexedDB)
    expect(await store.lastCommitted('s1')).toBeNull()
    const { revision } = await store.commit('s1', utf8('a'), undefined)
    await idbSessionStore({ indexedDB }).commit('s1', utf8('another tab'), revision)
    expect(await store.lastCommitted('s1')).toBe(revision)
  })

  it('loadHead reads the start of a session through the worker', async () => {
    const { store, writes } = offThread(freshIndexedDB())
    const { revision } = await store.commit('s1', utf8('a short session'), undefined)
    expect(await store.loadHead('s1', 4)).toEqual({ bytes: utf8('a short session'), revision }) // one part: all of it
    expect(writes).toEqual(['commit s1', 'head s1'])
  })

  it('a revision conflict comes back with its code', async () => {
    const { store } = offThread(freshIndexedDB())
    await store.commit('s1', utf8('a'), undefined)
    const error = await rejectionOf(store.commit('s1', utf8('b'), 'stale'))
    expect((error as { code?: string }).code).toBe(ErrorCode.FX_SESSION_REVISION_CONFLICT)
  })

  it('a worker that fails to load leaves every call on this thread, nothing lost', async () => {
    const indexedDB = freshIndexedDB()
    const target = new EventTarget()
    const broken = Object.assign(target, { postMessage: () => target.dispatchEvent(new Event('error')) })
    const store = idbSessionStoreOffThread({ indexedDB, connect: () => broken as unknown as Comlink.Endpoint })
    const { revision } = await store.commit('s1', utf8('kept'), undefined)
    expect(await store.load('s1')).toEqual({ bytes: utf8('kept'), revision })
  })

  it('the worker starts on the first call, or by itself after startWorkerAfterMs', async () => {
    let started = 0
    const connect = () => {
      started++
      const { port1, port2 } = new MessageChannel()
      Comlink.expose(sessionStoreApi({ indexedDB: freshIndexedDB() }), port1)
      return port2 as unknown as Comlink.Endpoint
    }
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    idbSessionStoreOffThread({ indexedDB: freshIndexedDB(), connect })
    const warmed = idbSessionStoreOffThread({ indexedDB: freshIndexedDB(), connect, startWorkerAfterMs: 5 })
    await vi.advanceTimersByTimeAsync(4)
    expect(started).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(started).toBe(1)
    vi.useRealTimers()
    await warmed.list()
    expect(started, 'the started worker serves the calls').toBe(1)
  })

  it('started by itself on a page that resumes the newest session, the worker warms up with that session', async () => {
    const indexedDB = freshIndexedDB()
    await idbSessionStore({ indexedDB, now: () => 1 }).commit('older', utf8('a'), undefined)
    await idbSessionStore({ indexedDB, now: () => 2 }).commit('newest', utf8('b'), undefined)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const { store, writes, nextWrite } = offThread(indexedDB, undefined, { startWorkerAfterMs: 1, warmNewest: true })
    const quiet = offThread(indexedDB, undefined, { startWorkerAfterMs: 1 })
    const warmed = nextWrite()
    await vi.advanceTimersByTimeAsync(1)
    vi.useRealTimers()
    await warmed
    expect([writes, quiet.writes]).toEqual([['warm'], []])
    // The warm-up's answer shows the worker runs: the first commit already moves its bytes there.
    const bytes = utf8('b, and more')
    const { revision } = (await idbSessionStore({ indexedDB }).load('newest'))!
    await store.commitHandingOver('newest', bytes, revision)
    expect(bytes.byteLength).toBe(0)
  })
})
