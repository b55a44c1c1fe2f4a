/**
 * The host core's two mechanisms (engine-host-core.ts): inputs fed one at a time, and the
 * engine's timers.
 */
import type { EngineEffect } from '../../shared/messages/engine-frames.ts'
import { EngineTrap, type EngineInstance } from './engine-instance.ts'

export type EngineInput = (engine: EngineInstance) => EngineEffect[]

/**
 * Feeds inputs to the engine one at a time and performs their effects. An input given while one
 * runs (an effect answered at once) waits its turn, so effects never reorder. A trap drops what
 * waits and goes to `onTrap`; nothing is fed once `stopped()` says so.
 */
export function createFeedQueue(options: {
  engine: () => EngineInstance
  perform: (effect: EngineEffect) => void
  onTrap: (trap: EngineTrap) => void
  stopped: () => boolean
}): (input: EngineInput) => void {
  const queue: EngineInput[] = []
  let draining = false
  return (input) => {
    if (options.stopped()) return
    queue.push(input)
    if (draining) return
    draining = true
    try {
      while (queue.length > 0 && !options.stopped()) {
        let effects: EngineEffect[]
        try {
          effects = queue.shift()!(options.engine())
        } catch (error) {
          if (!(error instanceof EngineTrap)) throw error
          queue.length = 0
          options.onTrap(error)
          return
        }
        for (const effect of effects) options.perform(effect)
      }
    } finally {
      draining = false
    }
  }
}

/** The engine's timers (effects timer_set and timer_cancel); one that fires calls `fire(id)`. */
export function createEngineTimers(fire: (id: number) => void) {
  const timers = new Map<number, ReturnType<typeof setTimeout>>()
  return {
    set(id: number, delayMs: number): void {
      clearTimeout(timers.get(id))
      timers.set(
        id,
        setTimeout(() => {
          timers.delete(id)
          fire(id)
        }, delayMs),
      )
    },
    cancel(id: number): void {
      clearTimeout(timers.get(id))
      timers.delete(id)
    },
    clear(): void {
      for (const t of timers.values()) clearTimeout(t)
      timers.clear()
    },
  }
}
