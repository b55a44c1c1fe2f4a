import { afterEach, describe, expect, it, vi } from 'vitest'
import { idbPromptHistoryStore } from '../../engine-worker/stores/idb-prompt-history-store.ts'
import { memoryPromptHistoryStore } from '../stores/memory-stores.ts'
import { freshIndexedDB } from '../../../test/support/idb.ts'
import type { PromptHistoryStore } from '../../shared/stores/types.ts'
import { createHistoryBridge } from './history-bridge.ts'

afterEach(() => {
  vi.useRealTimers()
})

function bridgeOver(store: PromptHistoryStore | undefined, root = '/workspace') {
  const reports: Array<{ event: { type: string } & Record<string, unknown>; notice?: string }> = []
  const bridge = createHistoryBridge(store, root, (event, notice) => reports.push(notice === undefined ? { event } : { event, notice }))
  return { bridge, reports }
}

/** Turns the event loop until `check` holds (no fixed sleeps). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 0))
  expect(await check()).toBe(true)
}

describe('history bridge', () => {
  it('appends every prompt to its workspace root, in order, and loads them oldest first', async () => {
    const store = idbPromptHistoryStore({ indexedDB: freshIndexedDB() })
    const { bridge } = bridgeOver(store)
    for (const prompt of ['list the files', '/mode ask', 'explain main.ts']) bridge.append(prompt)
    await until(async () => (await store.load('/workspace', 10)).length === 3)
    expect(await bridgeOver(store).bridge.load()).toEqual(['list the files', '/mode ask', 'explain main.ts'])
    expect(await bridgeOver(store, '/other').bridge.load()).toEqual([])
  })

  it('clears only after the appends typed before it', async () => {
    const store = memoryPromptHistoryStore()
    const { bridge } = bridgeOver(store)
    bridge.append('one')
    bridge.clear()
    bridge.append('two')
    await until(async () => (await store.load('/workspace', 10)).length === 1)
    expect(await store.load('/workspace', 10)).toEqual(['two'])
  })

  it('takes duplicate and record_too_large as answers, not failures', async () => {
    const store = memoryPromptHistoryStore({ maxRecordBytes: 8 })
    const { bridge, reports } = bridgeOver(store)
    for (const prompt of ['same', 'same', 'far too long for the cap']) bridge.append(prompt)
    bridge.append('last')
    await until(async () => (await store.load('/workspace', 10)).length === 2)
    expect([await store.load('/workspace', 10), reports]).toEqual([['same', 'last'], []])
  })

  it('reports failing appends with an event each and one notice per streak', async () => {
    const memory = memoryPromptHistoryStore()
    let broken = true
    const store: PromptHistoryStore = {
      ...memory,
      append: (root, value, at) => (broken ? Promise.reject(new Error('disk on fire')) : memory.append(root, value, at)),
    }
    const { bridge, reports } = bridgeOver(store)
    bridge.append('a')
    bridge.append('b')
    await until(() => reports.length === 2)
    broken = false
    bridge.append('c')
    await until(async () => (await memory.load('/workspace', 10)).length === 1)
    broken = true
    bridge.append('d')
    await until(() => reports.length === 3)
    const message = 'history store append failed: disk on fire'
    const notice = `Prompt history could not be saved (${message}); it is kept until this tab closes.`
    expect(reports).toEqual([
      { event: { type: 'history.append_error', message }, notice },
      { event: { type: 'history.append_error', message } },
      { event: { type: 'history.append_error', message }, notice },
    ])
  })

  it('reports a failing clear as history.clear_error', async () => {
    const store: PromptHistoryStore = { ...memoryPromptHistoryStore(), clear: () => { throw new Error('read-only') } }
    const { bridge, reports } = bridgeOver(store)
    bridge.clear()
    await until(() => reports.length === 1)
    expect(reports[0]?.event).toEqual({ type: 'history.clear_error', message: 'history store clear failed: read-only' })
  })

  it('starts with no history, and says so once, when the load hangs past 3 s', async () => {
    vi.useFakeTimers()
    const store: PromptHistoryStore = { ...memoryPromptHistoryStore(), load: () => new Promise<never>(() => {}) }
    const { bridge, reports } = bridgeOver(store)
    const loading = bridge.load()
    await vi.advanceTimersByTimeAsync(3_000)
    expect(await loading).toEqual([])
    const message = "history store load did not finish within 3 s; the browser's storage may be stuck"
    expect(reports).toEqual([{ event: { type: 'history.load_error', message }, notice: `Prompt history could not be read (${message}).` }])
  })

  it('keeps only the strings of an app store that answers a mixed list', async () => {
    const store: PromptHistoryStore = { load: () => ['a', 7, null, 'b'] as unknown as string[], append: () => {}, clear: () => {} }
    expect(await bridgeOver(store).bridge.load()).toEqual(['a', 'b'])
  })

  it('does nothing without a store', async () => {
    const { bridge, reports } = bridgeOver(undefined)
    bridge.append('a')
    bridge.clear()
    expect([await bridge.load(), reports]).toEqual([[], []])
  })
})
