/**
 * Bash worker side: turns what a person types for a revision (HEAD, HEAD~2, main^, a short id,
 * a branch or tag name, stash@{1}) into an object id, as git's rev-parse would, so every
 * subcommand that takes a commit reads it the same way.
 */

import git from 'isomorphic-git'
import type { GitContext } from './git-context'

/** The isomorphic-git arguments every call on this repository takes. */
export function repoArgs(ctx: GitContext): { fs: GitContext['gitFs']; dir: string; gitdir: string } {
  return { fs: ctx.gitFs, dir: ctx.dir!, gitdir: ctx.gitdir! }
}

/** The branch HEAD names (short), or null when HEAD is detached. */
export async function currentBranch(ctx: GitContext): Promise<string | null> {
  return (await git.currentBranch({ ...repoArgs(ctx), fullname: false, test: false })) ?? null
}

/** The commit HEAD points at, or null in a repository without commits. */
export async function headOid(ctx: GitContext): Promise<string | null> {
  return git.resolveRef({ ...repoArgs(ctx), ref: 'HEAD' }).catch(() => null)
}

/** The object `rev` names without peeling (a tag's own object stays a tag), or null. */
export async function resolveObject(ctx: GitContext, rev: string): Promise<string | null> {
  const match = /^(.*?)((?:[~^]\d*|\^\{\w*\})*)$/.exec(rev)
  if (!match || match[1] === '') return null
  let oid = await resolveBase(ctx, match[1]!)
  if (oid === null) return null
  for (const step of match[2]!.match(/[~^]\d*|\^\{\w*\}/g) ?? []) {
    if (step.startsWith('^{')) {
      oid = step === '^{tree}' ? await peelToTree(ctx, oid) : await peelToCommit(ctx, oid)
    } else {
      const n = step.length > 1 ? Number(step.slice(1)) : 1
      oid = step[0] === '~' ? await nthAncestor(ctx, oid, n) : await nthParent(ctx, oid, n)
    }
    if (oid === null) return null
  }
  return oid
}

/** The commit `rev` names (tags peeled), or null when it names none. */
export async function resolveCommit(ctx: GitContext, rev: string): Promise<string | null> {
  const oid = await resolveObject(ctx, rev)
  return oid === null ? null : peelToCommit(ctx, oid)
}

async function resolveBase(ctx: GitContext, name: string): Promise<string | null> {
  const args = repoArgs(ctx)
  if (name === '@') name = 'HEAD'
  const stash = /^stash@\{(\d+)\}$/.exec(name)
  if (stash) return stashEntry(ctx, Number(stash[1]))
  if (name === 'stash') return stashEntry(ctx, 0)
  // git's order: the name as a ref file (HEAD, ORIG_HEAD, refs/...), then tags, branches, remotes.
  const candidates = [`refs/tags/${name}`, `refs/heads/${name}`, `refs/remotes/${name}`, `refs/remotes/${name}/HEAD`]
  if (/^[A-Z_]+$/.test(name) || name.startsWith('refs/')) candidates.unshift(name)
  for (const ref of candidates) {
    const oid = await git.resolveRef({ ...args, ref }).catch(() => null)
    if (oid !== null) return oid
  }
  if (/^[0-9a-f]{4,40}$/i.test(name)) return git.expandOid({ ...args, oid: name.toLowerCase() }).catch(() => null)
  return null
}

/** stash@{n}: the n-th newest line of the stash's reflog. */
export async function stashEntry(ctx: GitContext, n: number): Promise<string | null> {
  const lines = await stashLog(ctx)
  return lines[n]?.oid ?? null
}

/** The stash's reflog, newest first: each entry's commit and message. */
export async function stashLog(ctx: GitContext): Promise<Array<{ oid: string; message: string }>> {
  const text = await ctx.fs.readFile(`${ctx.gitdir}/logs/refs/stash`).catch(() => '')
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => ({ oid: line.split(' ')[1]!, message: line.slice(line.indexOf('\t') + 1) }))
    .reverse()
}

async function peelToCommit(ctx: GitContext, oid: string): Promise<string | null> {
  for (let depth = 0; depth < 10; depth++) {
    const { type, object } = await git.readObject({ ...repoArgs(ctx), oid, format: 'parsed' }).catch(() => ({ type: 'none', object: null }))
    if (type === 'commit') return oid
    if (type !== 'tag') return null
    oid = (object as { object: string }).object
  }
  return null
}

async function peelToTree(ctx: GitContext, oid: string): Promise<string | null> {
  const commit = await peelToCommit(ctx, oid)
  if (commit === null) return null
  return (await git.readCommit({ ...repoArgs(ctx), oid: commit })).commit.tree
}

async function nthParent(ctx: GitContext, oid: string, n: number): Promise<string | null> {
  const commit = await peelToCommit(ctx, oid)
  if (commit === null) return null
  if (n === 0) return commit
  return (await git.readCommit({ ...repoArgs(ctx), oid: commit })).commit.parent[n - 1] ?? null
}

async function nthAncestor(ctx: GitContext, oid: string, n: number): Promise<string | null> {
  let current: string | null = oid
  for (let i = 0; i < n && current !== null; i++) current = await nthParent(ctx, current, 1)
  return current === null ? null : peelToCommit(ctx, current)
}
