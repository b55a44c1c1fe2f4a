/**
 * Bash worker side: moves the index and the work tree from one tree to another as git's
 * checkout does (a two-way merge: local changes to a file the move leaves alone are carried,
 * a move that would lose them is refused), or forcibly for reset --hard; and sets index
 * entries alone for reset --mixed and restore --staged.
 */

import git from 'isomorphic-git'
import type { GitContext } from './git-context'
import { blobBytes, indexEntries, sameEntry, workdirEntries, type Entries, type Entry } from './repo-entries'
import { matchesPathspec } from './repo-diff'
import { readIndexFile, recordFromDisk, recordWithoutStat, unmergedPaths, writeIndexFile } from './repo-index-file'
import { repoArgs } from './repo-revisions'

export type Blocked = { overwritten: string[]; untracked: string[] }

/** Index changes to make at once: a path to an entry (stats from disk or none), or null to remove it. */
export type IndexUpdate = Map<string, { entry: Entry; fromDisk: boolean } | null>

/** Applies index updates in one write (conflict stages of an updated path go too). */
export async function updateIndexEntries(ctx: GitContext, updates: IndexUpdate): Promise<void> {
  if (updates.size === 0) return
  const records = await readIndexFile(ctx)
  if (records === null) {
    // An index format this does not write: isomorphic-git, one path at a time.
    for (const [path, update] of updates) {
      if (update === null) await git.updateIndex({ ...repoArgs(ctx), filepath: path, remove: true, force: true })
      else if (update.fromDisk) await git.updateIndex({ ...repoArgs(ctx), filepath: path, add: true })
      else await git.updateIndex({ ...repoArgs(ctx), filepath: path, oid: update.entry.oid, mode: parseInt(update.entry.mode, 8), add: true })
    }
    return
  }
  const kept = records.filter((r) => !updates.has(r.path))
  for (const [path, update] of updates) {
    if (update !== null) kept.push(update.fromDisk ? await recordFromDisk(ctx, path, update.entry) : recordWithoutStat(path, update.entry))
  }
  await writeIndexFile(ctx, kept)
}

function abs(ctx: GitContext, path: string): string {
  return ctx.dir === '/' ? `/${path}` : `${ctx.dir}/${path}`
}

/**
 * Moves index and work tree from `from` (HEAD's tree) to `to`. Without `force`, returns the
 * paths whose local changes or untracked files the move would overwrite, and changes nothing.
 */
export async function checkoutTree(ctx: GitContext, from: Entries, to: Entries, force: boolean, specs: readonly string[] = []): Promise<Blocked> {
  const index = await indexEntries(ctx)
  const work = await workdirEntries(ctx)
  const unmerged = force ? await unmergedPaths(ctx) : []
  const paths = [...new Set([...from.keys(), ...to.keys(), ...(force ? index.keys() : []), ...unmerged])].filter((p) => matchesPathspec(p, specs)).sort()
  const blocked: Blocked = { overwritten: [], untracked: [] }
  const writes: string[] = []
  for (const path of paths) {
    const f = from.get(path)
    const t = to.get(path)
    const i = index.get(path)
    const w = work.get(path)
    if (force) {
      if (!sameEntry(i, t) || !sameEntry(w, t) || unmerged.includes(path)) writes.push(path)
      continue
    }
    // Unchanged by the move: local changes are carried. Index already at the target: git keeps it.
    if (sameEntry(f, t) || sameEntry(i, t)) continue
    const dirty = !sameEntry(i, f) || (i !== undefined && !sameEntry(w, i))
    if (dirty) blocked.overwritten.push(path)
    else if (!f && !i && t && (await ctx.fs.exists(abs(ctx, path)))) blocked.untracked.push(path)
    else writes.push(path)
  }
  if (blocked.overwritten.length > 0 || blocked.untracked.length > 0) return blocked
  await writeEntries(ctx, new Map(writes.map((path) => [path, to.get(path)])))
  return blocked
}

/** Puts paths of a tree into the work tree and the index (undefined: removes them from both). */
export async function writeEntries(ctx: GitContext, entries: Map<string, Entry | undefined>): Promise<void> {
  const updates: IndexUpdate = new Map()
  for (const [path, entry] of entries) {
    if (!entry) {
      await ctx.fs.rm(abs(ctx, path), { force: true })
      await removeEmptyParents(ctx, path)
      updates.set(path, null)
    } else {
      await writeWorkFile(ctx, path, entry)
      updates.set(path, { entry, fromDisk: true })
    }
  }
  await updateIndexEntries(ctx, updates)
}

/** Writes an entry's blob at `path` in the work tree (parents made, mode kept), index untouched. */
export async function writeWorkFile(ctx: GitContext, path: string, entry: Entry): Promise<void> {
  const file = abs(ctx, path)
  const bytes = await blobBytes(ctx, entry.oid)
  await ctx.fs.mkdir(file.slice(0, file.lastIndexOf('/')) || '/', { recursive: true })
  if ((await ctx.fs.exists(file)) && (await ctx.fs.lstat(file)).isDirectory) await ctx.fs.rm(file, { recursive: true, force: true })
  if (entry.mode === '120000') {
    await ctx.fs.rm(file, { force: true })
    await ctx.fs.symlink(new TextDecoder().decode(bytes), file)
    return
  }
  await ctx.fs.writeFile(file, bytes)
  await ctx.fs.chmod(file, entry.mode === '100755' ? 0o755 : 0o644)
}

async function removeEmptyParents(ctx: GitContext, path: string): Promise<void> {
  let dir = path
  while (dir.includes('/')) {
    dir = dir.slice(0, dir.lastIndexOf('/'))
    const full = abs(ctx, dir)
    if (!(await ctx.fs.exists(full)) || (await ctx.fs.readdir(full)).length > 0) return
    await ctx.fs.rm(full, { recursive: true })
  }
}

/** Sets the index to `to` for the paths `specs` match (all when empty); the work tree is left alone. */
export async function setIndex(ctx: GitContext, to: Entries, specs: readonly string[] = []): Promise<string[]> {
  const index = await indexEntries(ctx)
  const unmerged = await unmergedPaths(ctx)
  const updates: IndexUpdate = new Map()
  for (const path of [...new Set([...index.keys(), ...to.keys(), ...unmerged])].sort()) {
    if (!matchesPathspec(path, specs)) continue
    const t = to.get(path)
    if (sameEntry(index.get(path), t) && !unmerged.includes(path)) continue
    updates.set(path, t ? { entry: t, fromDisk: false } : null)
  }
  await updateIndexEntries(ctx, updates)
  return [...updates.keys()]
}

/** git's refusal when a move would lose local changes or untracked files ("checkout" or "merge"). */
export function blockedMessage(blocked: Blocked, verb: 'checkout' | 'merge'): string {
  const advice = verb === 'checkout' ? 'Please commit your changes or stash them before you switch branches.' : 'Please commit your changes or stash them before you merge.'
  if (blocked.overwritten.length > 0) {
    return `error: Your local changes to the following files would be overwritten by ${verb}:\n${blocked.overwritten.map((p) => `\t${p}\n`).join('')}${advice}\nAborting\n`
  }
  const what = verb === 'checkout' ? 'Please move or remove them before you switch branches.' : 'Please move or remove them before you merge.'
  return `error: The following untracked working tree files would be overwritten by ${verb}:\n${blocked.untracked.map((p) => `\t${p}\n`).join('')}${what}\nAborting\n`
}
