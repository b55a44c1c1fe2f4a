/**
 * A command's time limit that stops while the person is being asked something (the push
 * dialog): a command has 30 s of its own, and the minute a person takes to read what a push
 * sends is not the command's. Used on both sides of the bash worker: in the worker (bash-session,
 * which stops the command) and on the page (watchdog-exec, which gives up on a stuck worker).
 *
 * Pure timing, no threads: `expire` runs once the running time (wall time minus the time spent
 * paused) reaches `limitMs`, on a timer re-armed with what is left after each pause; `expired()`
 * reads the time itself, for a check that cannot wait for a timer (a busy loop in just-bash).
 * Pauses may overlap: the clock runs again when the last one ends.
 */

/** setTimeout fires at once for delays over 2^31 - 1 ms. */
const MAX_TIMER_MS = 2_147_483_647

export type CommandClock = {
  /** Stops the clock until `resume` (a question is open). */
  pause(): void
  /** Runs the clock again once every pause has ended. */
  resume(): void
  /** Runs `ask` with the clock stopped until it settles; its value or rejection as is. */
  whilePaused<T>(ask: () => Promise<T>): Promise<T>
  /** Whether the running time has reached the limit (false while paused). */
  expired(): boolean
  /** The clock ends: `expire` is never called after this. */
  stop(): void
}

export type CommandClockOptions = {
  limitMs: number
  expire(): void
  /** Milliseconds now (default Date.now); tests give their own. */
  now?: () => number
}

/** Starts a clock at once. */
export function createCommandClock(options: CommandClockOptions): CommandClock {
  const now = options.now ?? Date.now
  let usedMs = 0 // running time before the current run began
  let runningSince: number | null = now()
  let pauses = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let ended = false

  const used = () => usedMs + (runningSince === null ? 0 : now() - runningSince)
  // Armed with what was left when the clock last stopped, not re-read from `now()`: a millisecond
  // ticking between the two readings would otherwise fire a timer early on a fake clock.
  const arm = (leftMs: number) => {
    timer = setTimeout(fire, Math.min(Math.max(0, leftMs), MAX_TIMER_MS))
  }
  function fire(): void {
    timer = undefined
    if (ended || runningSince === null) return
    ended = true
    options.expire()
  }
  arm(options.limitMs)

  const clock: CommandClock = {
    pause() {
      if (pauses++ > 0 || runningSince === null) return
      usedMs += now() - runningSince
      runningSince = null
      clearTimeout(timer)
      timer = undefined
    },
    resume() {
      if (pauses === 0 || --pauses > 0) return
      runningSince = now()
      if (!ended) arm(options.limitMs - usedMs)
    },
    async whilePaused(ask) {
      clock.pause()
      try {
        return await ask()
      } finally {
        clock.resume()
      }
    },
    expired: () => runningSince !== null && used() >= options.limitMs,
    stop() {
      ended = true
      clearTimeout(timer)
      timer = undefined
    },
  }
  return clock
}
