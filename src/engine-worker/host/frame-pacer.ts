/**
 * Runs a flush at most once per frame (~16 ms), as soon as a frame has passed since the last
 * one: on the next microtask when it already has, else on a timer. Shared by the delta coalescer
 * (text into the engine) and the output batcher (bytes to the page).
 *
 * The timer alone is not enough: while a fast stream arrives, the worker's network reads resolve
 * back to back and Chromium may not run a timer for 100 ms or more, so a whole burst of text
 * waited and then reached the engine (and the page) in one long piece. So every request also
 * looks at the clock, and once the frame is due it flushes on a microtask without the timer.
 */

/** One animation frame, the shortest wait between two flushes. */
export const FRAME_MS = 16

export type FrameClock = { now(): number; setTimeout(fn: () => void, ms: number): unknown }

export const realClock: FrameClock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
}

export type FramePacer = {
  /** There is something to flush: flush it once the frame allows. */
  request(): void
  /** Flush now (order demands it, or the caller must know it went out). */
  flushNow(): void
}

/**
 * `flush` returns whether it passed anything on; only then does a new frame start. `interval`
 * is the wait after a flush (default one frame); it is asked each time, so it may depend on what
 * was flushed.
 */
export function createFramePacer(flush: () => boolean, clock: FrameClock = realClock, interval: () => number = () => FRAME_MS): FramePacer {
  let lastFlush = -Infinity
  let microtaskQueued = false
  let timerSet = false
  // A flush made another way makes a pending timer stale: it must not flush again early.
  let generation = 0

  const flushNow = (): void => {
    generation++
    microtaskQueued = false
    timerSet = false
    if (flush()) lastFlush = clock.now()
  }

  const onMicrotask = (): void => {
    if (microtaskQueued) flushNow()
  }

  return {
    request() {
      if (microtaskQueued) return
      const wait = lastFlush + interval() - clock.now()
      if (wait <= 0) {
        microtaskQueued = true
        queueMicrotask(onMicrotask)
        return
      }
      if (timerSet) return
      timerSet = true
      const mine = generation
      clock.setTimeout(() => {
        if (mine === generation) flushNow()
      }, wait)
    },
    flushNow,
  }
}
