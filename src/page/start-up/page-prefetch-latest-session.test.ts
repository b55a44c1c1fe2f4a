import { describe, expect, test } from 'vitest'
import { memorySessionStore } from '../stores/memory-stores.ts'
import { prefetchLatestSession } from './page-prefetch-latest-session.ts'
import type { AsyncSessionStore } from '../../shared/stores/types.ts'

const bytes = (text: string) => new TextEncoder().encode(text)
const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b)

/** A store that counts the calls that reach it. */
function counted(store: AsyncSessionStore) {
  const calls: string[] = []
  const wrapped: AsyncSessionStore = {
    list: () => (calls.push('list'), store.list()),
    load: (id) => (calls.push(`load ${id}`), store.load(id)),
    commit: (id, b, r) => (calls.push(`commit ${id}`), store.commit(id, b, r)),
    remove: (id) => (calls.push(`remove ${id}`), store.remove(id)),
  }
  return { calls, store: wrapped }
}

async function seeded() {
  const store = memorySessionStore()
  await store.commit('old', bytes('old session'), undefined)
  await new Promise((resolve) => setTimeout(resolve, 5))
  await store.commit('new', bytes('new session'), undefined)
  return counted(store)
}

describe('prefetchLatestSession', () => {
  test('reads the newest session at once and answers the first list and load from that read', async () => {
    const { calls, store } = await seeded()
    const prefetched = prefetchLatestSession(store)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(calls).toEqual(['list', 'load new'])
    expect((await prefetched.list()).map((e) => e.id).sort()).toEqual(['new', 'old'])
    expect(text((await prefetched.load('new'))?.bytes)).toBe('new session')
    expect(calls).toEqual(['list', 'load new']) // nothing read twice
    // Later calls go to the store.
    await prefetched.list()
    await prefetched.load('new')
    expect(calls).toEqual(['list', 'load new', 'list', 'load new'])
  })

  test('a load of another session, or after a write, reads the store', async () => {
    const { calls, store } = await seeded()
    const prefetched = prefetchLatestSession(store)
    expect(text((await prefetched.load('old'))?.bytes)).toBe('old session')
    const again = prefetchLatestSession(store)
    const { revision } = (await again.load('new'))!
    await again.commit('new', bytes('newer'), revision)
    expect(text((await again.load('new'))?.bytes)).toBe('newer')
    expect(calls.filter((c) => c === 'load new')).toHaveLength(3)
  })

  test('an empty store: no load at all, and list answers empty', async () => {
    const { calls, store } = counted(memorySessionStore())
    const prefetched = prefetchLatestSession(store)
    expect(await prefetched.list()).toEqual([])
    expect(calls).toEqual(['list'])
  })

  test('a prefetch that failed is asked again, and its error is the store’s own', async () => {
    let fail = true
    const inner = memorySessionStore()
    await inner.commit('a', bytes('A'), undefined)
    const flaky: AsyncSessionStore = { ...inner, list: () => (fail ? Promise.reject(new Error('blocked')) : inner.list()) }
    const prefetched = prefetchLatestSession(flaky)
    fail = false
    expect((await prefetched.list()).map((e) => e.id)).toEqual(['a'])
  })
})
