/**
 * Bash worker side: a merge that stopped on conflicts — git's markers labelled as git labels
 * them (HEAD and the name merged), MERGE_HEAD, MERGE_MSG and ORIG_HEAD written so the merge can
 * be committed or aborted — and `git merge --abort`.
 */

import git, { type Errors } from 'isomorphic-git'
import { fatal, ok, type GitContext, type GitOutput } from './git-context'
import { sameEntry, treeEntries, type Entries, type Entry } from './repo-entries'
import { readIndexFile, recordFromDisk, recordWithoutStat, writeIndexFile, type IndexRecord } from './repo-index-file'
import { headOid, repoArgs } from './repo-revisions'
import { writeEntries, writeWorkFile } from './repo-worktree'

type Conflict = {
  head: string
  theirs: string
  name: string
  message: string
  error: InstanceType<typeof Errors.MergeConflictError>
  ourLabel: string
  theirLabel: string
}

/** Writes the merge state and relabels markers; returns the CONFLICT lines git prints. */
export async function recordConflict(ctx: GitContext, c: Conflict): Promise<string> {
  const { filepaths, bothModified, deleteByUs, deleteByTheirs } = c.error.data
  for (const path of bothModified) {
    const file = `${ctx.dir}/${path}`
    const text = await ctx.fs.readFile(file).catch(() => null)
    if (text === null) continue
    const relabelled = text
      .split('\n')
      .map((line) => (line === `<<<<<<< ${c.ourLabel}` ? '<<<<<<< HEAD' : line === `>>>>>>> ${c.theirLabel}` ? `>>>>>>> ${c.name}` : line))
      .join('\n')
    await ctx.fs.writeFile(file, relabelled)
  }
  await ctx.fs.writeFile(`${ctx.gitdir}/MERGE_HEAD`, `${c.theirs}\n`)
  await ctx.fs.writeFile(`${ctx.gitdir}/ORIG_HEAD`, `${c.head}\n`)
  await ctx.fs.writeFile(`${ctx.gitdir}/MERGE_MODE`, '')
  await ctx.fs.writeFile(`${ctx.gitdir}/MERGE_MSG`, `${c.message}\n\n# Conflicts:\n${[...filepaths].sort().map((p) => `#\t${p}\n`).join('')}`)
  let lines = ''
  for (const path of [...filepaths].sort()) {
    if (bothModified.includes(path)) lines += `CONFLICT (content): Merge conflict in ${path}\n`
    else if (deleteByUs.includes(path)) lines += `CONFLICT (modify/delete): ${path} deleted in HEAD and modified in ${c.name}.  Version ${c.name} of ${path} left in tree.\n`
    else if (deleteByTheirs.includes(path)) lines += `CONFLICT (modify/delete): ${path} deleted in ${c.name} and modified in HEAD.  Version HEAD of ${path} left in tree.\n`
  }
  return lines
}

/** `git merge --abort`: the index and work tree back to HEAD, the merge state removed. */
export async function abortMerge(ctx: GitContext): Promise<GitOutput> {
  if (!(await ctx.fs.exists(`${ctx.gitdir}/MERGE_HEAD`))) return fatal('There is no merge to abort (MERGE_HEAD missing).')
  const head = await treeEntries(ctx, await headOid(ctx))
  const mergeHead = (await ctx.fs.readFile(`${ctx.gitdir}/MERGE_HEAD`)).trim()
  const theirs = await treeEntries(ctx, mergeHead).catch(() => new Map())
  const tracked = new Set([...(await git.listFiles(repoArgs(ctx)).catch(() => [] as string[])), ...theirs.keys()])
  // The index may hold conflict stages; rebuild it from HEAD rather than edit it entry by entry.
  await ctx.fs.rm(`${ctx.gitdir}/index`, { force: true })
  for (const path of tracked) if (!head.has(path)) await ctx.fs.rm(`${ctx.dir}/${path}`, { force: true })
  await writeEntries(ctx, new Map(head))
  await clearMergeState(ctx)
  return ok()
}

/** "a.txt: needs merge" lines, as git's stash and checkout say them. */
export function needsMerge(paths: readonly string[]): string {
  return paths.map((p) => `${p}: needs merge\n`).join('')
}

type Trees = { base: Entries; ours: Entries; theirs: Entries }

/**
 * Writes the index git leaves after a conflicted merge: each conflicted path at stages 1-3
 * (base, ours, theirs), every other path at its merged result. isomorphic-git's own index
 * leaves out files only the other side added, which a later commit would then lose.
 */
export async function writeConflictIndex(ctx: GitContext, trees: Trees, conflicted: readonly string[]): Promise<void> {
  const stage0 = new Map(((await readIndexFile(ctx)) ?? []).filter((r) => r.stage === 0).map((r) => [r.path, r]))
  const out: IndexRecord[] = []
  const paths = new Set([...trees.base.keys(), ...trees.ours.keys(), ...trees.theirs.keys()])
  for (const path of paths) {
    const [b, o, t] = [trees.base.get(path), trees.ours.get(path), trees.theirs.get(path)]
    if (conflicted.includes(path)) {
      ;[b, o, t].forEach((entry, k) => entry && out.push({ ...recordWithoutStat(path, entry), stage: k + 1 }))
      continue
    }
    const merged = stage0.get(path)
    const result: Entry | undefined = sameEntry(o, b) ? t : sameEntry(t, b) || sameEntry(o, t) ? o : merged ? { oid: merged.oid, mode: merged.mode.toString(8).padStart(6, '0') } : o
    if (!result) {
      if (o) await ctx.fs.rm(`${ctx.dir}/${path}`, { force: true })
      continue
    }
    if (!sameEntry(result, o)) await writeWorkFile(ctx, path, result)
    out.push(await recordFromDisk(ctx, path, result))
  }
  await writeIndexFile(ctx, out)
}

/** Forgets a merge in progress (reset and merge --abort do). */
export async function clearMergeState(ctx: GitContext): Promise<void> {
  for (const name of ['MERGE_HEAD', 'MERGE_MSG', 'MERGE_MODE']) await ctx.fs.rm(`${ctx.gitdir}/${name}`, { force: true })
}

export async function mergeInProgress(ctx: GitContext): Promise<boolean> {
  return ctx.fs.exists(`${ctx.gitdir}/MERGE_HEAD`)
}
