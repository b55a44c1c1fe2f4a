/**
 * Bash worker side: one remote fetched, and the lines git prints for what moved, shared by
 * `git fetch` and `git pull`. The remote-tracking branches and tags are read before and after
 * isomorphic-git's fetch, so the lines say what actually changed here.
 */

import git from 'isomorphic-git'
import type { GitContext } from './git-context'
import { shortRef, updateLine } from './remote-report'
import type { RemoteTarget } from './remote-target'

type Refs = Map<string, string>

async function remoteRefs(ctx: GitContext, remote: string): Promise<Refs> {
  const repo = { fs: ctx.gitFs, dir: ctx.dir! }
  const refs: Refs = new Map()
  for (const branch of await git.listBranches({ ...repo, remote })) {
    if (branch === 'HEAD') continue
    refs.set(`refs/remotes/${remote}/${branch}`, await git.resolveRef({ ...repo, ref: `refs/remotes/${remote}/${branch}` }))
  }
  for (const tag of await git.listTags(repo)) refs.set(`refs/tags/${tag}`, await git.resolveRef({ ...repo, ref: `refs/tags/${tag}` }))
  return refs
}

/** The `From` line for `url`, as git shows it. */
function fromLine(url: string): string {
  return `From ${url.replace(/\/+$/, '').replace(/\.git$/, '')}\n`
}

/** Fetches `target` (a named remote) and answers git's report of what changed ('' when nothing did). */
export async function fetchRemote(ctx: GitContext, target: RemoteTarget & { name: string }, depth?: number): Promise<string> {
  const repo = { fs: ctx.gitFs, dir: ctx.dir! }
  const before = await remoteRefs(ctx, target.name)
  await git.fetch({ ...repo, http: target.http, remote: target.name, corsProxy: '', tags: true, ...(depth ? { depth } : {}) })
  const after = await remoteRefs(ctx, target.name)
  const moved = [...after].filter(([ref, oid]) => before.get(ref) !== oid)
  if (moved.length === 0) return ''
  const width = Math.max(10, ...moved.map(([ref]) => shortRef(ref.replace(`refs/remotes/${target.name}/`, 'refs/heads/')).length))
  // git lists the current branch's upstream first (it is the one FETCH_HEAD marks for merge).
  const branch = await git.currentBranch(repo).catch(() => undefined)
  const tracks = branch ? await git.getConfig({ ...repo, path: `branch.${branch}.remote` }) : undefined
  const merge = branch ? ((await git.getConfig({ ...repo, path: `branch.${branch}.merge` })) as string | undefined) : undefined
  const first = tracks === target.name && merge ? `refs/remotes/${target.name}/${shortRef(merge)}` : null
  const order = (ref: string) => (ref === first ? `0${ref}` : `1${ref}`)
  let lines = ''
  for (const [ref, oid] of moved.sort(([a], [b]) => (order(a) < order(b) ? -1 : 1))) {
    const isTag = ref.startsWith('refs/tags/')
    const from = (isTag ? shortRef(ref) : ref.slice(`refs/remotes/${target.name}/`.length)).padEnd(width)
    const to = isTag ? shortRef(ref) : `${target.name}/${from.trimEnd()}`
    const old = before.get(ref)
    const forced = old !== undefined && !(await git.isDescendent({ ...repo, oid, ancestor: old, depth: -1 }).catch(() => false))
    lines += updateLine(old, oid, from, to, forced, isTag ? 'tag' : 'branch')
  }
  return `${fromLine(target.url)}${lines}`
}
