/**
 * Enforces the `ModelProvider` contract at the edge: exactly one terminal event (`finish` or
 * `error`), and nothing at all after the signal aborts. Each provider wraps its `emit` once
 * instead of threading "are we done?" checks through every code path.
 */
import type { ModelEvent } from '../../shared/protocol/model-events.ts'

/** A wrapped emit plus whether the stream already ended. */
export type GuardedEmit = {
  emit: (event: ModelEvent) => void
  /** True after a terminal event was passed through. */
  readonly ended: boolean
}

/** Wraps `emit` so events after a terminal event or after `signal` aborts are dropped. */
export function guardEmit(emit: (event: ModelEvent) => void, signal: AbortSignal): GuardedEmit {
  let ended = false
  return {
    emit(event) {
      if (ended || signal.aborted) return
      if (event.type === 'finish' || event.type === 'error') ended = true
      emit(event)
    },
    get ended() {
      return ended
    },
  }
}
