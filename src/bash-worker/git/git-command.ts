/**
 * Bash worker side: the `git` shell command. isomorphic-git does the work on the workspace's
 * files in this worker (never on the page thread); this file reads git's global options, finds
 * the repository, and hands the rest to one subcommand from git-subcommands.ts.
 */

import { defineCommand, type Command, type ResolvedCommandContext } from 'just-bash/browser'
import { fail, fatal, type GitContext, type GitOutput, type GitSession } from './git-context'
import { gitFs } from './git-fs'
import { describeGitError } from './repo-errors'
import type { GitHost } from '../../shared/workspace/git/git-host'
import { joinPath } from './git-paths'

/**
 * The subcommands, with isomorphic-git behind them, load on the first `git` of a worker: a shell
 * that never runs git does not parse them before its first command.
 */
const loadSubcommands = () => import('./git-subcommands').then((module) => module.GIT_SUBCOMMANDS)

const usage = (names: string[]) => `usage: git [-C <path>] [-c <name>=<value>] <command> [<args>]

fxterm's git (isomorphic-git, in this tab). Commands:
   ${names.sort().join(' ')}
`

export const GIT_VERSION_LINE = 'git version 2.39.0 (fxterm, isomorphic-git)\n'

export function gitCommand(root: string, host?: GitHost): Command {
  const session: GitSession = { said: new Set() }
  return defineCommand('git', (args, ctx) => runGit(args, ctx, root, session, host))
}

export async function runGit(
  args: string[],
  shell: ResolvedCommandContext,
  root: string,
  session: GitSession = { said: new Set() },
  host?: GitHost,
): Promise<GitOutput> {
  let cwd = shell.cwd
  const configOverrides: Record<string, string> = {}
  let i = 0
  for (; i < args.length; i++) {
    const arg = args[i]!
    if (arg === '-C') {
      const path = args[++i]
      if (path === undefined) return fail('error: switch `C\' requires a value', 129)
      cwd = shell.fs.resolvePath(cwd, path)
    } else if (arg === '-c') {
      const pair = args[++i]
      if (pair === undefined) return fail('error: switch `c\' requires a value', 129)
      const eq = pair.indexOf('=')
      configOverrides[eq === -1 ? pair : pair.slice(0, eq)] = eq === -1 ? 'true' : pair.slice(eq + 1)
    } else if (arg === '--version' || arg === 'version') return { stdout: GIT_VERSION_LINE, stderr: '', exitCode: 0 }
    else if (arg === '--help' || arg === '-h' || arg === 'help') return { stdout: usage(Object.keys(await loadSubcommands())), stderr: '', exitCode: 0 }
    else if (arg === '--no-pager' || arg === '--no-optional-locks') continue
    else if (arg.startsWith('-')) return fail(`git: option ${arg} is not supported in fxterm's git`)
    else break
  }
  const name = args[i]
  const subcommands = await loadSubcommands()
  if (name === undefined) return { stdout: '', stderr: usage(Object.keys(subcommands)), exitCode: 1 }
  const subcommand = Object.hasOwn(subcommands, name) ? subcommands[name] : undefined
  if (!subcommand) return fail(`git: '${name}' is not a git command fxterm's git knows. See 'git --help'.`)
  if (!(await isDirectory(shell, cwd))) return fatal(`cannot change to '${cwd}': No such file or directory`)
  const dir = await findWorkTree(shell, cwd)
  if (subcommand.needsRepo && dir === null) return fatal('not a git repository (or any of the parent directories): .git')
  const env = Object.fromEntries(shell.exportedEnv ? Object.entries(shell.exportedEnv) : shell.env)
  const ctx: GitContext = {
    fs: shell.fs,
    gitFs: gitFs(shell.fs),
    cwd,
    root,
    dir,
    gitdir: dir === null ? null : joinPath(dir, '.git'),
    env,
    configOverrides,
    // FXTERM_TTY is fxterm's own word that the output is the person's terminal: bash-session.ts
    // sets it, unexported, for a `!command`, so it counts whether exported or not.
    color: (env.FXTERM_TTY ?? shell.env.get('FXTERM_TTY')) === '1' && env.NO_COLOR === undefined,
    nowSeconds: () => Math.floor(Date.now() / 1000),
    ...(shell.signal ? { signal: shell.signal } : {}),
    stdin: typeof shell.stdin === 'string' ? shell.stdin : '',
    session,
    ...(host ? { host } : {}),
  }
  try {
    return await subcommand.run(args.slice(i + 1), ctx)
  } catch (error) {
    return fatal(describeGitError(error))
  }
}

async function isDirectory(shell: ResolvedCommandContext, path: string): Promise<boolean> {
  return (await shell.fs.stat(path).catch(() => null))?.isDirectory ?? false
}

/** The nearest directory at or above `cwd` holding a `.git` directory. */
async function findWorkTree(shell: ResolvedCommandContext, cwd: string): Promise<string | null> {
  let dir = cwd
  for (;;) {
    if (await isDirectory(shell, joinPath(dir, '.git'))) return dir
    if (dir === '/') return null
    dir = dir.slice(0, dir.lastIndexOf('/')) || '/'
  }
}
