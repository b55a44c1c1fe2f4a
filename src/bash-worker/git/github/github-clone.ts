/**
 * Bash worker side: `git clone https://github.com/OWNER/REPO` without a proxy. GitHub's git
 * server does not allow pages, its REST API and raw host do: this makes a shallow clone of one
 * branch through them (see github-objects.ts) whose commit has GitHub's own id, with `origin`,
 * the remote-tracking branch, the branch checked out, the index and `.git/shallow` as native
 * `git clone --depth 1` leaves them. A failure at any point leaves no directory behind.
 */

import git from 'isomorphic-git'
import type { IFileSystem } from 'just-bash/browser'
import { gitFs } from '../git-fs'
import { GithubError, githubApi, type GithubFetch } from './github-api'
import { fetchCommit, localObjects } from './github-objects'
import { githubUrl, type GithubRepo } from './github-url'

/** What cloneFromGithub is given. */
export type GithubCloneOptions = {
  fs: IFileSystem
  /** Absolute directory to clone into; it must not exist or be empty. */
  dir: string
  repo: GithubRepo
  /** The branch to clone; the repository's default branch when absent. */
  branch?: string
  fetch: GithubFetch
  signal?: AbortSignal
  onProgress?: (line: string) => void
}

/** What a clone made: where, which branch and commit, and how many files and bytes. */
export type GithubCloneResult = { dir: string; branch: string; oid: string; files: number; bytes: number }

/** GET /repos/O/R, the fields used here. */
export type GithubRepoInfo = { default_branch: string; full_name?: string; private?: boolean }
/** GET /repos/O/R/git/ref/heads/B. */
export type ApiRef = { ref: string; object: { sha: string; type: string } }

/** `/git/ref/heads/B`, with each part of a branch name like `feature/x` encoded. */
export function headRefPath(branch: string): string {
  return `/git/ref/heads/${branch.split('/').map(encodeURIComponent).join('/')}`
}

/** Clones; throws a GithubError whose message is the line to print after `fatal: `. */
export async function cloneFromGithub(options: GithubCloneOptions): Promise<GithubCloneResult> {
  const { fs, dir, repo } = options
  const existed = await fs.exists(dir)
  if (existed && ((await fs.stat(dir)).isDirectory ? (await fs.readdir(dir)).length > 0 : true))
    throw new GithubError('GITHUB_REFUSED', `destination path '${dir.slice(dir.lastIndexOf('/') + 1)}' already exists and is not an empty directory.`)
  const api = githubApi(options.fetch, repo, options.signal)
  // The repository first: its 404 is the one that means "private or misspelt".
  const info = await api.get<GithubRepoInfo>('')
  const branch = options.branch ?? info.default_branch
  const ref = await api.getOrNull<ApiRef>(headRefPath(branch))
  if (!ref || ref.object.type !== 'commit') throw new GithubError('GITHUB_REFUSED', `Remote branch ${branch} not found in upstream origin`)
  const sha = ref.object.sha

  const fsp = gitFs(fs)
  const gitdir = `${dir}/.git`
  try {
    await fs.mkdir(dir, { recursive: true })
    await git.init({ fs: fsp, dir, defaultBranch: branch })
    const fetched = await fetchCommit(api, localObjects(fsp, gitdir), sha, options.onProgress)
    // The commit's parents are not here: .git/shallow tells git (and isomorphic-git) so.
    await fs.writeFile(`${gitdir}/shallow`, `${sha}\n`)
    await git.addRemote({ fs: fsp, dir, remote: 'origin', url: githubUrl(repo) })
    await git.setConfig({ fs: fsp, dir, path: `branch.${branch}.remote`, value: 'origin' })
    await git.setConfig({ fs: fsp, dir, path: `branch.${branch}.merge`, value: `refs/heads/${branch}` })
    await git.writeRef({ fs: fsp, dir, ref: `refs/remotes/origin/${branch}`, value: sha })
    await git.writeRef({ fs: fsp, dir, ref: 'refs/remotes/origin/HEAD', value: `refs/remotes/origin/${branch}`, symbolic: true })
    await git.writeRef({ fs: fsp, dir, ref: `refs/heads/${branch}`, value: sha })
    await git.checkout({ fs: fsp, dir, ref: branch, force: true })
    return { dir, branch, oid: sha, files: fetched.files, bytes: fetched.bytes }
  } catch (error) {
    await removeClone(fs, dir, existed)
    throw error
  }
}

/** Undoes a clone: the directory goes, or is emptied again when it was there before. */
async function removeClone(fs: IFileSystem, dir: string, existed: boolean): Promise<void> {
  if (!existed) return fs.rm(dir, { recursive: true, force: true }).catch(() => undefined)
  const names = await fs.readdir(dir).catch(() => [])
  await Promise.all(names.map((name) => fs.rm(`${dir}/${name}`, { recursive: true, force: true }).catch(() => undefined)))
}
