/**
 * Bash worker side: what a `git push` to GitHub would send, worked out before anything is sent
 * — the remote, the branch, the commits GitHub lacks — so the page can ask the person first.
 * It reads the remote branch with one GET and sends no object. A push that is not a
 * fast-forward is refused here, in git's words.
 */

import git from 'isomorphic-git'
import type { IFileSystem } from 'just-bash/browser'
import { gitFs } from '../git-fs'
import { GithubError, githubApi, type GithubFetch } from './github-api'
import { headRefPath, type ApiRef, type GithubRepoInfo } from './github-clone'
import { githubUrl, type GithubRepo } from './github-url'

/** What planGithubPush and pushToGithub (and, with progress, pullFromGithub) are given: one branch of a work tree and its GitHub repository. */
export type GithubPushOptions = {
  fs: IFileSystem
  /** The work tree's top directory. */
  dir: string
  repo: GithubRepo
  /** The local branch to push; the current branch when absent. */
  branch?: string
  /** The branch on GitHub; the local branch's name when absent. */
  remoteBranch?: string
  fetch: GithubFetch
  signal?: AbortSignal
}

/** What a push would send; computed before anything is sent. */
export type GithubPushPlan = {
  /** `https://github.com/OWNER/REPO`. */
  remote: string
  branch: string
  remoteBranch: string
  localSha: string
  /** The branch's commit on GitHub, or null when the push creates it. */
  remoteSha: string | null
  /** Commits GitHub lacks, parents before children. */
  commits: Array<{ oid: string; subject: string }>
  /** Why git would refuse: 'fetch first' or 'non-fast-forward'; null when it may go. */
  rejected: 'fetch first' | 'non-fast-forward' | null
}

/** Commits reachable from `from`, parents first, not walking into `stop`, shallow boundaries or missing objects. */
export async function commitsSince(
  fsp: ReturnType<typeof gitFs>,
  dir: string,
  from: string,
  stop: Set<string>,
): Promise<Array<{ oid: string; parents: string[]; subject: string }>> {
  const shallow = await shallowCommits(fsp, dir)
  const seen = new Set<string>()
  const order: Array<{ oid: string; parents: string[]; subject: string }> = []
  // Depth-first with an explicit stack, emitting a commit once all its parents are emitted.
  const stack: Array<{ oid: string; expanded: boolean }> = [{ oid: from, expanded: false }]
  const info = new Map<string, { parents: string[]; subject: string }>()
  while (stack.length) {
    const top = stack.pop()!
    if (top.expanded) {
      order.push({ oid: top.oid, ...info.get(top.oid)! })
      continue
    }
    if (seen.has(top.oid) || stop.has(top.oid)) continue
    const read = await git.readCommit({ fs: fsp, dir, oid: top.oid }).catch(() => null)
    seen.add(top.oid)
    if (!read) continue
    const parents = shallow.has(top.oid) ? [] : read.commit.parent
    info.set(top.oid, { parents: read.commit.parent, subject: read.commit.message.split('\n')[0]! })
    stack.push({ oid: top.oid, expanded: true })
    for (const parent of [...parents].reverse()) stack.push({ oid: parent, expanded: false })
  }
  return order
}

async function shallowCommits(fsp: ReturnType<typeof gitFs>, dir: string): Promise<Set<string>> {
  const text = await fsp.promises.readFile(`${dir}/.git/shallow`, 'utf8').catch(() => '')
  return new Set(String(text).split('\n').filter(Boolean))
}

/** The commits of every `refs/remotes/origin/*`: GitHub has them and all they reach. */
async function remoteTips(fsp: ReturnType<typeof gitFs>, dir: string): Promise<Set<string>> {
  const names = await git.listBranches({ fs: fsp, dir, remote: 'origin' }).catch(() => [])
  const tips = await Promise.all(names.map((name) => git.resolveRef({ fs: fsp, dir, ref: `refs/remotes/origin/${name}` }).catch(() => null)))
  return new Set(tips.filter((t): t is string => t !== null))
}

/** The push's plan; throws a GithubError when GitHub cannot be read or the branch is missing. */
export async function planGithubPush(options: GithubPushOptions): Promise<GithubPushPlan> {
  const { fs, dir, repo } = options
  const fsp = gitFs(fs)
  const branch = options.branch ?? (await git.currentBranch({ fs: fsp, dir }))
  if (!branch) throw new GithubError('GITHUB_REFUSED', 'You are not currently on a branch.')
  const localSha = await git.resolveRef({ fs: fsp, dir, ref: `refs/heads/${branch}` }).catch(() => null)
  if (!localSha) throw new GithubError('GITHUB_REFUSED', `src refspec ${branch} does not match any`)
  const remoteBranch = options.remoteBranch ?? branch
  const api = githubApi(options.fetch, repo, options.signal)
  // The repository first, so a 404 means "private or misspelt" and not "new branch".
  await api.get<GithubRepoInfo>('')
  const remoteSha = (await api.getOrNull<ApiRef>(headRefPath(remoteBranch)))?.object.sha ?? null
  const plan: GithubPushPlan = { remote: githubUrl(repo), branch, remoteBranch, localSha, remoteSha, commits: [], rejected: null }
  if (remoteSha === localSha) return plan
  if (remoteSha !== null) {
    const known = await git.readCommit({ fs: fsp, dir, oid: remoteSha }).then(() => true, () => false)
    if (!known) return { ...plan, rejected: 'fetch first' }
    const reachable = await commitsSince(fsp, dir, localSha, new Set())
    if (!reachable.some((c) => c.oid === remoteSha)) return { ...plan, rejected: 'non-fast-forward' }
  }
  const stop = await remoteTips(fsp, dir)
  if (remoteSha) stop.add(remoteSha)
  const commits = await commitsSince(fsp, dir, localSha, stop)
  return { ...plan, commits: commits.map(({ oid, subject }) => ({ oid, subject })) }
}
