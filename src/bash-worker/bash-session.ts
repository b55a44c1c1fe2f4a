/**
 * Owns one just-bash shell over one in-memory file system and runs commands in it with the
 * workspace limits (size, time, output, abort), carrying the directory and variables from one
 * command to the next. Runs as is in Node for tests; in the browser, bash-worker.ts hosts it in
 * its own worker.
 */

import { Bash, defineCommand, type BashOptions } from 'just-bash/browser'
import type { ExecResult } from '../shared/protocol/workspace'
import { createChangeTracker, createSnapshotFs } from './fs-snapshot'
import { gitCommand } from './git/git-command'
import { fetchThroughHost, type GitHost } from '../shared/workspace/git/git-host'
import type { GhDeps } from './git/github/gh-command'
import { refuseSilentLimits } from './shell-limits'
import type { SnapshotDelta, SnapshotEntry } from '../shared/messages/bash-worker-api'
import {
  clampOutputLimit,
  clampTimeoutMs,
  emptyResult,
  finishResult,
  messageOf,
  refuseOversizedCommand,
  type StopReason,
  withoutStopLine,
} from '../shared/workspace/exec-result'
import { carriedVars, commandEnv } from './shell-state'
import type { SkippedUpload, UploadFile } from '../shared/messages/bash-worker-api'
import { listWorkspaceFiles, putWorkspaceFiles, writeWorkspaceFiles, zipWorkspace } from './workspace-files'
import { runFileTool, type FileToolRequest } from './file-tool-worker'
import type { FileOpAnswer } from '../shared/protocol/workspace-ops'
import { resolveWorkspacePath } from '../shared/workspace/workspace-paths'
import { codeCommands, type RemoteCodeRunner } from './code-commands'
import { createCommandClock, type CommandClock } from '../shared/workspace/command-clock'
import { deadlineSignal, pausingHost } from '../shared/workspace/question-pause'

/**
 * The workspace's just-bash limits. Time is the budget: just-bash's default caps of 100,000
 * loop iterations and commands end a legitimate loop long before 30 s, so they are lifted and
 * the deadline stops runaway loops instead. maxOutputSize is only a memory guard: reaching it
 * kills the script, so it sits far above the 64 KiB the model is shown (truncate-output.ts cuts
 * that, and says so).
 */
const WORKSPACE_LIMITS: NonNullable<BashOptions['executionLimits']> = {
  maxCommandCount: 1e9,
  maxLoopIterations: 1e9,
  maxOutputSize: 256 * 1024 * 1024,
}

export type BashSessionOptions = {
  /** Initial files (absolute paths), e.g. the seed files or a snapshot to restore. */
  entries?: Iterable<[string, SnapshotEntry]>
  /** The workspace root, created if missing; relative paths are taken from it. */
  root?: string
  /** $HOME, created if missing. */
  home?: string
  env?: Record<string, string>
  /** Shell variables carried over from a previous session (after a restart); replaces `env`. */
  vars?: Record<string, string>
  /** Overrides the workspace's just-bash execution limits. */
  executionLimits?: BashOptions['executionLimits']
  /** Runs `node` and `python3` (the page's sandbox); without it they say they are not available. */
  codeRunner?: RemoteCodeRunner
  /** The page's side of `git`: push approval and GitHub requests; without it pushes are refused. */
  gitHost?: GitHost
}

/** One command to run. Like the adapter's ExecInput, but the signal is optional. */
export type SessionExecInput = {
  command: string
  cwd: string
  timeoutMs: number
  outputLimitBytes: number
  signal?: AbortSignal
  /** Lines for stderr from the caller (e.g. a failed seed download), kept within the limit. */
  notes?: readonly string[]
  /** The output goes to the person's terminal (a `!command`): FXTERM_TTY=1, and git colours it. */
  tty?: boolean
}

export type BashSession = {
  /** Runs one command; never throws. Files, the directory and variables persist between commands. */
  exec(input: SessionExecInput): Promise<ExecResult>
  /** A file's text, or null when it does not exist or is not a file. */
  readFile(path: string): Promise<string | null>
  /** What the commands changed since the last call (see fs-snapshot.ts). */
  changes(): Promise<SnapshotDelta>
  /** The variables the next command starts with. */
  vars(): Record<string, string>
  /** Writes files under the root (paths checked by planUploads). */
  writeFiles(files: readonly UploadFile[]): Promise<{ written: string[]; skipped: SkippedUpload[] }>
  /** Runs a file tool call (read_file, write_file, edit_file) on the session's files. */
  fileTool(request: FileToolRequest): Promise<FileOpAnswer>
  /** Writes and removes files by absolute path (/undo). */
  putFiles(write: ReadonlyArray<readonly [string, string | Uint8Array]>, remove: readonly string[]): Promise<void>
  /** Every file under the root, relative and sorted. */
  listFiles(): Promise<string[]>
  /** The root as a zip. */
  exportZip(): Promise<Uint8Array>
}

/** Creates a session; its file system holds `entries` plus the root, home and /tmp. */
/** just-bash's parse of a command (the browser build exports no parser of its own), or null. */
function parsed(bash: Bash, command: string): unknown {
  try {
    return bash.transform(command).ast
  } catch {
    return null
  }
}

