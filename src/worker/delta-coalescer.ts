/**
 * Joins a model stream's text deltas before they reach the engine. Servers (and the demo) send
 * a few characters per event; feeding each one would redraw the footer per event, so a fast
 * stream would spend its time redrawing. Text is passed on at most once per frame (~16 ms), at
 * once when the stream has been quiet, and always before any other event so order is kept.
 */
import type { ModelEvent } from '../protocol/model-events.ts'
import { createFramePacer, realClock, type FrameClock } from './frame-pacer.ts'

export type DeltaCoalescer = {
  push(event: ModelEvent): void
  /** Drops pending text (the request was cancelled). */
  cancel(): void
}

export function createDeltaCoalescer(forward: (event: ModelEvent) => void, clock: FrameClock = realClock): DeltaCoalescer {
  let text = ''
  let cancelled = false

  const pacer = createFramePacer(() => {
    if (cancelled || text === '') return false
    const delta = text
    text = ''
    forward({ type: 'text_delta', delta })
    return true
  }, clock)

  return {
    push(event) {
      if (cancelled) return
      if (event.type !== 'text_delta') {
        pacer.flushNow()
        forward(event)
        return
      }
      text += event.delta
      pacer.request()
    },
    cancel() {
      cancelled = true
      text = ''
    },
  }
}
