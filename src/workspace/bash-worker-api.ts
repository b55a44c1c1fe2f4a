/**
 * The API the bash worker exposes over comlink. Every method returns a value, never throws:
 * comlink would keep only an error's name and message.
 */

import type { GitHost } from './git/git-host'
import { transfer } from 'comlink'
import type { ExecResult } from '../protocol/workspace'
import { createBashSession, type BashSession } from './bash-session'
import { messageOf } from './exec-result'
import type { SnapshotDelta, SnapshotEntry } from './snapshot-store'
import type { SkippedUpload, UploadFile } from './upload-plan'
import type { FileToolRequest } from './file-tool-worker'
import type { FileOpAnswer } from '../protocol/workspace-ops'
import type { RemoteCodeRunner } from './code-commands'

export type WorkerInit = {
  entries: Array<[string, SnapshotEntry]>
  root: string
  home: string
  env: Record<string, string>
  /** Shell variables from the worker this one replaces, so a restart keeps them. */
  vars?: Record<string, string>
}

export type WorkerExecInput = {
  command: string
  cwd: string
  timeoutMs: number
  outputLimitBytes: number
  /** Lines to add to stderr (within the output limit). */
  notes?: string[]
  /** The output goes to the person's terminal (ExecInput's `tty`). */
  tty?: boolean
}

/**
 * A command's result plus what it changed: the files, for the main thread's snapshot, and the
 * shell variables, so that a worker started after a restart begins where this one left off.
 */
export type WorkerExecReply = {
  result: ExecResult
  changes: SnapshotDelta
  /** null when the command did not reach a session. */
  vars: Record<string, string> | null
}

/** What writeFiles did, plus the file changes for the main thread's snapshot. */
export type WorkerWriteReply = { written: string[]; skipped: SkippedUpload[]; changes: SnapshotDelta }

/** A value, or why there is none. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: string }

export type BashWorkerApi = {
  /**
   * Creates the session; must be called (and awaited) once before anything else. `codeRunner`
   * (a comlink proxy to the page) runs `node` and `python3`; `gitHost` (another) approves pushes
   * and sends GitHub's requests.
   */
  init(init: WorkerInit, codeRunner?: RemoteCodeRunner, gitHost?: GitHost): Promise<{ ok: true } | { ok: false; error: string }>
  /** Runs a command; `id` names it for `cancel`. */
  exec(id: number, input: WorkerExecInput): Promise<WorkerExecReply>
  /** Aborts command `id` if it is still running. */
  cancel(id: number): void
  readFile(path: string): Promise<string | null>
  /** Writes files (relative paths, checked by planUploads) under the root. */
  writeFiles(files: UploadFile[]): Promise<Outcome<WorkerWriteReply>>
  /** Runs a file tool call; answers its result and what it changed. */
  fileTool(request: FileToolRequest): Promise<Outcome<{ answer: FileOpAnswer; changes: SnapshotDelta }>>
  /** Writes and removes files by absolute path (/undo); answers what changed. */
  putFiles(write: Array<[string, string | Uint8Array]>, remove: string[]): Promise<Outcome<SnapshotDelta>>
  /** Every file under the root, relative and sorted. */
  listFiles(): Promise<Outcome<string[]>>
  /** The root as a zip (its buffer is transferred, not copied). */
  exportZip(): Promise<Outcome<Uint8Array>>
}

const NO_CHANGES: SnapshotDelta = { changed: [], removed: [] }
const NOT_STARTED = 'the shell is not started'

/** The worker's API, over a session created by `init`. */
export function createBashWorkerApi(): BashWorkerApi {
  let session: Promise<BashSession> | null = null
  const running = new Map<number, AbortController>()

  /** `use(session)` as an Outcome: errors (and a missing session) become `{ ok: false }`. */
  async function attempt<T>(use: (ready: BashSession) => Promise<T>): Promise<Outcome<T>> {
    if (!session) return { ok: false, error: NOT_STARTED }
    try {
      return { ok: true, value: await use(await session) }
    } catch (error) {
      return { ok: false, error: messageOf(error) }
    }
  }

  /** A failed scan only costs the restore-after-terminate copy, not the call's result. */
  const changesOf = (ready: BashSession) => ready.changes().catch(() => NO_CHANGES)

  return {
    async init(init, codeRunner, gitHost) {
      try {
        session = createBashSession({ ...init, ...(codeRunner ? { codeRunner } : {}), ...(gitHost ? { gitHost } : {}) })
        await session
        return { ok: true }
      } catch (error) {
        session = null
        return { ok: false, error: messageOf(error) }
      }
    },

    async exec(id, input) {
      if (!session) {
        const result = { stdout: '', stderr: `fxterm: ${NOT_STARTED}\n`, exitCode: 1, cwd: input.cwd }
        return { result, changes: NO_CHANGES, vars: null }
      }
      const controller = new AbortController()
      running.set(id, controller)
      try {
        const ready = await session
        const result = await ready.exec({ ...input, signal: controller.signal })
        return { result, changes: await changesOf(ready), vars: ready.vars() }
      } finally {
        running.delete(id)
      }
    },

    cancel(id) {
      running.get(id)?.abort()
    },

    async readFile(path) {
      if (!session) return null
      return (await session).readFile(path)
    },

    writeFiles: (files) =>
      attempt(async (ready) => {
        const done = await ready.writeFiles(files)
        return { ...done, changes: await changesOf(ready) }
      }),

    fileTool: (request) =>
      attempt(async (ready) => {
        const answer = await ready.fileTool(request)
        return { answer, changes: await changesOf(ready) }
      }),

    putFiles: (write, remove) =>
      attempt(async (ready) => {
        await ready.putFiles(write, remove)
        return changesOf(ready)
      }),

    listFiles: () => attempt((ready) => ready.listFiles()),

    async exportZip() {
      const zip = await attempt((ready) => ready.exportZip())
      // zipSync's buffer is its own, never shared, so it can move instead of being copied.
      return zip.ok ? transfer(zip, [zip.value.buffer as ArrayBuffer]) : zip
    },
  }
}
