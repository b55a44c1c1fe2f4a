/**
 * Bash worker side: a merge that stopped on conflicts — git's markers labelled as git labels
 * them (HEAD and the name merged), MERGE_HEAD, MERGE_MSG and ORIG_HEAD written so the merge can
 * be committed or aborted — and `git merge --abort`.
 */

import git, { type Errors } from 'isomorphic-git'
import { fatal, ok, type GitContext, type GitOutput } from './git-context'
import { treeEntries } from './repo-entries'
import { headOid, repoArgs } from './repo-revisions'
import { writeEntries } from './repo-worktree'

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
  for (const name of ['MERGE_HEAD', 'MERGE_MSG', 'MERGE_MODE']) await ctx.fs.rm(`${ctx.gitdir}/${name}`, { force: true })
  return ok()
}

/** Paths the index holds at a conflict stage (1-3), read from the index file itself. */
export async function unmergedPaths(ctx: GitContext): Promise<string[]> {
  const bytes = await ctx.fs.readFileBuffer(`${ctx.gitdir}/index`).catch(() => null)
  if (bytes === null || bytes.length < 12) return []
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const version = view.getUint32(4)
  if (version !== 2 && version !== 3) return []
  const paths = new Set<string>()
  let at = 12
  for (let n = view.getUint32(8); n > 0; n--) {
    const flags = view.getUint16(at + 60)
    const extended = version === 3 && (flags & 0x4000) !== 0
    const nameAt = at + 62 + (extended ? 2 : 0)
    let end = nameAt
    while (bytes[end] !== 0) end++
    if ((flags >> 12) & 3) paths.add(new TextDecoder().decode(bytes.subarray(nameAt, end)))
    at += Math.ceil((end - at + 1) / 8) * 8
  }
  return [...paths].sort()
}
