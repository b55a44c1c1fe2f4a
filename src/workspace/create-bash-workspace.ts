/**
 * `createBashWorkspace()`: the reference workspace adapter on just-bash. Commands run in a
 * separate module worker (bash-worker.ts), created on first use so that the page is interactive
 * before just-bash is downloaded.
 *
 * Stopping a command: the worker first asks just-bash to stop (its abort signal and wall-clock
 * deadline). If the command is still running `graceMs` after its timeout or cancel, the worker
 * is terminated and the next call starts a fresh one from the main thread's snapshot of the
 * files, which is updated after every finished command. What a terminate loses: the killed
 * command's own file changes, files under /bin, /usr/bin, /dev and /proc, and hard links
 * (restored as separate copies).
 */

import {
  type ExecInput,
  type ExecResult,
  type WorkspaceAdapter,
  type WorkspaceInfo,
} from '../protocol/workspace'
import type { WorkerExecReply } from './bash-worker-api'
import type { SnapshotDelta } from './snapshot-store'
import { applySnapshotDelta, readSnapshotFile, seedSnapshot } from './snapshot-store'
import {
  emptyResult,
  finishResult,
  refuseOversizedCommand,
  RESTART_LINE,
  type StopReason,
} from './exec-result'
import { connectWorker, unlessDead, type DeathReason, type WorkerConnection } from './worker-connection'
import { validateWorkspaceInfo } from './validate-workspace-info'
import { resolveWorkspacePath } from './workspace-paths'

export type BashWorkspaceOptions = {
  /** Seed files: paths relative to the root, or absolute; contents as text. */
  files?: Record<string, string>
  /** The workspace root and initial directory (default '/workspace'). */
  cwd?: string
  /** Extra environment variables (HOME is always /home/user). */
  env?: Record<string, string>
  /** Creates the bash worker; the default is the bundled bash-worker.ts. Tests pass their own. */
  worker?: () => Worker
  /** How long a stopped command may keep running before its worker is terminated (default 1 s). */
  graceMs?: number
}

/** The adapter plus `readFile` (for AGENTS.md and the like) and `dispose`. */
export type BashWorkspace = WorkspaceAdapter & {
  /** A file's text (path relative to the root, or absolute), or null if there is none. */
  readFile(path: string): Promise<string | null>
  /** Terminates the worker; later calls fail (exec) or return null (readFile). */
  dispose(): void
}

const HOME = '/home/user'
const DEFAULT_GRACE_MS = 1000
/** setTimeout fires at once for delays over 2^31 - 1 ms. */
const MAX_TIMER_MS = 2_147_483_647
const NO_CHANGES: SnapshotDelta = { changed: [], removed: [] }

