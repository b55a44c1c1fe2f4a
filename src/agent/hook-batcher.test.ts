import { afterEach, describe, expect, test, vi } from 'vitest'
import { createHookBatcher, MAX_HOLD_MS } from './hook-batcher.ts'

const tick = () => new Promise<void>((resolve) => queueMicrotask(resolve))
const until = async (ok: () => boolean) => {
  while (!ok()) await new Promise((resolve) => setTimeout(resolve, 1))
}

describe('the hook batcher', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  test('a call the page must act on goes out at the end of the microtask run, with the text queued before it', async () => {
    const posts: string[][] = []
    const batcher = createHookBatcher<string>((calls) => posts.push(calls))
    batcher.push('text 1', false)
    batcher.push('text 2', false)
    batcher.push('turn_end', true)
    expect(posts).toEqual([])
    await tick()
    expect(posts).toEqual([['text 1', 'text 2', 'turn_end']])
  })

  test('the first text after a quiet period goes at once; text during a burst goes at most every MAX_HOLD_MS, in one message', async () => {
    let clock = 100
    const posts: string[][] = []
    const batcher = createHookBatcher<string>((calls) => posts.push(calls), () => clock)
    batcher.push('read 1', false)
    await tick()
    expect(posts).toEqual([['read 1']])
    clock += 1
    batcher.push('read 2', false)
    await tick()
    clock += MAX_HOLD_MS - 2
    batcher.push('read 3', false)
    await tick()
    expect(posts).toEqual([['read 1']])
    // A long run of reads (no timer can fire between them) is cut once the last message is old enough.
    clock += 1
    batcher.push('read 4', false)
    await tick()
    expect(posts).toEqual([['read 1'], ['read 2', 'read 3', 'read 4']])
    // Between network reads, a timer sends what waits.
    batcher.push('read 5', false)
    await until(() => posts.length === 3)
    expect(posts[2]).toEqual(['read 5'])
  })

  test('held calls are not posted: take() hands them over in order, and posting resumes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const posts: string[][] = []
    const batcher = createHookBatcher<string>((calls) => posts.push(calls))
    batcher.hold()
    batcher.push('turn_start', true)
    batcher.push('text', false)
    await tick()
    vi.advanceTimersByTime(MAX_HOLD_MS)
    expect(posts).toEqual([])
    expect(batcher.take()).toEqual(['turn_start', 'text'])
    batcher.push('turn_end', true)
    await tick()
    expect(posts).toEqual([['turn_end']])
  })

  test('close drops what is queued', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const posts: string[][] = []
    const batcher = createHookBatcher<string>((calls) => posts.push(calls))
    batcher.push('turn_start', true)
    await tick()
    batcher.push('text', false)
    await tick()
    batcher.close()
    vi.advanceTimersByTime(MAX_HOLD_MS)
    expect(posts).toEqual([['turn_start']])
  })
})
