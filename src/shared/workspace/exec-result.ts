/**
 * Builds the results the workspace returns for commands it refuses, stops or cuts short. Shared
 * by the bash session (in the worker) and the adapter's watchdog (on the main thread).
 */

import {
  COMMAND_MAX_BYTES,
  COMMAND_TIMEOUT_MS,
  OUTPUT_LIMIT_BYTES,
  type ExecResult,
} from '../protocol/workspace'
import { appendLine, formatCount, truncateOutput, utf8ByteLength } from './truncate-output'

/** Exit code for a refused command (bash's usage error). */
export const EXIT_REFUSED = 2
/** Exit code for a timed-out command (as coreutils `timeout`). */
export const EXIT_TIMED_OUT = 124
/** Exit code for a cancelled command (128 + SIGINT, as after Ctrl+C). */
export const EXIT_CANCELLED = 130

/** `timeoutMs` as the workspace honours it: a whole number of ms in 1..30,000 (30 s if unusable). */
export function clampTimeoutMs(timeoutMs: number): number {
  if (!Number.isFinite(timeoutMs)) return COMMAND_TIMEOUT_MS
  return Math.min(COMMAND_TIMEOUT_MS, Math.max(1, Math.floor(timeoutMs)))
}

/** `outputLimitBytes` as the workspace honours it: 0..64 KiB, the contract's preview limit. */
export function clampOutputLimit(outputLimitBytes: number): number {
  if (!Number.isFinite(outputLimitBytes)) return OUTPUT_LIMIT_BYTES
  return Math.min(OUTPUT_LIMIT_BYTES, Math.max(0, Math.floor(outputLimitBytes)))
}

/** Why a command stopped early, if it did. */
export type StopReason = 'timeout' | 'cancel' | null

/** The result for a command over the 64 KiB limit (it stays in `cwd`), or null when it may run. */
export function refuseOversizedCommand(command: string, cwd: string): ExecResult | null {
  const bytes = utf8ByteLength(command)
  if (bytes <= COMMAND_MAX_BYTES) return null
  return {
    stdout: '',
    stderr:
      `fxterm: command refused: it is ${formatCount(bytes)} bytes of UTF-8; ` +
      `the limit is ${formatCount(COMMAND_MAX_BYTES)} bytes (64 KiB)\n`,
    exitCode: EXIT_REFUSED,
    cwd,
  }
}

/** `200` → `"200 ms"`, `30000` → `"30 s"`, `1500` → `"1.5 s"`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`
  return `${Number((ms / 1000).toFixed(1))} s`
}

/** The last stderr line of a timed-out command. */
export function timeoutLine(timeoutMs: number): string {
  return `fxterm: command timed out after ${formatDuration(timeoutMs)}`
}

/** The last stderr line of a cancelled command. */
export const CANCEL_LINE = 'fxterm: command cancelled'

/**
 * Added when the worker had to be terminated to stop a command: the model must know that the
 * files are as they were before the command, not half-written.
 */
export const RESTART_LINE =
  'fxterm: the command did not stop in time, so the shell was restarted; ' +
  'changes it made to files are lost (the files are as they were before it ran)'

export type FinishOptions = {
  stop: StopReason
  /** The shell's directory after the command, returned as the result's `cwd`. */
  cwd: string
  timeoutMs: number
  outputLimitBytes: number
  /** Lines to add before the stop line (which, when there is one, is always last). */
  notes?: readonly string[]
}

/**
 * Caps a raw result's output and appends the notes and stop line to stderr, keeping the whole
 * result (notices included) within `outputLimitBytes`. The exit code becomes 124 or 130 when
 * the command was stopped.
 */
export function finishResult(raw: ExecResult, options: FinishOptions): ExecResult {
  const lines = [...(options.notes ?? [])]
  if (options.stop === 'timeout') lines.push(timeoutLine(options.timeoutMs))
  if (options.stop === 'cancel') lines.push(CANCEL_LINE)
  // Each line costs its bytes plus a newline; +1 for ending stderr's unterminated last line.
  const trailerBytes = lines.reduce((sum, line) => sum + utf8ByteLength(line) + 1, 0)
  const budget = options.outputLimitBytes - (lines.length > 0 ? trailerBytes + 1 : 0)
  const capped = truncateOutput(raw, Math.max(0, budget))
  return {
    stdout: capped.stdout,
    stderr: lines.reduce(appendLine, capped.stderr),
    exitCode:
      options.stop === 'timeout'
        ? EXIT_TIMED_OUT
        : options.stop === 'cancel'
          ? EXIT_CANCELLED
          : raw.exitCode,
    cwd: options.cwd,
  }
}

/**
 * just-bash's own last line for a stopped script, in each of its forms: "bash: execution
 * aborted", "bash: <what> aborted", "bash: <what> exceeded execution deadline (200ms)", "bash:
 * <what> exceeded its execution deadline".
 */
const JUST_BASH_STOP_LINE = /(^|\n)bash: [^\n]*(aborted|exceeded (its )?execution deadline( \(\d+ms\))?)\n$/

/**
 * `stderr` without just-bash's line about stopping the script. Our abort timer and just-bash's
 * deadline race at the same instant, so which of its two lines appears is chance; the stop line
 * finishResult adds says it once, the same way every time.
 */
export function withoutStopLine(stderr: string): string {
  return stderr.replace(JUST_BASH_STOP_LINE, '$1')
}

/** A result for a command that produced nothing before it was stopped or failed to run. */
export function emptyResult(exitCode: number): ExecResult {
  return { stdout: '', stderr: '', exitCode }
}

/** A command that could not run: `fxterm: <message>` on stderr, exit 1, still in `cwd`. */
export function failureResult(message: string, cwd: string): ExecResult {
  return { stdout: '', stderr: `fxterm: ${message}\n`, exitCode: 1, cwd }
}

/** An error's message, for the stderr of a result that replaces a thrown error. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
