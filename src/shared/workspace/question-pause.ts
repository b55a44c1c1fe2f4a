/**
 * What stops a command's clock while the person is asked (the push dialog), on both sides of the
 * bash worker (see command-clock.ts): the page's (askWhilePaused, for the watchdog) and the
 * worker's (pausingHost), plus what lets just-bash see the worker's clock run out in a busy loop.
 */
import type { GitHost } from './git/git-host'
import type { CommandClock } from './command-clock'

/**
 * `host` whose push question stops the running command's clock until the person answers. (A
 * comlink proxy cannot be spread, so each method is passed on by hand.)
 */
export function pausingHost(host: GitHost, running: () => CommandClock | null): GitHost {
  return {
    approvePush: (plan) => {
      const clock = running()
      return clock ? clock.whilePaused(() => host.approvePush(plan)) : host.approvePush(plan)
    },
    githubFetch: (url, init) => host.githubFetch(url, init),
  }
}

const nativeAborted = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'aborted')!.get!

/**
 * `signal`, also reading as aborted once `clock` has run out. just-bash checks `aborted` between
 * statements, so a `while true` loop, which never yields to the timer that would abort the
 * signal, still stops at its deadline; a paused clock never runs out. Only this property reads
 * the clock: the abort event and `reason` are the signal's own (the clock's timer aborts it).
 */
export function deadlineSignal(signal: AbortSignal, clock: CommandClock): AbortSignal {
  Object.defineProperty(signal, 'aborted', { configurable: true, get: () => nativeAborted.call(signal) || clock.expired() })
  return signal
}

/**
 * Page side: `ask` with the running command's watchdog clock stopped until it answers; the
 * command's cancel (Esc, Ctrl+C) reaches the question through `signal` and closes it as a no.
 */
export function askWhilePaused(running: { clock: CommandClock; signal: AbortSignal } | null, ask: (signal?: AbortSignal) => Promise<boolean>): Promise<boolean> {
  if (!running) return ask()
  return running.clock.whilePaused(() => ask(running.signal))
}
