/**
 * Bash worker side: what every `git` subcommand is handed, and what it hands back. One
 * subcommand lives in one file under subcommands/, registered in git-subcommands.ts.
 */

import type { IFileSystem } from 'just-bash/browser'
import type { GitFsPromises } from './git-fs'
import type { GitHost } from '../../shared/workspace/git/git-host'

export type GitOutput = { stdout: string; stderr: string; exitCode: number }

/** What lives as long as the shell session, not one command (per `gitCommand`). */
export type GitSession = {
  /** Notices already printed in this session, by key: each is said once. */
  said: Set<string>
}

export type GitContext = {
  /** The workspace's file system as just-bash has it. */
  fs: IFileSystem
  /** The same, in the shape isomorphic-git takes (`{ fs: ctx.gitFs }`). */
  gitFs: { promises: GitFsPromises }
  /** Absolute directory the command runs in (after `-C`). */
  cwd: string
  /** The workspace root (`/workspace`). */
  root: string
  /** The work tree's top directory, or null outside a repository. */
  dir: string | null
  /** `dir`'s `.git`, or null outside a repository. */
  gitdir: string | null
  /** The shell's environment (GIT_AUTHOR_NAME, GIT_AUTHOR_DATE, ... are read from here). */
  env: Record<string, string>
  /** `-c name=value` pairs given before the subcommand, as git config overrides. */
  configOverrides: Record<string, string>
  /** True when the output goes to the person's terminal: colour it as git does. */
  color: boolean
  /** Seconds since the epoch, for commit times when GIT_*_DATE is not set. */
  nowSeconds(): number
  signal?: AbortSignal
  stdin: string
  session: GitSession
  /** The page's side (push approval, GitHub with the token); absent in a worker without a page. */
  host?: GitHost
}

export type GitSubcommand = {
  /** Runs with the arguments after the subcommand's name. */
  run(args: string[], ctx: GitContext): Promise<GitOutput>
  /** Whether the subcommand needs a repository (git's "not a git repository" when missing). */
  needsRepo: boolean
}

export function ok(stdout = '', stderr = ''): GitOutput {
  return { stdout, stderr, exitCode: 0 }
}

export function fail(stderr: string, exitCode = 1): GitOutput {
  return { stdout: '', stderr: stderr.endsWith('\n') ? stderr : `${stderr}\n`, exitCode }
}

/** git's fatal line (exit 128), as git prints it. */
export function fatal(message: string): GitOutput {
  return fail(`fatal: ${message}`, 128)
}

/** The one line an option or subcommand we don't do gets (exit 1, never a silent no-op). */
export function unsupported(what: string): GitOutput {
  return fail(`git: ${what} is not supported in fxterm's git`)
}
