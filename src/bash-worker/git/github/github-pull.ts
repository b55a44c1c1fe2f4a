/**
 * Bash worker side: `git pull` of a branch cloned from GitHub, through its API. The commits
 * GitHub has beyond ours are fetched one by one (walking parents back to a commit we hold),
 * each with its tree and the blobs we lack, with the ids checked as in the clone. Then the
 * branch is fast-forwarded; a diverged branch or local changes in the way are refused, with
 * the remote-tracking branch updated as `git fetch` would.
 */

import git from 'isomorphic-git'
import { gitFs } from '../git-fs'
import { GithubError, githubApi } from './github-api'
import { headRefPath, type ApiRef } from './github-clone'
import { fetchCommit, localObjects } from './github-objects'
import { commitsSince, type GithubPushOptions } from './github-push-plan'
import { githubUrl } from './github-url'

/** A pull of more new commits than this is refused: each costs API requests (60 an hour without a token). */
export const GITHUB_PULL_MAX_COMMITS = 100

/** What pullFromGithub is given. */
export type GithubPullOptions = GithubPushOptions & { onProgress?: (line: string) => void }

/** A pull's outcome as git prints it, with the commits before and after and how many came. */
export type GithubPullResult = { exitCode: number; stdout: string; stderr: string; from: string; to: string; commits: number }

/** Paths whose blob differs between two commits' trees. */
async function changedPaths(fsp: ReturnType<typeof gitFs>, dir: string, a: string, b: string): Promise<string[]> {
  const changed = await git.walk({
    fs: fsp,
    dir,
    trees: [git.TREE({ ref: a }), git.TREE({ ref: b })],
    map: async (path, [x, y]) => {
      if (path === '.') return undefined
      if ((await x?.type()) === 'tree' || (await y?.type()) === 'tree') return undefined
      return (await x?.oid()) === (await y?.oid()) ? undefined : path
    },
  })
  return (changed as Array<string | undefined>).filter((p): p is string => typeof p === 'string')
}

/** Pulls (fast-forward only); GitHub's refusals throw a GithubError. */
export async function pullFromGithub(options: GithubPullOptions): Promise<GithubPullResult> {
  const { fs, dir, repo } = options
  const fsp = gitFs(fs)
  const branch = options.branch ?? (await git.currentBranch({ fs: fsp, dir }))
  if (!branch) throw new GithubError('GITHUB_REFUSED', 'You are not currently on a branch.')
  const remoteBranch = options.remoteBranch ?? branch
  const local = await git.resolveRef({ fs: fsp, dir, ref: `refs/heads/${branch}` })
  const api = githubApi(options.fetch, repo, options.signal)
  const ref = await api.getOrNull<ApiRef>(headRefPath(remoteBranch))
  if (!ref) throw new GithubError('GITHUB_REFUSED', `couldn't find remote ref ${remoteBranch}`)
  const remote = ref.object.sha
  const result = (exitCode: number, stdout: string, stderr: string, commits = 0) => ({ exitCode, stdout, stderr, from: local, to: remote, commits })

  // Fetch: every commit GitHub has that we do not, parents before the walk stops.
  const store = localObjects(fsp, `${dir}/.git`)
  const queue = [remote]
  const fetched = new Set<string>()
  while (queue.length) {
    const sha = queue.shift()!
    if (fetched.has(sha) || (await store.has(sha))) continue
    if (fetched.size >= GITHUB_PULL_MAX_COMMITS)
      throw new GithubError('GITHUB_REFUSED', `GitHub has more than ${GITHUB_PULL_MAX_COMMITS} new commits on ${remoteBranch}; clone it again instead`)
    const { commit } = await fetchCommit(api, store, sha, options.onProgress)
    fetched.add(sha)
    queue.push(...commit.parents.map((p) => p.sha))
  }
  const tracking = `refs/remotes/origin/${remoteBranch}`
  const before = await git.resolveRef({ fs: fsp, dir, ref: tracking }).catch(() => null)
  await git.writeRef({ fs: fsp, dir, ref: tracking, value: remote, force: true })
  const fetchLine =
    before && before !== remote ? `From ${githubUrl(repo)}\n   ${before.slice(0, 7)}..${remote.slice(0, 7)}  ${remoteBranch.padEnd(10)} -> origin/${remoteBranch}\n` : ''

  if (local === remote) return result(0, 'Already up to date.\n', fetchLine)
  const remoteHistory = await commitsSince(fsp, dir, remote, new Set())
  if (!remoteHistory.some((c) => c.oid === local)) {
    const localHistory = await commitsSince(fsp, dir, local, new Set())
    if (localHistory.some((c) => c.oid === remote)) return result(0, 'Already up to date.\n', fetchLine)
    return result(128, '', `${fetchLine}fatal: Not possible to fast-forward, aborting.\n`)
  }

  // Fast-forward, unless a local change sits on a path the pull changes (git's refusal).
  const changed = new Set(await changedPaths(fsp, dir, local, remote))
  const matrix = await git.statusMatrix({ fs: fsp, dir })
  const blocked = matrix.filter(([path, head, work, stage]) => changed.has(path) && (work !== head || stage !== head)).map(([path]) => path)
  if (blocked.length)
    return result(
      1,
      `Updating ${local.slice(0, 7)}..${remote.slice(0, 7)}\n`,
      `${fetchLine}error: Your local changes to the following files would be overwritten by merge:\n${blocked.map((p) => `\t${p}\n`).join('')}` +
        'Please commit your changes or stash them before you merge.\nAborting\n',
    )
  await git.writeRef({ fs: fsp, dir, ref: `refs/heads/${branch}`, value: remote, force: true })
  await git.checkout({ fs: fsp, dir, ref: branch })
  return result(0, `Updating ${local.slice(0, 7)}..${remote.slice(0, 7)}\nFast-forward\n`, fetchLine, fetched.size)
}
