/**
 * Owns one just-bash shell over one in-memory file system and runs commands in it with the
 * workspace limits (size, time, output, abort). Runs as is in Node for tests; in the browser,
 * bash-worker.ts hosts it in its own worker.
 */

import { Bash, type BashOptions } from 'just-bash/browser'
import type { ExecResult } from '../protocol/workspace'
import { createChangeTracker, createSnapshotFs } from './fs-snapshot'
import type { SnapshotDelta, SnapshotEntry } from './snapshot-store'
import { emptyResult, finishResult, refuseOversizedCommand, type StopReason } from './exec-result'
import { resolveWorkspacePath } from './workspace-paths'

/** setTimeout fires at once for delays over 2^31 - 1 ms. */
const MAX_TIMER_MS = 2_147_483_647

export type BashSessionOptions = {
  /** Initial files (absolute paths), e.g. the seed files or a snapshot to restore. */
  entries?: Iterable<[string, SnapshotEntry]>
  /** The workspace root, created if missing; relative paths are taken from it. */
  root?: string
  /** $HOME, created if missing. */
  home?: string
  env?: Record<string, string>
  /** Overrides just-bash's execution limits (tests lift the command-count limits with it). */
  executionLimits?: BashOptions['executionLimits']
}

/** One command to run. Like the adapter's ExecInput, but the signal is optional. */
export type SessionExecInput = {
  command: string
  cwd: string
  timeoutMs: number
  outputLimitBytes: number
  signal?: AbortSignal
}

export type BashSession = {
  /** Runs one command; never throws. The file system persists between commands. */
  exec(input: SessionExecInput): Promise<ExecResult>
  /** A file's text, or null when it does not exist or is not a file. */
  readFile(path: string): Promise<string | null>
  /** What the commands changed since the last call (see fs-snapshot.ts). */
  changes(): Promise<SnapshotDelta>
}

/** Creates a session; its file system holds `entries` plus the root, home and /tmp. */
export async function createBashSession(options: BashSessionOptions = {}): Promise<BashSession> {
  const root = options.root ?? '/workspace'
  const home = options.home ?? '/home/user'
  const fs = await createSnapshotFs(options.entries ?? [], [root, home, '/tmp'])
  const env = { ...options.env, HOME: home }

  // just-bash checks its wall-clock deadline (maxExecutionTimeMs) between statements, which is
  // what stops a busy `while true` loop in-process: that loop never yields to the event loop, so
  // no timer or abort message can reach it. The deadline is fixed per Bash instance, so a Bash is
  // kept per timeout; shell state does not persist between exec calls anyway, only files do.
  let current: { timeoutMs: number; bash: Bash } | null = null
  function bashFor(timeoutMs: number): Bash {
    if (current?.timeoutMs !== timeoutMs) {
      const limits = { ...options.executionLimits, maxExecutionTimeMs: timeoutMs }
      current = { timeoutMs, bash: new Bash({ fs, cwd: root, env, executionLimits: limits }) }
    }
    return current.bash
  }
  bashFor(30_000) // creates just-bash's generated trees before the tracker's first look
  const tracker = await createChangeTracker(fs)

  async function exec(input: SessionExecInput): Promise<ExecResult> {
    const refused = refuseOversizedCommand(input.command)
    if (refused) return refused
    const finish = (raw: ExecResult, stop: StopReason) =>
      finishResult(raw, { stop, timeoutMs: input.timeoutMs, outputLimitBytes: input.outputLimitBytes })
    if (input.signal?.aborted) return finish(emptyResult(0), 'cancel')

    let stop: StopReason = null
    const controller = new AbortController()
    const onCancel = () => {
      stop ??= 'cancel'
      controller.abort()
    }
    input.signal?.addEventListener('abort', onCancel, { once: true })
    // Stops commands that wait (sleep, reads); busy loops are stopped by the deadline instead.
    const timer = setTimeout(() => {
      stop ??= 'timeout'
      controller.abort()
    }, Math.min(input.timeoutMs, MAX_TIMER_MS))
    const started = Date.now()
    let raw: ExecResult
    try {
      const result = await bashFor(input.timeoutMs).exec(input.command, {
        cwd: resolveWorkspacePath(input.cwd, root),
        signal: controller.signal,
        rawScript: true, // run the command exactly as written (no trimming of indentation)
      })
      raw = { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode }
    } catch (error) {
      raw = { stdout: '', stderr: `fxterm: ${messageOf(error)}\n`, exitCode: 1 }
    } finally {
      clearTimeout(timer)
      input.signal?.removeEventListener('abort', onCancel)
    }
    // just-bash's own deadline answers 124 like `timeout`; only the elapsed time tells it apart
    // from a command inside the script that exited 124.
    if (stop === null && raw.exitCode === 124 && Date.now() - started >= input.timeoutMs) {
      stop = 'timeout'
    }
    return finish(raw, stop)
  }

  async function readFile(path: string): Promise<string | null> {
    try {
      return await fs.readFile(resolveWorkspacePath(path, root))
    } catch {
      return null
    }
  }

  return { exec, readFile, changes: () => tracker.changes() }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
