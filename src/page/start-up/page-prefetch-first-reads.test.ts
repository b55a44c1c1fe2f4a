import { expect, test } from 'vitest'
import { memoryConfigStore, memoryPromptHistoryStore } from '../stores/memory-stores.ts'
import { prefetchConfig, prefetchHistory } from './page-prefetch-first-reads.ts'
import type { AsyncConfigStore, AsyncPromptHistoryStore } from '../../shared/stores/types.ts'

test('settings: the first get of each id comes from the read started at once; later ones and writes go to the store', async () => {
  const inner = memoryConfigStore()
  await inner.set('mode', 'ask')
  const calls: string[] = []
  const counted: AsyncConfigStore = { get: (id) => (calls.push(`get ${id}`), inner.get(id)), set: (id, v) => (calls.push(`set ${id}`), inner.set(id, v)) }
  const store = prefetchConfig(counted, ['mode', 'model'])
  expect(calls).toEqual(['get mode', 'get model'])
  expect(await store.get('mode')).toBe('ask')
  expect(await store.get('model')).toBeNull()
  expect(calls).toEqual(['get mode', 'get model'])
  await store.set('mode', 'auto')
  expect(await store.get('mode')).toBe('auto')
  expect(calls).toEqual(['get mode', 'get model', 'set mode', 'get mode'])
})

test('history: the first load for the root comes from the early read; after an append the store is asked', async () => {
  const inner = memoryPromptHistoryStore()
  await inner.append('/workspace', 'ls', 1)
  const loads: string[] = []
  const counted: AsyncPromptHistoryStore = { ...inner, load: (root, limit) => (loads.push(root), inner.load(root, limit)), append: inner.append, clear: inner.clear }
  const store = prefetchHistory(counted, '/workspace', 1000)
  expect(await store.load('/workspace', 1000)).toEqual(['ls'])
  expect(loads).toEqual(['/workspace'])
  await store.append('/workspace', 'pwd', 2)
  expect(await store.load('/workspace', 1000)).toEqual(['ls', 'pwd'])
  expect(await store.load('/other', 1000)).toEqual([])
  expect(loads).toEqual(['/workspace', '/workspace', '/other'])
})

test('with the engine worker\'s answers, nothing is read here; a null answer (its read failed) is read from the store', async () => {
  const inner = memoryConfigStore()
  await inner.set('mode', 'ask')
  const calls: string[] = []
  const counted: AsyncConfigStore = { get: (id) => (calls.push(`get ${id}`), inner.get(id)), set: (id, v) => (calls.push(`set ${id}`), inner.set(id, v)) }
  const store = prefetchConfig(counted, ['mode', 'model'], Promise.resolve({ model: 'gpt-x' }))
  expect([await store.get('mode'), await store.get('model'), calls]).toEqual([null, 'gpt-x', []])
  const failed = prefetchConfig(counted, ['mode'], Promise.resolve(null))
  expect([await failed.get('mode'), calls]).toEqual(['ask', ['get mode']])

  const history = memoryPromptHistoryStore()
  await history.append('/workspace', 'ls', 1)
  expect(await prefetchHistory(history, '/workspace', 1000, Promise.resolve(['from the worker'])).load('/workspace', 1000)).toEqual(['from the worker'])
  expect(await prefetchHistory(history, '/workspace', 1000, Promise.resolve(null)).load('/workspace', 1000)).toEqual(['ls'])
})
