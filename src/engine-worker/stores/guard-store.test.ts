import { afterEach, describe, expect, it, vi } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import { guardStore } from './guard-store.ts'
import { memorySessionStore } from '../../page/stores/memory-stores.ts'
import { rejectionOf, utf8 } from '../../../test/support/idb.ts'

afterEach(() => {
  vi.useRealTimers()
})

describe('guardStore', () => {
  it('answers with a promise of what sync and async methods return', async () => {
    const store = guardStore({ get: (id: string) => `sync ${id}`, set: async (id: string) => `async ${id}` }, { name: 'config store' })
    expect([await store.get('a'), await store.set('b')]).toEqual(['sync a', 'async b'])
  })

  it('fails a call that never settles with FX_STORE_TIMEOUT after 10 s by default', async () => {
    vi.useFakeTimers()
    const store = guardStore({ commit: () => new Promise<never>(() => {}) }, { name: 'session store' })
    let settled = false
    const pending = rejectionOf(store.commit()).finally(() => (settled = true))
    await vi.advanceTimersByTimeAsync(9_999)
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    const error = await pending
    expect([error.code, error.message]).toEqual([
      ErrorCode.FX_STORE_TIMEOUT,
      "session store commit did not finish within 10 s; the browser's storage may be stuck",
    ])
  })

  it('takes a shorter deadline', async () => {
    const store = guardStore({ load: () => new Promise<never>(() => {}) }, { name: 'history store', timeoutMs: 20 })
    expect((await rejectionOf(store.load())).message).toBe('history store load did not finish within 20 ms; the browser\'s storage may be stuck')
  })

  it('turns a synchronous throw into a rejection with FX_STORE_FAILED and the cause', async () => {
    const cause = new Error('disk on fire')
    const store = guardStore({ set: (): void => { throw cause } }, { name: 'config store' })
    const call = store.set() // must not throw synchronously
    const error = await rejectionOf(call)
    expect([error.code, error.message, error.cause]).toEqual([ErrorCode.FX_STORE_FAILED, 'config store set failed: disk on fire', cause])
  })

  it('reports a full quota as FX_STORE_QUOTA_EXCEEDED', async () => {
    const quota = new DOMException('The quota has been exceeded.', 'QuotaExceededError')
    const store = guardStore({ commit: async () => { throw quota } }, { name: 'session store' })
    const error = await rejectionOf(store.commit())
    expect([error.code, error.message, error.cause]).toEqual([
      ErrorCode.FX_STORE_QUOTA_EXCEEDED,
      "session store commit failed: the browser's storage for this site is full; delete old sessions or clear this site's data to make room",
      quota,
    ])
  })

  it('passes a revision conflict through unchanged', async () => {
    const store = guardStore(memorySessionStore(), { name: 'session store' })
    await store.commit('s1', utf8('a'), undefined)
    const error = await rejectionOf(store.commit('s1', utf8('b'), undefined))
    expect(error.code).toBe(ErrorCode.FX_SESSION_REVISION_CONFLICT)
    expect(error.message).toMatch(/^session "s1" was changed elsewhere/)
  })

  it('keeps `this` for a store written as a class', async () => {
    class Counter {
      count = 0
      bump(): number {
        return ++this.count
      }
    }
    const store = guardStore(new Counter(), { name: 'counter' })
    expect([await store.bump(), await store.bump()]).toEqual([1, 2])
  })

  it('rejects a deadline that is not a positive number', () => {
    expect(() => guardStore({}, { name: 'x', timeoutMs: 0 })).toThrow(/timeoutMs must be a positive number/)
  })
})
