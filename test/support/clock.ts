/**
 * For tests on a fake clock: `useFakeClock()` fakes setTimeout and clearTimeout only, so the
 * clock moves when a test moves it, while Date, setImmediate and messages (MessageChannel, worker
 * threads) stay real. `runClockUntil` then moves the clock until a promise settles.
 */
import { vi } from 'vitest'

/** Fakes setTimeout and clearTimeout (undo with vi.useRealTimers()). */
export function useFakeClock(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
}

/**
 * Moves the fake clock `stepMs` at a time, letting real events (messages between "threads") run
 * between steps, until `promise` settles; resolves its value and how far the clock moved. What a
 * test asserts on that distance does not depend on how busy the machine is: the clock moves only
 * here.
 */
export async function runClockUntil<T>(promise: T | Promise<T>, stepMs = 10, limitMs = 120_000): Promise<{ value: T; clockMs: number }> {
  let settled = false
  const watched = Promise.resolve(promise).finally(() => {
    settled = true
  })
  let clockMs = 0
  for (;;) {
    await new Promise((resolve) => setImmediate(resolve))
    if (settled) break
    if (clockMs >= limitMs) throw new Error(`still pending after ${limitMs} ms on the fake clock`)
    await vi.advanceTimersByTimeAsync(stepMs)
    clockMs += stepMs
  }
  return { value: await watched, clockMs }
}
