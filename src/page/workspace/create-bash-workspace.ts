/**
 * `createBashWorkspace()`: the reference workspace adapter on just-bash. Commands run in a
 * separate module worker (bash-worker.ts), created on first use so that the page is interactive
 * before just-bash is downloaded.
 *
 * State between commands: files live in the worker; the directory comes back as the result's
 * `cwd` (the engine passes it back as the next `input.cwd`), and shell variables stay in the
 * worker's session, with a copy here for restarts.
 *
 * Stopping a command: the worker first asks just-bash to stop (its abort signal and the command
 * clock, which stands still while a push question waits for the person). If the command is still running `graceMs` after its timeout or cancel, the worker
 * is terminated and a fresh one starts from the main thread's snapshot of the files, which is
 * updated after every finished command and upload. What a terminate loses: the killed command's
 * own changes (files and variables), files under /bin, /usr/bin, /dev and /proc, and hard links
 * (restored as separate copies).
 */

import type { ExecInput, ExecResult, WorkspaceInfo } from '../../shared/protocol/workspace'
import { ABORTED, createSerialQueue, untilAborted, withDeadline } from './async-guards'
import type { Outcome } from '../../shared/messages/bash-worker-api'
import {
  clampOutputLimit,
  clampTimeoutMs,
  emptyResult,
  failureResult,
  finishResult,
  messageOf,
  refuseOversizedCommand,
  RESTART_LINE,
  type StopReason,
} from '../../shared/workspace/exec-result'
import { createWorkspaceSeed } from './workspace-seed'
import { createPageGitHost } from './page-git-host'
import { confirmPush } from '../dialogs/push-dialog'
import { applySnapshotDelta, readSnapshotFile, seedSnapshot, type SnapshotDelta } from './snapshot-store'
import { createSessionFiles } from './session-files'
import { openStoredFiles } from './stored-files'
import { opfsAvailable, openOpfsStoredFiles } from './opfs-stored-files'
import { createFolderMirror } from './folder-files'
import { runCommandDescription } from './tool-description'
import { planUploads, type SkippedUpload, type UploadFile } from './upload-plan'
import { validateWorkspaceInfo } from './validate-workspace-info'
import { createChangeHistory } from './change-history'
import { createWorkspaceOps } from './workspace-ops'
import { execWithWatchdog } from './watchdog-exec'
import { unlessDead, type WorkerConnection } from './worker-connection'
import { createLazyCodeRunner } from './lazy-code-runner'
import { createWorkerSupervisor, describeDeath } from './worker-supervisor'
import { resolveWorkspacePath } from '../../shared/workspace/workspace-paths'
import { createCloseGuard } from './close-guard'
import type { CommandClock } from '../../shared/workspace/command-clock'
import type { PushPlan } from '../../shared/workspace/git/git-host'
import { askWhilePaused } from '../../shared/workspace/question-pause'

import type { BashWorkspace, BashWorkspaceOptions, BashWorkspaceSeamOptions } from './bash-workspace-types'
export type { BashWorkspace, BashWorkspaceOptions, BashWorkspaceSeamOptions }

const HOME = '/home/user'
const DEFAULT_GRACE_MS = 1000
const READ_DEADLINE_MS = 10_000
/**
 * How long a command's answer waits for its files to be stored. A result on screen then means a
 * result stored, so a reload right after brings it back; a store slower than this (a huge
 * upload, a stalled disk) answers anyway and the closing tab is held by `beforeunload`.
 */
const STORE_WAIT_MS = 15_000
const NEVER_ABORTED = new AbortController().signal
/** The longest a command waits for Python to load before its clock starts anyway. */
const PYTHON_READY_DEADLINE_MS = 120_000
/** A command that may run `python3` (or `python`). */
const NAMES_PYTHON = /(^|[^\w.-])python3?([^\w.-]|$)/

/** Creates a bash workspace; nothing is loaded or fetched until the first call that needs it. */
export function createBashWorkspace(options: BashWorkspaceOptions = {}): BashWorkspace {
  return createBashWorkspaceWithSeams(options)
}

