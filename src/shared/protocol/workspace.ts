import type { WorkspaceOpAnswer, WorkspaceOpRequest } from './workspace-ops'

/**
 * The workspace contract from the reference host contract (browser-integration.md), plus the
 * limits docs/ARCHITECTURE.md ("Limits") shares between engine and host.
 */

export const COMMAND_MAX_BYTES = 64 * 1024
export const OUTPUT_LIMIT_BYTES = 64 * 1024
export const COMMAND_TIMEOUT_MS = 30_000

/** Version 1 workspace info; validated by `validateWorkspaceInfo`. */
export type WorkspaceInfo = {
  version: 1
  root: string
  cwd: string
  home: string
  gitAvailable: false
  ephemeral: true
  /**
   * fxterm's extension beyond version 1 (optional; other adapters leave it out). `git: true`
   * declares that the shell has a `git` command of its own (fxterm's built-in workspace does:
   * isomorphic-git in its bash worker); `gitAvailable` stays false, as version 1 requires.
   */
  extensions?: { git?: boolean }
}

export type ExecInput = {
  command: string
  cwd: string
  signal: AbortSignal
  timeoutMs: number
  outputLimitBytes: number
  /**
   * fxterm's extension: the output goes to the person's terminal (their `!command`), not to the
   * model, so it may be coloured as on a terminal (fxterm's workspace sets FXTERM_TTY=1, and its
   * git colours diff, status and log). Absent for the model's commands; other adapters ignore it.
   */
  tty?: boolean
}

/**
 * The reference result, plus what fxterm's own bash workspace adds: `cwd`, the shell's working
 * directory after the command (so `cd` carries over to the next command the way one shell
 * session would). Other adapters may omit it; the engine then keeps the previous directory.
 */
export type ExecResult = { stdout: string; stderr: string; exitCode: number; cwd?: string }

/** The app-supplied workspace adapter (reference contract). */
export type WorkspaceAdapter = {
  info: WorkspaceInfo
  permission: 'allow-sandboxed' | 'prompt'
  exec(input: ExecInput): ExecResult | Promise<ExecResult>
}

/**
 * What a workspace may offer beyond the reference contract; fxterm uses each one it finds
 * (createBashWorkspace has them all): AGENTS.md, /files, /download, drag-and-drop uploads.
 */
export type WorkspaceExtras = {
  toolDescription?: string
  readFile?(input: { path: string; signal?: AbortSignal }): Promise<string | null>
  listFiles?(): Promise<string[]>
  exportZip?(): Promise<Uint8Array>
  /** The text files the workspace started with (for /export tape), relative to its root. */
  seedFiles?(): Promise<Record<string, string>>
  writeFiles?(files: Array<{ path: string; data: Uint8Array }>): Promise<{ written: string[]; skipped: Array<{ path: string; reason: string }> }>
  /** The file tools, /diff and /undo (src/shared/protocol/workspace-ops.ts); with it the model gets read_file, write_file and edit_file. */
  workspaceOp?(request: WorkspaceOpRequest): Promise<WorkspaceOpAnswer | null>
  /**
   * The session now current, and how it became so (a resume, another tab's, /new, a fork): a
   * workspace that keeps files per session brings that session's files back.
   */
  useSession?(id: string, how: 'open' | 'read-only' | 'new' | 'fork'): Promise<void>
  /** A session was removed: its stored files go too. */
  forgetSession?(id: string): Promise<void>
  /** `/open`: the workspace becomes this folder; answers the line to show. */
  openFolder?(dir: FileSystemDirectoryHandle): Promise<string>
  /**
   * Lines to show: `activity` ones while a command prepares (Python's first load), in the
   * activity row; `notice` ones in the transcript. Answers the unsubscribe.
   */
  onProgress?(listener: (line: string, kind: 'activity' | 'notice') => void): () => void
}
