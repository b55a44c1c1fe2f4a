/**
 * Bash worker side: `git clone`, `pull` and `push` for https://github.com/OWNER/REPO remotes,
 * through GitHub's REST API (github/), which allows browser pages where GitHub's git endpoints
 * do not. The requests go through the page (ctx.host), which attaches the person's token; a
 * push asks the person first, as every push does.
 */

import { fail, fatal, ok, type GitContext, type GitOutput } from './git-context'
import { fetchThroughHost, type PushPlan } from '../../shared/workspace/git/git-host'
import { cloneFromGithub } from './github/github-clone'
import { GithubError, type GithubFetch } from './github/github-api'
import { pullFromGithub } from './github/github-pull'
import { planGithubPush } from './github/github-push-plan'
import { pushToGithub } from './github/github-push'
import { githubUrl, type GithubRepo } from './github/github-url'
import { lfsWarning } from './repo-errors'

const NO_PAGE = 'fatal: GitHub is reached through the page, and this workspace has no page'

function githubFetch(ctx: GitContext): GithubFetch | null {
  return ctx.host ? fetchThroughHost(ctx.host) : null
}

function failure(error: unknown): GitOutput {
  if (error instanceof GithubError) return fatal(error.message)
  throw error
}

export async function cloneGithub(ctx: GitContext, repo: GithubRepo, target: string, branch: string | undefined, cloning: string): Promise<GitOutput> {
  const fetch = githubFetch(ctx)
  if (!fetch) return fail(`${cloning}${NO_PAGE}`, 128)
  try {
    await cloneFromGithub({ fs: ctx.fs, dir: target, repo, fetch, ...(branch ? { branch } : {}), ...(ctx.signal ? { signal: ctx.signal } : {}) })
    return ok('', `${cloning}${lfsWarning(await ctx.fs.readFile(`${target}/.gitattributes`).catch(() => null))}`)
  } catch (error) {
    const out = failure(error)
    return { ...out, stderr: `${cloning}${out.stderr}` }
  }
}

export async function pullGithub(ctx: GitContext, repo: GithubRepo, branch: string, remoteBranch: string): Promise<GitOutput> {
  const fetch = githubFetch(ctx)
  if (!fetch) return fail(NO_PAGE, 128)
  try {
    const pulled = await pullFromGithub({ fs: ctx.fs, dir: ctx.dir!, repo, branch, remoteBranch, fetch, ...(ctx.signal ? { signal: ctx.signal } : {}) })
    return { stdout: pulled.stdout, stderr: pulled.stderr, exitCode: pulled.exitCode }
  } catch (error) {
    return failure(error)
  }
}

/** A push to GitHub: planned without sending, refused as git refuses, asked, then sent. */
export async function pushGithub(ctx: GitContext, remote: string, repo: GithubRepo, branch: string, remoteBranch: string): Promise<GitOutput> {
  const fetch = githubFetch(ctx)
  if (!fetch || !ctx.host) return fail(NO_PAGE, 128)
  const options = { fs: ctx.fs, dir: ctx.dir!, repo, branch, remoteBranch, fetch, ...(ctx.signal ? { signal: ctx.signal } : {}) }
  try {
    const plan = await planGithubPush(options)
    if (!plan.rejected && plan.commits.length > 0) {
      const asked: PushPlan = {
        remote,
        url: githubUrl(repo),
        branch: plan.remoteBranch,
        newBranch: plan.remoteSha === null,
        commits: [...plan.commits].reverse(),
        action: 'push',
      }
      if (!(await ctx.host.approvePush(asked))) return declined(githubUrl(repo))
    }
    const pushed = await pushToGithub(options, plan)
    return { stdout: '', stderr: pushed.output, exitCode: pushed.exitCode }
  } catch (error) {
    return failure(error)
  }
}

/** What a push the person said no to answers (and so what the model reads). */
export function declined(url: string): GitOutput {
  return fail(`error: the person declined this push, so nothing was sent to '${url}'`, 1)
}