export async function createBashSession(options: BashSessionOptions = {}): Promise<BashSession> {
  const root = options.root ?? '/workspace'
  const home = options.home ?? '/home/user'
  const fs = await createSnapshotFs(options.entries ?? [], [root, home, '/tmp'])
  const env = { ...options.env, HOME: home }
  const limits = { ...WORKSPACE_LIMITS, ...options.executionLimits }
  // The running command's clock: a question to the person (the push dialog) stops it.
  let clock: CommandClock | null = null
  const gitHost = options.gitHost ? pausingHost(options.gitHost, () => clock) : undefined
  const customCommands = [...codeCommands(options.codeRunner, root), gitCommand(root, gitHost), lazyGh(root, ghDeps(gitHost))]

  // The time limit is the command clock's, not just-bash's (whose deadline cannot stop while a
  // question is open: it races every command against the time left when it started). A busy
  // `while true` loop never yields to the event loop, so no timer can reach it; just-bash reads
  // its signal's `aborted` between statements, and that reads the clock (deadlineSignal).
  const bash = new Bash({ fs, cwd: root, env, executionLimits: { ...limits, maxExecutionTimeMs: Number.POSITIVE_INFINITY }, customCommands })
  // Creates just-bash's generated trees before the tracker's first look, and gives the env a
  // fresh shell starts with (HOME, PATH, IFS, ...).
  const baseEnv = bash.getEnv()
  let vars = options.vars ?? carriedVars(baseEnv)
  const tracker = await createChangeTracker(fs)

  /** `cwd` resolved, or the root plus a note when that directory is gone. */
  async function startDirectory(cwd: string): Promise<{ cwd: string; note: string | null }> {
    const requested = resolveWorkspacePath(cwd, root)
    const stat = await fs.stat(requested).catch(() => null)
    if (stat?.isDirectory) return { cwd: requested, note: null }
    return { cwd: root, note: `fxterm: ${requested} no longer exists, so the command ran in ${root}` }
  }

  async function exec(input: SessionExecInput): Promise<ExecResult> {
    const timeoutMs = clampTimeoutMs(input.timeoutMs)
    const start = await startDirectory(input.cwd)
    const notes = [...(input.notes ?? []), ...(start.note ? [start.note] : [])]
    const refused =
      refuseOversizedCommand(input.command, start.cwd) ?? refuseSilentLimits(parsed(bash, input.command), start.cwd)
    if (refused) return refused
    let cwdAfter = start.cwd
    const finish = (raw: ExecResult, stop: StopReason) =>
      finishResult(raw, { stop, notes, cwd: cwdAfter, timeoutMs, outputLimitBytes: clampOutputLimit(input.outputLimitBytes) })
    if (input.signal?.aborted) return finish(emptyResult(0), 'cancel')

    let stop: StopReason = null
    const controller = new AbortController()
    const onCancel = () => {
      stop ??= 'cancel'
      controller.abort()
    }
    input.signal?.addEventListener('abort', onCancel, { once: true })
    // Its timer stops commands that wait (sleep, reads); busy loops see deadlineSignal instead.
    const running = createCommandClock({
      limitMs: timeoutMs,
      expire: () => {
        stop ??= 'timeout'
        controller.abort()
      },
    })
    clock = running
    let raw: ExecResult
    let after: Record<string, string> | null = null
    try {
      const result = await bash.exec(input.command, {
        cwd: start.cwd,
        // The whole env, so that a variable unset by the previous command stays unset.
        env: { ...commandEnv(vars, baseEnv, start.cwd), ...(input.tty ? { FXTERM_TTY: '1' } : {}) },
        replaceEnv: true,
        signal: deadlineSignal(controller.signal, running),
        rawScript: true, // run the command exactly as written (no trimming of indentation)
      })
      raw = { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode }
      after = result.env
    } catch (error) {
      // Errors just-bash throws instead of answering (a file system budget, a bug) become results.
      raw = { stdout: '', stderr: `fxterm: ${messageOf(error)}\n`, exitCode: 1 }
    } finally {
      running.stop()
      clock = null
      input.signal?.removeEventListener('abort', onCancel)
    }
    // A busy loop stopped between statements (deadlineSignal) fails with no timer having fired.
    if (stop === null && raw.exitCode !== 0 && running.expired()) stop = 'timeout'
    // A stopped command leaves the shell as it was, like Ctrl+C in a real one. (On its error
    // paths just-bash answers with the env it was given, so those keep the state too.)
    if (stop === null && after) {
      vars = carriedVars(after)
      cwdAfter = after.PWD ?? start.cwd
    }
    if (stop !== null) raw = { ...raw, stderr: withoutStopLine(raw.stderr) }
    return finish(raw, stop)
  }

  async function readFile(path: string): Promise<string | null> {
    try {
      return await fs.readFile(resolveWorkspacePath(path, root))
    } catch {
      return null
    }
  }

  return {
    exec,
    readFile,
    changes: () => tracker.changes(),
    vars: () => ({ ...vars }),
    writeFiles: (files) => writeWorkspaceFiles(fs, root, files),
    putFiles: (write, remove) => putWorkspaceFiles(fs, write, remove),
    fileTool: (request) => runFileTool(fs, root, request),
    listFiles: () => listWorkspaceFiles(fs, root),
    exportZip: () => zipWorkspace(fs, root),
  }
}

/** gh's way to GitHub and to the person: the page's, or a refusal in words without a page. */
function ghDeps(host: GitHost | undefined): GhDeps {
  if (!host) return { fetch: () => Promise.reject(new Error('this workspace has no page to reach GitHub from')), approve: () => Promise.resolve(false) }
  return {
    fetch: fetchThroughHost(host),
    approve: (request) =>
      host.approvePush({ remote: 'origin', url: request.url, branch: request.head, base: request.base, title: request.title, newBranch: false, commits: [], action: 'pull request' }),
  }
}

/** `gh`, loaded (with isomorphic-git) on its first use, as git's subcommands are. */
function lazyGh(root: string, deps: GhDeps) {
  return defineCommand('gh', async (args, ctx) => (await import('./git/github/gh-command')).runGh(args, ctx, root, deps))
}
