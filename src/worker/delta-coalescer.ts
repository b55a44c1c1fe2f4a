/**
 * Joins a model stream's text deltas before they reach the engine. Servers (and the demo) send
 * a few characters per event; feeding each one would redraw the footer per event, so a fast
 * stream would spend its time redrawing. Text is passed on at most once per frame (~16 ms), at
 * once when the stream has been quiet, and always before any other event so order is kept.
 */
import type { ModelEvent } from '../protocol/model-events.ts'

const FRAME_MS = 16

export type DeltaCoalescer = {
  push(event: ModelEvent): void
  /** Drops pending text (the request was cancelled). */
  cancel(): void
}

export function createDeltaCoalescer(
  forward: (event: ModelEvent) => void,
  clock: { now(): number; setTimeout(fn: () => void, ms: number): unknown } = {
    now: () => performance.now(),
    setTimeout: (fn, ms) => setTimeout(fn, ms),
  },
): DeltaCoalescer {
  let text = ''
  let scheduled = false
  let cancelled = false
  let lastFlush = -Infinity

  const flush = () => {
    scheduled = false
    if (cancelled || text === '') return
    const delta = text
    text = ''
    lastFlush = clock.now()
    forward({ type: 'text_delta', delta })
  }

  return {
    push(event) {
      if (cancelled) return
      if (event.type !== 'text_delta') {
        flush()
        forward(event)
        return
      }
      text += event.delta
      if (scheduled) return
      scheduled = true
      const wait = lastFlush + FRAME_MS - clock.now()
      if (wait <= 0) queueMicrotask(flush)
      else clock.setTimeout(flush, wait)
    },
    cancel() {
      cancelled = true
      text = ''
    },
  }
}
