import { describe, expect, test } from 'vitest'
import { createFramePacer } from './frame-pacer.ts'

/** A clock whose time moves without running its timers (a worker kept busy by network reads). */
function starvedClock() {
  let now = 0
  const timers: Array<() => void> = []
  return {
    clock: { now: () => now, setTimeout: (fn: () => void) => void timers.push(fn) },
    moveTo(ms: number) {
      now = ms
    },
    runTimers() {
      for (const fn of timers.splice(0)) fn()
    },
  }
}

const microtasks = () => new Promise<void>((resolve) => queueMicrotask(resolve))

describe('the frame pacer', () => {
  test('once a frame has passed, the next request flushes on a microtask even if the timer has not run', async () => {
    const { clock, moveTo, runTimers } = starvedClock()
    const flushedAt: number[] = []
    const pacer = createFramePacer(() => (flushedAt.push(clock.now()), true), clock)
    pacer.request()
    await microtasks()
    moveTo(5)
    pacer.request() // within the frame: waits for the timer, which does not come
    await microtasks()
    moveTo(40)
    pacer.request()
    await microtasks()
    expect(flushedAt).toEqual([0, 40])
    // The starved timer, run late, is stale: no second flush so soon after the last.
    runTimers()
    expect(flushedAt).toEqual([0, 40])
  })

  test('a flush that passed nothing on starts no frame', async () => {
    const { clock, moveTo } = starvedClock()
    let pending = false
    const flushedAt: number[] = []
    const pacer = createFramePacer(() => {
      if (!pending) return false
      pending = false
      flushedAt.push(clock.now())
      return true
    }, clock)
    pacer.flushNow()
    moveTo(3)
    pending = true
    pacer.request()
    await microtasks()
    expect(flushedAt).toEqual([3])
  })
})
