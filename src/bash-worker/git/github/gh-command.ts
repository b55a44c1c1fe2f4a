/**
 * Bash worker side: the `gh` shell command, as far as a model reaches for it here: `gh pr
 * create` opens a pull request on the GitHub repository that is the work tree's `origin`, from
 * its current (pushed) branch, through the REST API, and prints the pull request's URL. Every
 * other gh subcommand says in one line that it is not supported. The GitHub fetch (which
 * carries the person's token) comes from the caller.
 */

import git from 'isomorphic-git'
import { defineCommand, type Command, type ResolvedCommandContext } from 'just-bash/browser'
import { parseArgs, has, value } from '../git-args'
import { gitFs } from '../git-fs'
import { GithubError, githubApi, type GithubFetch } from './github-api'
import { headRefPath, type ApiRef, type GithubRepoInfo } from './github-clone'
import { githubUrl, parseGithubRepo, parseGithubUrl } from './github-url'

/** What gh needs from outside: the fetch that reaches GitHub with the person's token. */
export type GhDeps = {
  fetch: GithubFetch
  /** Asked before the pull request is opened (the person's approval); false cancels it. */
  approve?: (request: { url: string; head: string; base: string; title: string }) => Promise<boolean>
}

type Output = { stdout: string; stderr: string; exitCode: number }

const fail = (line: string, exitCode = 1): Output => ({ stdout: '', stderr: `${line}\n`, exitCode })

/** What `gh --version` prints. */
export const GH_VERSION_LINE = 'gh version 2.40.0 (fxterm: gh pr create only)\n'

/** The command; `root` is the workspace root (unused by gh today, kept for the shared shape). */
export function ghCommand(root: string, deps: GhDeps): Command {
  return defineCommand('gh', (args, ctx) => runGh(args, ctx, root, deps))
}

/** Runs one `gh` line; answers as the shell prints it. */
export async function runGh(args: string[], shell: ResolvedCommandContext, _root: string, deps: GhDeps): Promise<Output> {
  const [group, action] = args
  if (group === '--version' || group === 'version') return { stdout: GH_VERSION_LINE, stderr: '', exitCode: 0 }
  if (group === 'auth') return fail('gh auth is not supported in fxterm: the person saves a GitHub token with /key github')
  if (group !== 'pr' || action !== 'create')
    return fail(`gh: '${['gh', ...args.slice(0, 2)].join(' ')}' is not supported in fxterm (only gh pr create)`)
  try {
    return await prCreate(args.slice(2), shell, deps)
  } catch (error) {
    if (error instanceof GithubError) return fail(`pull request create failed: ${error.message}`)
    throw error
  }
}

async function prCreate(args: string[], shell: ResolvedCommandContext, deps: GhDeps): Promise<Output> {
  const parsed = parseArgs(args, {
    booleans: { '--draft': 'draft', '-d': 'draft', '--fill': 'fill', '-f': 'fill' },
    values: { '--title': 'title', '-t': 'title', '--body': 'body', '-b': 'body', '--base': 'base', '-B': 'base', '--head': 'head', '-H': 'head', '--repo': 'repo', '-R': 'repo', '--body-file': 'bodyFile', '-F': 'bodyFile' },
  })
  if (parsed.unknown) return fail(`gh pr create: ${parsed.unknown} is not supported in fxterm`)
  if (parsed.positional.length) return fail(`gh pr create: unexpected argument '${parsed.positional[0]}'`)
  const fsp = gitFs(shell.fs)
  const dir = await git.findRoot({ fs: fsp, filepath: shell.cwd }).catch(() => null)
  if (!dir) return fail('could not determine current branch: not a git repository (or any of the parent directories): .git')

  const named = value(parsed, 'repo')
  const origin = await git.getConfig({ fs: fsp, dir, path: 'remote.origin.url' })
  const repo = named !== undefined ? parseGithubRepo(named) : typeof origin === 'string' ? parseGithubUrl(origin) : null
  if (!repo) return fail(`gh: ${named ?? "this repository's origin"} is not a https://github.com/OWNER/REPO repository`)

  let title = value(parsed, 'title')
  let body = value(parsed, 'body')
  const bodyFile = value(parsed, 'bodyFile')
  if (bodyFile !== undefined) body = await shell.fs.readFile(shell.fs.resolvePath(shell.cwd, bodyFile))
  if (has(parsed, 'fill') && (title === undefined || body === undefined)) {
    // gh's --fill: the commit's subject and body.
    const [last] = await git.log({ fs: fsp, dir, depth: 1 })
    const [subject = '', ...rest] = (last?.commit.message ?? '').split('\n')
    title ??= subject
    body ??= rest.join('\n').trim()
  }
  if (title === undefined || body === undefined) return fail('must provide `--title` and `--body` (or `--fill`) when not running interactively')

  const head = value(parsed, 'head') ?? (await git.currentBranch({ fs: fsp, dir }))
  if (!head) return fail('could not determine the current branch: HEAD is detached; use --head')
  const api = githubApi(deps.fetch, repo, shell.signal)
  const base = value(parsed, 'base') ?? (await api.get<GithubRepoInfo>('')).default_branch
  if (!head.includes(':') && !(await api.getOrNull<ApiRef>(headRefPath(head))))
    return fail(`aborted: you must first push the current branch to a remote, or use the --head flag`)
  if (deps.approve && !(await deps.approve({ url: githubUrl(repo), head, base, title })))
    return fail('pull request create cancelled: the person declined it')
  const pull = await api.post<{ html_url: string }>('/pulls', { title, body, head, base, ...(has(parsed, 'draft') ? { draft: true } : {}) })
  return {
    stdout: `${pull.html_url}\n`,
    stderr: `\nCreating ${has(parsed, 'draft') ? 'draft ' : ''}pull request for ${head} into ${base} in ${repo.owner}/${repo.repo}\n\n`,
    exitCode: 0,
  }
}
