/**
 * What crosses between the page and the bash worker (comlink): the worker's API and the values it
 * takes and answers. Every method returns a value, never throws: comlink would keep only an error's
 * name and message. The worker's side is src/bash-worker/worker-api.ts.
 */

import type { GitHost } from '../workspace/git/git-host'
import type { ExecResult } from '../protocol/workspace'
import type { CodeRunReply, RunRequest } from '../sandbox/runtime-types'
import type { FileOpAnswer } from '../protocol/workspace-ops'

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

/** One file system entry, in a form that can cross a worker boundary (structured clone). */
export type SnapshotEntry =
  | { kind: 'file'; content: string | Uint8Array; mode?: number; mtimeMs?: number }
  | { kind: 'dir'; mode?: number; mtimeMs?: number }
  | { kind: 'symlink'; target: string }

/** What changed since the last report: entries added or modified, and paths that are gone. */
export type SnapshotDelta = { changed: Array<[string, SnapshotEntry]>; removed: string[] }

/** A file to write: `path` relative to the workspace root. */
export type UploadFile = { path: string; data: Uint8Array }

/** A file that was not written, and why. */
export type SkippedUpload = { path: string; reason: string }

/** A file tool call as the engine sends it (workspace op `file`). */
export type FileToolRequest = { name: string; arguments: string; cwd: string; apply: boolean }

/** The page's runner as the bash worker sees it over comlink. */
export type RemoteCodeRunner = {
  run(id: number, request: RunRequest): Promise<CodeRunReply>
  cancel(id: number): unknown
}