/** {@link createBashWorkspace} with the seams tests use (their own worker or storage); not public. */
export function createBashWorkspaceWithSeams(options: BashWorkspaceSeamOptions = {}): BashWorkspace {
  const root = options.cwd ?? '/workspace'
  const info: WorkspaceInfo = { version: 1, root, cwd: root, home: HOME, gitAvailable: false, ephemeral: true, extensions: { git: true } }
  const valid = validateWorkspaceInfo(info)
  if (!valid.ok) throw new Error(`createBashWorkspace: ${valid.reason}`)
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS
  const snapshot = seedSnapshot(options.files, root)
  const env = { ...options.env }
  let vars: Record<string, string> | undefined // the last finished command's, for restarts
  const enqueue = createSerialQueue() // one operation at a time, so each sees the one before
  // The agent's changes per turn, for /diff and /undo; stored with the files where they are.
  const history = createChangeHistory({ noted: (entry) => sessionFiles?.noted(entry), popped: (turn, paths) => sessionFiles?.popped(turn, paths) })

  let disposed = false
  const pageRunner = options.codeRunner === undefined && typeof document !== 'undefined' ? createLazyCodeRunner() : null
  const codeRunner = options.codeRunner === false ? undefined : (options.codeRunner ?? pageRunner ?? undefined)
  // The command running now, for its push question: the question stops its clock (the time the
  // person takes to answer is not the command's), and a cancel of the command closes it.
  let asking: { clock: CommandClock; signal: AbortSignal } | null = null
  const confirm = options.git === false ? undefined : (options.git?.approvePush ?? (typeof document !== 'undefined' ? confirmPush : undefined))
  const gitHost =
    options.git === false
      ? undefined
      : createPageGitHost({
          ...options.git,
          ...(confirm ? { approvePush: (plan: PushPlan) => askWhilePaused(asking, (signal) => confirm(plan, signal)) } : {}),
        })
  const supervisor = createWorkerSupervisor(
    // Keep the `new Worker(new URL(...), ...)` form: it is how Vite finds and bundles the worker.
    () => options.worker?.() ?? new Worker(new URL('../../bash-worker/bash-worker.ts', import.meta.url), { type: 'module' }),
    () => ({ entries: [...snapshot], root, home: HOME, env, ...(vars ? { vars } : {}) }),
    codeRunner,
    gitHost,
  )

  let switching: Promise<void> = Promise.resolve() // the last useSession, until its files are in place
  /** Whether a session was named yet: before the first, every run was this page's own. */
  let hadSession = false
  const notes: string[] = [] // told on the next command: a failed download, a store's trouble
  const noticeListeners = new Set<(line: string, kind: 'activity' | 'notice') => void>()
  const holdClose = createCloseGuard()
  const sessionFiles = options.persist
    ? createSessionFiles({
        store: options.persist.opfs
          ? openOpfsStoredFiles(options.persist.namespace, options.persist.opfs)
          : !options.persist.indexedDB && opfsAvailable()
            ? openOpfsStoredFiles(options.persist.namespace)
            : openStoredFiles(options.persist.namespace, options.persist.indexedDB),
        snapshot,
        // On a path in both, `files` wins (as at start).
        seed: async () => new Map([...seeds.fetched, ...seedSnapshot(options.files, root)]),
        replaced: (entries) => {
          history.restore(entries)
          supervisor.restart()
        },
        history: () => history.entries(),
        notify: (line) => noticeListeners.forEach((listener) => listener(line, 'notice')),
        busy: (busy) => holdClose(busy),
      })
    : null
  const folder = createFolderMirror(root, (line) => notes.push(line)) // an /open'ed folder
  /**
   * Applies a change reported by the worker, stores it with the session, and writes it to an
   * opened folder; resolves once it is stored (or has failed, or STORE_WAIT_MS passed).
   */
  const applyChange = (delta: SnapshotDelta): Promise<void> => {
    // A Python file was just written: python3 is likely next, and its first load takes seconds.
    if (pageRunner && delta.changed.some(([path]) => path.endsWith('.py'))) void pageRunner.prewarm('python')
    applySnapshotDelta(snapshot, delta)
    const stored = sessionFiles?.changed(delta)
    folder.changed(delta)
    return stored ? withDeadline(stored, STORE_WAIT_MS, undefined) : Promise.resolve()
  }
  const seeds = createWorkspaceSeed({ ...options, root, snapshot, note: (line) => notes.push(line) })
  const seed = seeds.load

  async function connect(): Promise<WorkerConnection | string> {
    await seed()
    void pageRunner?.prewarm() // the shell is in use: code may run next
    return supervisor.connect()
  }

  function exec(input: ExecInput): Promise<ExecResult> {
    let cwd = root
    try {
      if (typeof input.cwd === 'string') cwd = input.cwd
      const command = String(input.command)
      const refused = refuseOversizedCommand(command, cwd)
      if (refused) return Promise.resolve(refused)
      return enqueue(() => runExec({ ...input, command }, cwd)).catch((error: unknown) =>
        failureResult(messageOf(error), cwd),
      )
    } catch (error) {
      // Even a malformed input (null, a throwing getter) is answered, not thrown.
      return Promise.resolve(failureResult(messageOf(error), cwd))
    }
  }

  async function runExec(input: ExecInput, cwd: string): Promise<ExecResult> {
    const signal = input.signal ?? NEVER_ABORTED
    const timeoutMs = clampTimeoutMs(input.timeoutMs)
    const outputLimitBytes = clampOutputLimit(input.outputLimitBytes)
    const stopped = (stop: StopReason, notes: string[] = []) =>
      finishResult(emptyResult(0), { stop, notes, cwd, timeoutMs, outputLimitBytes })
    if (signal.aborted) return stopped('cancel')
    const conn = await untilAborted(connect(), signal)
    if (conn === ABORTED) return stopped('cancel')
    if (typeof conn === 'string') return failureResult(conn, cwd)

    // Starting Python never counts against the command's time limit: for a command that names
    // python3, the clock starts once the sandbox has an interpreter ready (or plainly cannot).
    if (pageRunner && NAMES_PYTHON.test(input.command)) {
      const ready = withDeadline(pageRunner.pythonReady(), PYTHON_READY_DEADLINE_MS, undefined)
      if ((await untilAborted(ready, signal)) === ABORTED) return stopped('cancel')
    }
    // The last command's writes to an opened folder end first, so a failed one is told now.
    await folder.settled()
    const stored = sessionFiles?.takeNotice()
    const told = [...notes.splice(0), ...(stored ? [stored] : [])]
    const outcome = await execWithWatchdog(
      conn,
      { command: input.command, cwd, timeoutMs, outputLimitBytes, notes: told, ...(input.tty === true ? { tty: true } : {}) },
      { signal, graceMs, stuck: (reason) => supervisor.replace(conn, reason), clock: (clock) => (asking = { clock, signal }) },
    ).finally(() => (asking = null))
    if ('reply' in outcome) {
      history.record(snapshot, outcome.reply.changes)
      await applyChange(outcome.reply.changes)
      if (outcome.reply.vars) vars = outcome.reply.vars
      return outcome.reply.result
    }
    if (outcome.reason === 'timeout' || outcome.reason === 'cancel') {
      return stopped(outcome.reason, [...told, RESTART_LINE])
    }
    return failureResult(describeDeath(outcome.reason), cwd)
  }

  async function readFileNow(path: string): Promise<string | null> {
    if (disposed) return null
    await seed()
    // A read right after a switch of session answers from the files of the session switched to.
    await switching
    const absolute = resolveWorkspacePath(path, root)
    // Before the worker exists the snapshot is the whole truth: answering from it keeps, for
    // example, reading AGENTS.md at boot from downloading just-bash.
    if (!supervisor.started()) {
      const known = readSnapshotFile(snapshot, absolute)
      if (known !== undefined) return known
    }
    const fromSnapshot = () => readSnapshotFile(snapshot, absolute) ?? null
    const conn = await supervisor.connect()
    if (typeof conn === 'string') return disposed ? null : fromSnapshot()
    return unlessDead(conn, conn.api.readFile(absolute).catch(() => null), fromSnapshot)
  }

  /** `call(worker)`'s value; rejects with a readable message when there is none. */
  function withWorker<T>(call: (conn: WorkerConnection) => Promise<Outcome<T>>): Promise<T> {
    return enqueue(async () => {
      const conn = await connect()
      if (typeof conn === 'string') throw new Error(conn)
      const failed = (error: unknown) => ({ ok: false as const, error: messageOf(error) })
      const outcome = await unlessDead(conn, call(conn).catch(failed), (reason) => failed(describeDeath(reason)))
      if (!outcome.ok) throw new Error(outcome.error)
      return outcome.value
    })
  }

  async function writeFiles(files: UploadFile[]): Promise<{ written: string[]; skipped: SkippedUpload[] }> {
    const plan = planUploads(Array.isArray(files) ? files : [])
    if (plan.accepted.length === 0) return { written: [], skipped: plan.skipped }
    try {
      const reply = await withWorker((conn) => conn.api.writeFiles(plan.accepted))
      await applyChange(reply.changes) // so a restart after a watchdog kill keeps them
      return { written: reply.written, skipped: [...plan.skipped, ...reply.skipped] }
    } catch (error) {
      const reason = messageOf(error)
      return { written: [], skipped: [...plan.skipped, ...plan.accepted.map(({ path }) => ({ path, reason }))] }
    }
  }

  const ops = createWorkspaceOps({
    root,
    snapshot,
    history,
    fileTool: async (request) => {
      const { answer, changes } = await withWorker((conn) => conn.api.fileTool(request))
      history.record(snapshot, changes)
      await applyChange(changes)
      return answer
    },
    restore: async (write, remove) => {
      await applyChange(await withWorker((conn) => conn.api.putFiles(write, remove)))
    },
  })

  return {
    info,
    permission: 'allow-sandboxed',
    // The engine's "another session" resets the undo history; with sessions bound, the history
    // follows useSession instead (it is restored from storage, not emptied).
    workspaceOp: (request) => (request.op === 'session' && sessionFiles?.bound ? Promise.resolve(null) : ops(request)),
    toolDescription: runCommandDescription({ runsCode: codeRunner !== undefined, persists: options.persist !== undefined }),
    exec,
    readFile: (input) => withDeadline(readFileNow(String(input.path)), READ_DEADLINE_MS, null, input.signal),
    writeFiles,
    listFiles: () => withWorker((conn) => conn.api.listFiles()),
    exportZip: () => withWorker((conn) => conn.api.exportZip()),
    seedFiles: async () => {
      await seed()
      return seeds.startingFiles()
    },
    useSession(id, how) {
      // At once: a run in flight is killed (its changes never applied) and no code of the
      // session left behind can reach the next one. Again once the commands queued before the
      // switch are done, so the new session's first run opens a sandbox of its own. The page's
      // first session has none left behind: its first commit is told once written, and a run its
      // first turn started meanwhile is that session's own, so it is not killed.
      if (hadSession) pageRunner?.resetSession()
      hadSession = true
      gitHost?.newSession() // a push in the new session asks the person again
      if (!sessionFiles) return enqueue(async () => pageRunner?.resetSession()).catch(() => undefined)
      const done = enqueue(async () => {
        pageRunner?.resetSession()
        await seed()
        const notice = await sessionFiles.use(id, how)
        if (notice) notes.push(notice)
      }).catch(() => undefined)
      switching = done
      return done
    },
    forgetSession: (id) => sessionFiles?.forget(id) ?? Promise.resolve(),
    preparePython: async () => pageRunner?.prewarm('python'),
    // In the queue, so a session switch asked before it is done first (its files are the ones
    // seeded); the code sandbox still starts only with a first command (connect()).
    prepareShell: () =>
      enqueue(async () => {
        await seed()
        await supervisor.connect()
      }).then(
        () => undefined,
        () => undefined,
      ),
    persisted: async () => {
      await sessionFiles?.settled()
      await folder.settled()
    },
    openFolder: (dir) =>
      enqueue(async () => {
        await seed()
        const { entries, line } = await folder.open(dir)
        snapshot.clear()
        for (const [path, entry] of entries) snapshot.set(path, entry)
        history.reset()
        supervisor.restart()
        sessionFiles?.adopt()
        return line
      }),
    onProgress: (listener) => {
      noticeListeners.add(listener)
      const off = pageRunner?.onProgress(listener)
      return () => {
        noticeListeners.delete(listener)
        off?.()
      }
    },
    dispose() {
      disposed = true
      holdClose(false)
      pageRunner?.dispose()
      supervisor.dispose()
    },
  }
}
