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

  test('reply text waits for more, then goes out in one message once the oldest has waited MAX_HOLD_MS', async () => {
    let clock = 0
    const posts: string[][] = []
    const batcher = createHookBatcher<string>((calls) => posts.push(calls), () => clock)
    batcher.push('read 1', false)
    await tick()
    clock = MAX_HOLD_MS - 1
    batcher.push('read 2', false)
    await tick()
    expect(posts).toEqual([])
    // A long run of reads (no timer can fire between them) is cut once the oldest is old enough.
    clock = MAX_HOLD_MS
    batcher.push('read 3', false)
    await tick()
    expect(posts).toEqual([['read 1', 'read 2', 'read 3']])
    // Between network reads, a timer sends what waits.
    batcher.push('read 4', false)
    await until(() => posts.length === 2)
    expect(posts[1]).toEqual(['read 4'])
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
    batcher.push('text', false)
    await tick()
    batcher.close()
    vi.advanceTimersByTime(MAX_HOLD_MS)
    expect(posts).toEqual([])
  })
})
