/**
 * The options of `createBashWorkspace()` and what it returns: the reference workspace adapter,
 * plus what fxterm uses beyond the contract (files, sessions, folders, the sandbox's progress).
 */
import type { ExecInput, ExecResult, WorkspaceAdapter } from '../../shared/protocol/workspace'
import type { WorkspaceOpAnswer, WorkspaceOpRequest } from '../../shared/protocol/workspace-ops'
import type { CodeRunner } from '../../shared/sandbox/runtime-types'
import type { SessionChange } from './session-files'
import type { PageGitHostOptions } from './page-git-host'
import type { SkippedUpload, UploadFile } from './upload-plan'

export type BashWorkspaceOptions = {
  /** Seed files: paths relative to the root, or absolute; contents as text. */
  files?: Record<string, string>
  /**
   * More seed files, fetched on first use: a JSON manifest `{ "files": { "path": "content" } }`
   * or a zip (by content-type or its `PK\x03\x04` magic). On a path in both, `files` wins. A
   * failed download is reported on the first command's stderr; the workspace works without it.
   */
  filesUrl?: string
  /** The fetch for `filesUrl` (default: globalThis.fetch). */
  fetch?: typeof fetch
  /** The workspace root and initial directory (default '/workspace'). */
  cwd?: string
  /** Extra environment variables (HOME is always /home/user). */
  env?: Record<string, string>
  /** How long a stopped command may keep running before its worker is terminated (default 1 s). */
  graceMs?: number
  /**
   * Keeps the files with each saved session, in the Origin Private File System where the page
   * can write there, in IndexedDB elsewhere (both `<namespace>-files`): the page tells the
   * workspace which session is current (`useSession`). Off by default; the static page and
   * `<fx-terminal>` turn it on.
   */
  persist?: { namespace: string }
  /**
   * Runs `node` and `python3`. In a page the default is fxterm's sandbox (an opaque-origin iframe,
   * loaded on first use); elsewhere (a worker, Node) there is none and they say so. Tests pass
   * their own; `false` turns them off.
   */
  codeRunner?: CodeRunner | false
  /**
   * The page's side of `git`: who approves a push (in a page the default is fxterm's push
   * dialog; elsewhere pushes are declined) and the GitHub token for a request, read at each
   * request and attached only for GitHub's own hosts. `false`: git gets no host at all.
   */
  git?: PageGitHostOptions | false
}

/**
 * {@link BashWorkspaceOptions} plus the seams tests use; not public (src/index.ts exports
 * `createBashWorkspace`, which takes `BashWorkspaceOptions` only).
 */
export type BashWorkspaceSeamOptions = Omit<BashWorkspaceOptions, 'persist'> & {
  /** Creates the bash worker; the default is the bundled bash-worker.ts. Tests run theirs in-process. */
  worker?: () => Worker
  /** `indexedDB` picks IndexedDB on that factory, `opfs` the OPFS store on that directory. */
  persist?: { namespace: string; indexedDB?: IDBFactory; opfs?: () => Promise<FileSystemDirectoryHandle> }
}

/** The workspace adapter, plus what fxterm uses beyond the reference contract. */
export type BashWorkspace = WorkspaceAdapter & {
  /** Never throws: failures are results. The result's `cwd` is the shell's directory after it. */
  exec(input: ExecInput): Promise<ExecResult>
  /** The run_command tool description for this workspace (tool-description.ts). */
  toolDescription: string
  /** A file's text (path relative to the root, or absolute); null if none, on abort or after 10 s. */
  readFile(input: { path: string; signal?: AbortSignal }): Promise<string | null>
  /** Writes files (paths relative to the root, parents created); ≤ 50 MB per call. */
  writeFiles(files: UploadFile[]): Promise<{ written: string[]; skipped: SkippedUpload[] }>
  /** Every file under the root, relative to it and sorted. */
  listFiles(): Promise<string[]>
  /** The root as a zip, paths relative to it. */
  exportZip(): Promise<Uint8Array>
  /** The text files it started with (seed files and the fetched ones), relative to the root. */
  seedFiles(): Promise<Record<string, string>>
  /** The file tools, /diff and /undo (workspace-ops.ts); never rejects. */
  workspaceOp(request: WorkspaceOpRequest): Promise<WorkspaceOpAnswer | null>
  /** Makes `id` the current session (with `persist`): its stored files come back, or the seed for `new`. */
  useSession(id: string, how: SessionChange): Promise<void>
  /** Removes a session's stored files (with `persist`). */
  forgetSession(id: string): Promise<void>
  /** Resolves when every change so far is stored (with `persist`) and written to an opened folder. */
  persisted(): Promise<void>
  /** Makes a folder (File System Access API) the workspace: its files are read in and every change is written back. Answers the line to show. */
  openFolder(dir: FileSystemDirectoryHandle): Promise<string>
  /**
   * Starts the code sandbox and restores Python there ahead of a first `python3` (a page calls it
   * once idle after its first prompt), so that run does not wait for the load. Settles once
   * Python is loaded, or cannot be.
   */
  preparePython(): Promise<void>
  /**
   * Starts the shell ahead of a first command (a page calls it once idle after its first
   * prompt): its start (just-bash loaded and evaluated, the files seeded) would otherwise be
   * that command's, about a second on a busy machine. Settles once the shell is up, or failed.
   */
  prepareShell(): Promise<void>
  /** Lines to show: `activity` while a command prepares (Python's first load), `notice` in the transcript. */
  onProgress(listener: (line: string, kind: 'activity' | 'notice') => void): () => void
  /** Terminates the worker; later calls fail (exec), return null (readFile) or reject. */
  dispose(): void
}
