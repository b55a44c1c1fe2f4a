/**
 * Bash worker side: what HEAD is (a branch, maybe unborn, or a detached commit) and how paths
 * typed in the shell map to paths in the repository and back. Shared by the subcommands that
 * print a branch or take paths.
 */

import git from 'isomorphic-git'
import type { GitContext } from './git-context'
import { joinPath } from './git-paths'

/** The repository's work tree and git directory (the subcommand needs a repository). */
export function repo(ctx: GitContext): { fs: GitContext['gitFs']; dir: string; gitdir: string } {
  if (ctx.dir === null || ctx.gitdir === null) throw new Error('not a git repository (or any of the parent directories): .git')
  return { fs: ctx.gitFs, dir: ctx.dir, gitdir: ctx.gitdir }
}

/** The branch HEAD names (even unborn), or null when HEAD is detached. */
export async function currentBranch(ctx: GitContext): Promise<string | null> {
  const text = await ctx.fs.readFile(joinPath(repo(ctx).gitdir, 'HEAD')).catch(() => '')
  const match = /^ref: refs\/heads\/(.+)$/m.exec(text.trim())
  return match ? match[1]! : null
}

/** HEAD's commit, or null before the first commit. */
export async function headOid(ctx: GitContext): Promise<string | null> {
  return git.resolveRef({ ...repo(ctx), ref: 'HEAD' }).catch(() => null)
}

/**
 * A commit named by a ref, a full or abbreviated id, or `HEAD~n`/`HEAD^`; null when none. An
 * annotated tag gives its commit, or with `peel` false (rev-parse's `v1`) the tag's own id.
 */
export async function resolveCommitish(ctx: GitContext, name: string, peel = true): Promise<string | null> {
  const r = repo(ctx)
  const suffix = /^(.*?)((?:[~^]\d*)*)$/.exec(name)!
  let oid: string | null = await git.resolveRef({ ...r, ref: suffix[1]! }).catch(() => null)
  if (oid === null && /^[0-9a-f]{4,40}$/.test(suffix[1]!)) oid = await git.expandOid({ ...r, oid: suffix[1]! }).catch(() => null)
  if (oid === null) return null
  let current: string = oid
  if (!peel && suffix[2] === '') return current
  // An annotated tag names its commit.
  for (;;) {
    const object: { type: string; object: unknown } | null = await git.readObject({ ...r, oid: current }).catch(() => null)
    if (object?.type !== 'tag') break
    current = (object.object as { object: string }).object
  }
  for (const step of suffix[2]!.match(/[~^]\d*/g) ?? []) {
    const count = step.length > 1 ? Number(step.slice(1)) : 1
    if (count === 0) continue // `^0` is the commit itself
    for (let i = 0; i < (step[0] === '~' ? count : 1); i++) {
      const parents: string[] = await git.readCommit({ ...r, oid: current }).then((c) => c.commit.parent, () => [])
      const parent = parents[step[0] === '^' ? count - 1 : 0]
      if (parent === undefined) return null
      current = parent
    }
  }
  return current
}

export function shortOid(oid: string): string {
  return oid.slice(0, 7)
}

/** `path` (as typed, relative to the cwd) relative to the work tree: '' for the top, null outside it. */
export function repoPath(ctx: GitContext, path: string): string | null {
  const dir = repo(ctx).dir
  const absolute = ctx.fs.resolvePath(ctx.cwd, path).replace(/\/+$/, '') || '/'
  if (absolute === dir) return ''
  const prefix = dir === '/' ? '/' : `${dir}/`
  return absolute.startsWith(prefix) ? absolute.slice(prefix.length) : null
}

/** A repository path as git prints it to someone in the cwd (`../a.txt`, `b/c.txt`). */
export function displayPath(ctx: GitContext, path: string): string {
  const base = repoPath(ctx, '.') ?? ''
  if (base === '') return path
  const dir = path.endsWith('/')
  const from = base.split('/')
  const to = (dir ? path.slice(0, -1) : path).split('/')
  let common = 0
  while (common < from.length && common < to.length && from[common] === to[common]) common++
  const relative = [...from.slice(common).map(() => '..'), ...to.slice(common)].join('/')
  return dir ? `${relative || '.'}/` : relative
}

/** Whether repository path `path` is `spec` or inside it ('' matches everything). */
export function underPath(path: string, spec: string): boolean {
  return spec === '' || path === spec || path.startsWith(`${spec}/`)
}

const ESCAPES: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 34: '\\"', 92: '\\\\' }

/**
 * A path as git prints it (core.quotePath): in double quotes with C escapes and octal UTF-8
 * bytes when it holds a control character, `"`, `\` or a non-ASCII letter; `quoteSpace` also
 * quotes a path with a space (the short status does).
 */
export function quotePath(path: string, quoteSpace = false): string {
  const bytes = new TextEncoder().encode(path)
  if (!bytes.some((b) => b < 0x20 || b >= 0x7f || b === 34 || b === 92 || (quoteSpace && b === 32))) return path
  let out = ''
  for (const b of bytes) {
    if (ESCAPES[b] !== undefined) out += ESCAPES[b]
    else if (b < 0x20 || b >= 0x7f) out += `\\${b.toString(8).padStart(3, '0')}`
    else out += String.fromCharCode(b)
  }
  return `"${out}"`
}
