/**
 * Runs one command in the bash worker under a watchdog. The worker stops commands itself (its
 * abort signal and just-bash's deadline), but a command that is stuck inside one long builtin
 * checks neither; such a worker cannot answer a cancel either, because it never returns to its
 * event loop. So if the command is still running `graceMs` after its timeout, or after its
 * signal aborted, the watchdog gives up on it: `stuck` is called to terminate the worker.
 *
 * The time limit is a command clock (command-clock.ts), handed to `clock`: while the person is
 * asked something for the command (the push dialog), the page pauses it, as the worker pauses
 * its own. A cancel is never paused: it gives up after `graceMs` whatever is open.
 */

import type { WorkerExecInput, WorkerExecReply } from '../../shared/messages/bash-worker-api'
import { failureResult, messageOf } from '../../shared/workspace/exec-result'
import { unlessDead, type DeathReason, type WorkerConnection } from './worker-connection'
import { createCommandClock, type CommandClock } from '../../shared/workspace/command-clock'

let nextId = 1

/** The worker's reply, or why the worker died before giving one. */
export type WatchedOutcome = { reply: WorkerExecReply } | { reason: DeathReason }

export type WatchdogOptions = {
  signal: AbortSignal
  /** How long a stopped command may keep running before its worker is given up on. */
  graceMs: number
  /** Terminates the worker; the outcome is then `{ reason }`. */
  stuck(reason: 'timeout' | 'cancel'): void
  /** Given the command's clock as it starts, so that a question to the person can pause it. */
  clock?(clock: CommandClock): void
}

/** Runs `input` in `conn`'s worker; never rejects. */
export async function execWithWatchdog(
  conn: WorkerConnection,
  input: WorkerExecInput,
  options: WatchdogOptions,
): Promise<WatchedOutcome> {
  const id = nextId++
  const { signal, graceMs } = options
  const call = conn.api.exec(id, input).catch((error: unknown) => ({
    result: failureResult(messageOf(error), input.cwd),
    changes: { changed: [], removed: [] },
    vars: null,
  }))
  const clock = createCommandClock({ limitMs: input.timeoutMs + graceMs, expire: () => options.stuck('timeout') })
  options.clock?.(clock)
  let watchdog: ReturnType<typeof setTimeout> | undefined
  const onAbort = () => {
    conn.api.cancel(id).catch(() => undefined)
    clock.stop()
    watchdog = setTimeout(() => options.stuck('cancel'), graceMs)
  }
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    return await unlessDead<WatchedOutcome>(
      conn,
      call.then((reply) => ({ reply })),
      (reason) => ({ reason }),
    )
  } finally {
    clock.stop()
    clearTimeout(watchdog)
    signal.removeEventListener('abort', onAbort)
  }
}
