import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { createOutputBatcher } from './output-batcher.ts'

const bytes = (text: string) => new TextEncoder().encode(text)
const text = (posts: Uint8Array[]) => posts.map((p) => new TextDecoder().decode(p))

/** A batcher on fake timers, with its clock tied to them, recording every post. */
function setup() {
  const posts: Uint8Array[] = []
  const batcher = createOutputBatcher((b) => posts.push(b), {
    now: () => Date.now(),
    setTimeout: (fn, ms) => setTimeout(fn, ms),
  })
  return { posts, batcher }
}

describe('the output batcher', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: 1_000 })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  test('the first write after a quiet period is posted on the next microtask, not synchronously', async () => {
    const { posts, batcher } = setup()
    batcher.push(bytes('a'))
    expect(posts).toEqual([])
    await Promise.resolve()
    expect(text(posts)).toEqual(['a'])
  })

  test('writes made in the same tick as the first are posted together with it', async () => {
    const { posts, batcher } = setup()
    batcher.push(bytes('one '))
    batcher.push(bytes('two'))
    await Promise.resolve()
    expect(text(posts)).toEqual(['one two'])
  })

  test('writes within 16 ms of a post are joined into one post, in order, when the frame ends', async () => {
    const { posts, batcher } = setup()
    batcher.push(bytes('first'))
    await Promise.resolve()
    expect(text(posts)).toEqual(['first'])

    vi.advanceTimersByTime(4)
    batcher.push(bytes('[a]'))
    vi.advanceTimersByTime(5)
    batcher.push(bytes('[b]'))
    batcher.push(bytes('[c]'))
    await Promise.resolve()
    expect(text(posts)).toEqual(['first'])

    vi.advanceTimersByTime(6)
    expect(text(posts)).toEqual(['first'])
    vi.advanceTimersByTime(1)
    expect(text(posts)).toEqual(['first', '[a][b][c]'])
    vi.advanceTimersByTime(100)
    expect(text(posts)).toEqual(['first', '[a][b][c]'])
  })

  test('a write after the frame has passed is posted on its own', async () => {
    const { posts, batcher } = setup()
    batcher.push(bytes('first'))
    await Promise.resolve()
    vi.advanceTimersByTime(40)
    batcher.push(bytes('later'))
    await Promise.resolve()
    expect(text(posts)).toEqual(['first', 'later'])
  })

  test('a single chunk is posted as is; joined chunks are posted as one new buffer', async () => {
    const { posts, batcher } = setup()
    const only = bytes('x')
    batcher.push(only)
    await Promise.resolve()
    expect(posts[0]).toBe(only)

    vi.advanceTimersByTime(2)
    batcher.push(bytes('y'))
    batcher.push(bytes('z'))
    vi.advanceTimersByTime(16)
    expect(posts[1]).toEqual(bytes('yz'))
  })

  test('empty writes are ignored', async () => {
    const { posts, batcher } = setup()
    batcher.push(new Uint8Array(0))
    await Promise.resolve()
    vi.advanceTimersByTime(100)
    expect(posts).toEqual([])
  })

  test('flush posts what is pending at once, and the scheduled post then has nothing to send', async () => {
    const { posts, batcher } = setup()
    batcher.push(bytes('a'))
    await Promise.resolve()
    vi.advanceTimersByTime(1)
    batcher.push(bytes('b'))
    batcher.flush()
    expect(text(posts)).toEqual(['a', 'b'])
    vi.advanceTimersByTime(100)
    expect(text(posts)).toEqual(['a', 'b'])
  })

  test('a burst of writes across many frames is posted at most once per frame and loses nothing', async () => {
    const { posts, batcher } = setup()
    const sent: string[] = []
    for (let i = 0; i < 100; i++) {
      const piece = `${i},`
      sent.push(piece)
      batcher.push(bytes(piece))
      vi.advanceTimersByTime(2)
      await Promise.resolve()
    }
    vi.advanceTimersByTime(16)
    expect(text(posts).join('')).toBe(sent.join(''))
    // 200 ms of writes every 2 ms: one immediate post, then one per 16 ms frame.
    expect(posts.length).toBeLessThanOrEqual(1 + Math.ceil(200 / 16))
    expect(posts.length).toBeGreaterThan(1)
  })

  test('after a flood-sized post the next waits three frames; after a small one, one frame', async () => {
    const { posts, batcher } = setup()
    batcher.push(new Uint8Array(16 * 1024))
    await Promise.resolve()
    batcher.push(bytes('more'))
    vi.advanceTimersByTime(16)
    expect(posts.length).toBe(1)
    vi.advanceTimersByTime(32)
    expect(text(posts.slice(1))).toEqual(['more'])
    batcher.push(bytes('small again'))
    vi.advanceTimersByTime(16)
    expect(text(posts.slice(1))).toEqual(['more', 'small again'])
  })
})