/** Creates a bash workspace; nothing is loaded until the first `exec` or `readFile`. */
export function createBashWorkspace(options: BashWorkspaceOptions = {}): BashWorkspace {
  const root = options.cwd ?? '/workspace'
  const info: WorkspaceInfo = {
    version: 1,
    root,
    cwd: root,
    home: HOME,
    gitAvailable: false,
    ephemeral: true,
  }
  const valid = validateWorkspaceInfo(info)
  if (!valid.ok) throw new Error(`createBashWorkspace: ${valid.reason}`)
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS
  const snapshot = seedSnapshot(options.files, root)
  const env = { ...options.env }

  let live: WorkerConnection | null = null
  let connection: Promise<WorkerConnection | string> | null = null
  let disposed = false
  let nextId = 1
  let queue: Promise<unknown> = Promise.resolve()

  function spawn(): Worker {
    if (options.worker) return options.worker()
    // Keep this exact form: it is how Vite finds and bundles the worker.
    return new Worker(new URL('./bash-worker.ts', import.meta.url), { type: 'module' })
  }

  function kill(conn: WorkerConnection, reason: DeathReason): void {
    if (live === conn) {
      live = null
      connection = null
    }
    conn.terminate(reason)
  }

  /** The running worker, started (and seeded from the snapshot) if needed; a string on failure. */
  function connect(): Promise<WorkerConnection | string> {
    if (connection) return connection
    const attempt = start()
    connection = attempt
    void attempt.then((result) => {
      if (typeof result === 'string' && connection === attempt) connection = null // retry later
    })
    return attempt
  }

  async function start(): Promise<WorkerConnection | string> {
    let conn: WorkerConnection
    try {
      conn = connectWorker(spawn())
    } catch (error) {
      return `could not start the shell: ${messageOf(error)}`
    }
    live = conn
    void conn.dead.then(() => {
      // A crash (kill() already forgot the others): the next call starts a new worker.
      if (live !== conn) return
      live = null
      connection = null
    })
    const init = conn.api
      .init({ entries: [...snapshot], root, home: HOME, env })
      .catch((error: unknown) => ({ ok: false as const, error: messageOf(error) }))
    const started = await unlessDead(conn, init, (reason) => ({
      ok: false as const,
      error: describeDeath(reason),
    }))
    if (started.ok) return conn
    kill(conn, { crashed: started.error })
    return `could not start the shell: ${started.error}`
  }

  function exec(input: ExecInput): Promise<ExecResult> {
    const refused = refuseOversizedCommand(input.command)
    if (refused) return Promise.resolve(refused)
    // One command at a time, so each one's timeout and watchdog cover only itself.
    const run = queue.then(() => runExec(input))
    queue = run.catch(() => undefined)
    return run
  }

  async function runExec(input: ExecInput): Promise<ExecResult> {
    const stopped = (stop: StopReason, notes: string[] = []) =>
      finishResult(emptyResult(0), {
        stop,
        notes,
        timeoutMs: input.timeoutMs,
        outputLimitBytes: input.outputLimitBytes,
      })
    if (disposed) return failure('the workspace has been closed')
    if (input.signal.aborted) return stopped('cancel')
    const conn = await untilAborted(connect(), input.signal)
    if (conn === ABORTED) return stopped('cancel')
    if (typeof conn === 'string') return failure(conn)

    const id = nextId++
    const { command, cwd, timeoutMs, outputLimitBytes } = input
    const call = conn.api
      .exec(id, { command, cwd, timeoutMs, outputLimitBytes })
      .catch((error: unknown) => ({ result: failure(messageOf(error)), changes: NO_CHANGES }))
    let watchdog = setTimeout(() => kill(conn, 'timeout'), Math.min(timeoutMs + graceMs, MAX_TIMER_MS))
    const onAbort = () => {
      conn.api.cancel(id).catch(() => undefined)
      clearTimeout(watchdog)
      watchdog = setTimeout(() => kill(conn, 'cancel'), graceMs)
    }
    input.signal.addEventListener('abort', onAbort, { once: true })
    try {
      type Outcome = { reply: WorkerExecReply } | { reason: DeathReason }
      const outcome = await unlessDead<Outcome>(
        conn,
        call.then((reply) => ({ reply })),
        (reason) => ({ reason }),
      )
      if ('reply' in outcome) {
        applySnapshotDelta(snapshot, outcome.reply.changes)
        return outcome.reply.result
      }
      if (outcome.reason === 'timeout' || outcome.reason === 'cancel') {
        return stopped(outcome.reason, [RESTART_LINE])
      }
      return failure(describeDeath(outcome.reason))
    } finally {
      clearTimeout(watchdog)
      input.signal.removeEventListener('abort', onAbort)
    }
  }

  async function readFile(path: string): Promise<string | null> {
    if (disposed) return null
    const absolute = resolveWorkspacePath(path, root)
    // Before the worker exists the snapshot is the whole truth: answering from it keeps, for
    // example, reading AGENTS.md at boot from downloading just-bash.
    if (!connection) {
      const known = readSnapshotFile(snapshot, absolute)
      if (known !== undefined) return known
    }
    const fromSnapshot = () => readSnapshotFile(snapshot, absolute) ?? null
    const conn = await connect()
    if (typeof conn === 'string') return fromSnapshot()
    const read = conn.api.readFile(absolute).catch(() => null)
    return unlessDead(conn, read, fromSnapshot)
  }

  function dispose(): void {
    disposed = true
    if (live) kill(live, 'disposed')
  }

  return { info, permission: 'allow-sandboxed', exec, readFile, dispose }
}

const ABORTED = Symbol('aborted')

/** `promise`'s value, or ABORTED as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  let onAbort = () => {}
  const aborted = new Promise<typeof ABORTED>((resolve) => {
    onAbort = () => resolve(ABORTED)
    signal.addEventListener('abort', onAbort, { once: true })
  })
  return Promise.race([promise, aborted]).finally(() => signal.removeEventListener('abort', onAbort))
}

function describeDeath(reason: DeathReason): string {
  if (typeof reason === 'object') {
    return `the shell stopped unexpectedly (${reason.crashed}); it restarts with the files as of the last finished command`
  }
  if (reason === 'disposed') return 'the workspace was closed'
  return `the shell was stopped (${reason})`
}

function failure(message: string): ExecResult {
  return { stdout: '', stderr: `fxterm: ${message}\n`, exitCode: 1 }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
