import { afterEach, describe, expect, it, vi } from 'vitest'
import { createCommandClock } from './command-clock'

afterEach(() => vi.useRealTimers())

/** A clock on fake time (setTimeout and Date both move only when the test moves them). */
function clockOf(limitMs: number) {
  vi.useFakeTimers()
  const expired: number[] = []
  const start = Date.now()
  const clock = createCommandClock({ limitMs, expire: () => expired.push(Date.now() - start) })
  return { clock, expired }
}

describe('the command clock', () => {
  it('expires once, at the limit, when never paused', async () => {
    const { clock, expired } = clockOf(30_000)
    await vi.advanceTimersByTimeAsync(29_999)
    expect([expired, clock.expired()]).toEqual([[], false])
    await vi.advanceTimersByTimeAsync(1)
    expect([expired, clock.expired()]).toEqual([[30_000], true])
    await vi.advanceTimersByTimeAsync(60_000)
    expect(expired).toEqual([30_000])
  })

  it('stands still while paused (overlapping pauses too) and goes on with what was left', async () => {
    const { clock, expired } = clockOf(30_000)
    await vi.advanceTimersByTimeAsync(10_000)
    clock.pause()
    clock.pause()
    await vi.advanceTimersByTimeAsync(50_000)
    clock.resume()
    await vi.advanceTimersByTimeAsync(50_000) // one pause is still open
    expect([expired, clock.expired()]).toEqual([[], false])
    clock.resume()
    await vi.advanceTimersByTimeAsync(19_999)
    expect(expired).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(expired).toEqual([130_000])
  })

  it('whilePaused stops it for the question and runs it again after an answer or a failure', async () => {
    const { clock, expired } = clockOf(1_000)
    let answer!: (yes: boolean) => void
    const asked = clock.whilePaused(() => new Promise<boolean>((resolve) => (answer = resolve)))
    await vi.advanceTimersByTimeAsync(600_000)
    expect(expired).toEqual([])
    answer(true)
    expect(await asked).toBe(true)
    await expect(clock.whilePaused(() => Promise.reject(new Error('gone')))).rejects.toThrow('gone')
    await vi.advanceTimersByTimeAsync(1_000)
    expect(expired).toEqual([601_000])
  })

  it('times its timer from the limit, not from a second reading of a clock that moved meanwhile', async () => {
    // A wall clock that ticks a millisecond on every reading (a busy machine), while only the
    // timers are fake: the timer must still wait the whole limit, and after a pause what was left.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    let wall = 0
    const expired: number[] = []
    const clock = createCommandClock({ limitMs: 1_300, now: () => wall++, expire: () => expired.push(wall) })
    await vi.advanceTimersByTimeAsync(1_299)
    expect(expired).toEqual([])
    clock.pause() // 1 ms of running time was read so far
    clock.resume()
    await vi.advanceTimersByTimeAsync(1_298)
    expect(expired).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(expired).toHaveLength(1)
  })

  it('never expires after stop', async () => {
    const { clock, expired } = clockOf(1_000)
    clock.stop()
    await vi.advanceTimersByTimeAsync(5_000)
    expect(expired).toEqual([])
  })
})
