/**
 * Joins a model stream's text (and reasoning) deltas before they reach the engine. Servers (and
 * the demo) send a few characters per event; feeding each one would redraw the footer per event,
 * and a headless turn would pay an engine feed and a line per event, so a fast stream would spend
 * its time there. Deltas are passed on at once when the stream has been quiet, during a burst at
 * most once per `intervalMs`, and always before any other event so order is kept.
 */
import type { ModelEvent } from '../../shared/protocol/model-events.ts'
import { createFramePacer, FRAME_MS, realClock, type FrameClock } from './frame-pacer.ts'

export type DeltaCoalescer = {
  push(event: ModelEvent): void
  /** Drops pending text (the request was cancelled). */
  cancel(): void
}

export type DeltaCoalescerOptions = {
  /** The shortest wait between two joined deltas (default one frame, 16 ms). */
  intervalMs?: number
  clock?: FrameClock
}

type DeltaType = 'text_delta' | 'reasoning_delta'

export function createDeltaCoalescer(forward: (event: ModelEvent) => void, options: DeltaCoalescerOptions = {}): DeltaCoalescer {
  const intervalMs = options.intervalMs ?? FRAME_MS
  let type: DeltaType | null = null
  let parts: string[] = []
  let cancelled = false

  const pacer = createFramePacer(
    () => {
      if (cancelled || type === null) return false
      const delta = parts.length === 1 ? parts[0]! : parts.join('')
      const joined = { type, delta }
      type = null
      parts = []
      forward(joined)
      return true
    },
    options.clock ?? realClock,
    () => intervalMs,
  )

  return {
    push(event) {
      if (cancelled) return
      if (event.type !== 'text_delta' && event.type !== 'reasoning_delta') {
        pacer.flushNow()
        forward(event)
        return
      }
      // Text and reasoning are joined apart: a switch passes on what came before it.
      if (type !== null && type !== event.type) pacer.flushNow()
      type = event.type
      parts.push(event.delta)
      pacer.request()
    },
    cancel() {
      cancelled = true
      type = null
      parts = []
    },
  }
}
