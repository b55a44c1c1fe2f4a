/**
 * `git stash [push [-m <msg>]]`, `list`, `show [-p]`, `apply`, `pop`, `drop`, `clear`: the
 * index and tracked work-tree changes saved as git saves them (a WIP commit whose second
 * parent holds the index), so stash ids and the list match native git's.
 */

import git from 'isomorphic-git'
import { has, parseArgs, value } from '../git-args'
import { fail, fatal, ok, unsupported, type GitContext, type GitOutput, type GitSubcommand } from '../git-context'
import { oneLine } from '../repo-commit-format'
import { collectChanges, objectSide } from '../repo-diff'
import { indexEntries, sameEntry, treeEntries, workdirEntries, type Entries } from '../repo-entries'
import { identity } from '../repo-identity'
import { currentBranch, headOid, repoArgs, stashLog } from '../repo-revisions'
import { dropStash, pushStash } from '../repo-stash-log'
import { writeCommitObject, writeTreeFromEntries } from '../repo-tree-write'
import { blockedMessage, checkoutTree, updateIndexEntries, writeWorkFile, type IndexUpdate } from '../repo-worktree'
import { DIFF_FLAGS, DIFF_VALUES, printChanges } from './diff'
import { unmergedPaths } from '../repo-index-file'
import { needsMerge } from '../repo-merge-state'

export const stash: GitSubcommand = {
  needsRepo: true,
  async run(args, ctx) {
    const [op = 'push', ...rest] = args[0]?.startsWith('-') ? ['push', ...args] : args
    switch (op) {
      case 'push':
      case 'save':
        return push(ctx, rest, op)
      case 'list':
        return list(ctx, rest)
      case 'show':
        return show(ctx, rest)
      case 'apply':
      case 'pop':
      case 'drop':
        return applyOrDrop(ctx, rest, op)
      case 'clear':
        if (rest.length > 0) return unsupported(`git stash clear ${rest[0]}`)
        for (let n = (await stashLog(ctx)).length; n > 0; n--) await dropStash(ctx, 0)
        return ok()
      default:
        return fatal(`subcommand wasn't specified; 'push' can't be assumed due to unexpected token '${op}'`)
    }
  },
}

async function push(ctx: GitContext, args: string[], op: string): Promise<GitOutput> {
  const parsed = parseArgs(args, { booleans: { '-q': 'quiet', '--quiet': 'quiet' }, values: { '-m': 'message', '--message': 'message' } })
  if (parsed.unknown) return unsupported(`git stash ${op} ${parsed.unknown}`)
  if (parsed.positional.length > 0 || parsed.paths.length > 0) return unsupported(`git stash ${op} with paths`)
  const head = await headOid(ctx)
  if (head === null) return fail('You do not have the initial commit yet', 1)
  const unmerged = await unmergedPaths(ctx)
  if (unmerged.length > 0) return { stdout: needsMerge(unmerged), stderr: '', exitCode: 1 }
  const headTree = await treeEntries(ctx, head)
  const index = await indexEntries(ctx)
  const work = await workdirEntries(ctx)
  const staged = [...new Set([...headTree.keys(), ...index.keys()])].some((p) => !sameEntry(headTree.get(p), index.get(p)))
  const unstaged = [...index.keys()].some((p) => !sameEntry(index.get(p), work.get(p)))
  if (!staged && !unstaged) return ok('No local changes to save\n')
  const author = await identity(ctx, 'author')
  const committer = await identity(ctx, 'committer')
  const branch = (await currentBranch(ctx)) ?? '(no branch)'
  const onHead = `${branch}: ${await oneLine(ctx, head)}`
  const given = value(parsed, 'message')
  const message = given === undefined ? `WIP on ${onHead}` : `On ${branch}: ${given}`
  // The work tree's tracked files, their blobs written as git's stash writes them.
  const worked: Entries = new Map()
  for (const [path, entry] of index) {
    const now = work.get(path)
    if (!now) continue
    if (now.oid !== entry.oid) await git.writeBlob({ ...repoArgs(ctx), blob: await ctx.fs.readFileBuffer(`${ctx.dir}/${path}`) })
    worked.set(path, now)
  }
  // git writes the index commit's message with a newline and the stash commit's without one.
  const indexCommit = await writeCommitObject(ctx, { tree: await writeTreeFromEntries(ctx, index), parents: [head], message: `index on ${onHead}\n`, author, committer })
  const stashCommit = await writeCommitObject(ctx, { tree: await writeTreeFromEntries(ctx, worked), parents: [head, indexCommit], message, author, committer })
  await pushStash(ctx, stashCommit, message, committer)
  await checkoutTree(ctx, headTree, headTree, true)
  return ok(has(parsed, 'quiet') ? '' : `Saved working directory and index state ${message}\n`)
}

async function list(ctx: GitContext, args: string[]): Promise<GitOutput> {
  if (args.length > 0) return unsupported(`git stash list ${args[0]}`)
  return ok((await stashLog(ctx)).map((entry, i) => `stash@{${i}}: ${entry.message}\n`).join(''))
}

/** stash@{n} from `stash@{n}`, `n` or nothing; an error output when there is no such entry. */
async function pickEntry(ctx: GitContext, arg: string | undefined): Promise<{ n: number; oid: string; label: string } | GitOutput> {
  const entries = await stashLog(ctx)
  const match = arg === undefined ? ['', '0'] : /^(?:stash@\{(\d+)\}|(\d+))$/.exec(arg)
  if (!match) return fail(`error: ${arg} is not a valid reference`)
  if (entries.length === 0) return fail('No stash entries found.')
  const n = Number(match[1] ?? match[2])
  if (n >= entries.length) return fatal(`log for 'stash' only has ${entries.length} entries`)
  return { n, oid: entries[n]!.oid, label: arg === undefined ? `refs/stash@{${n}}` : `stash@{${n}}` }
}

async function show(ctx: GitContext, args: string[]): Promise<GitOutput> {
  const parsed = parseArgs(args, { booleans: { ...DIFF_FLAGS }, values: DIFF_VALUES })
  if (parsed.unknown) return unsupported(`git stash show ${parsed.unknown}`)
  const entry = await pickEntry(ctx, parsed.positional[0])
  if ('exitCode' in entry) return entry
  const { commit } = await git.readCommit({ ...repoArgs(ctx), oid: entry.oid })
  const changes = await collectChanges(objectSide(ctx, await treeEntries(ctx, commit.parent[0]!)), objectSide(ctx, await treeEntries(ctx, entry.oid)))
  if (!['patch', 'name-only', 'name-status', 'numstat', 'shortstat'].some((flag) => has(parsed, flag))) parsed.flags.set('stat', [''])
  return ok(printChanges(changes, parsed, ctx))
}

async function applyOrDrop(ctx: GitContext, args: string[], op: 'apply' | 'pop' | 'drop'): Promise<GitOutput> {
  const parsed = parseArgs(args, { booleans: { '-q': 'quiet', '--quiet': 'quiet' } })
  if (parsed.unknown) return unsupported(`git stash ${op} ${parsed.unknown}`)
  const entry = await pickEntry(ctx, parsed.positional[0])
  if ('exitCode' in entry) return entry
  const quiet = has(parsed, 'quiet')
  const dropped = `Dropped ${entry.label} (${entry.oid})\n`
  if (op === 'drop') {
    await dropStash(ctx, entry.n)
    return ok(quiet ? '' : dropped)
  }
  const applied = await applyStash(ctx, entry.oid)
  const status = quiet ? '' : await statusReport(ctx)
  if (applied.exitCode !== 0) return op === 'pop' ? { ...applied, stdout: `${status}The stash entry is kept in case you need it again.\n` } : { ...applied, stdout: status }
  if (op === 'apply') return ok(status)
  await dropStash(ctx, entry.n)
  return ok(quiet ? '' : `${status}${dropped}`)
}

/**
 * What `git status` prints, which git shows after apply and pop; empty while no status
 * subcommand is registered. Looked up when called: git-subcommands.ts imports this file.
 */
async function statusReport(ctx: GitContext): Promise<string> {
  const status = (await import('../git-subcommands')).GIT_SUBCOMMANDS.status
  return status ? (await status.run([], ctx)).stdout : ''
}

/**
 * Puts a stash's changes back: work-tree edits unstaged, files the stash's index added staged
 * again, as `git stash apply` without --index. Files HEAD changed since the stash are not merged.
 */
async function applyStash(ctx: GitContext, oid: string): Promise<GitOutput> {
  const { commit } = await git.readCommit({ ...repoArgs(ctx), oid })
  const [base, indexCommit] = commit.parent
  if (base === undefined || indexCommit === undefined) return fatal(`'${oid}' is not a stash-like commit`)
  const [baseTree, indexTree, stashTree] = await Promise.all([base, indexCommit, oid].map((o) => treeEntries(ctx, o)))
  const head = await treeEntries(ctx, await headOid(ctx))
  const index = await indexEntries(ctx)
  const work = await workdirEntries(ctx)
  const paths = [...new Set([...baseTree!.keys(), ...stashTree!.keys(), ...indexTree!.keys()])].filter(
    (p) => !sameEntry(baseTree!.get(p), stashTree!.get(p)) || !sameEntry(baseTree!.get(p), indexTree!.get(p)),
  )
  const moved = paths.filter((p) => !sameEntry(head.get(p), baseTree!.get(p)))
  if (moved.length > 0) return unsupported(`git stash apply where HEAD has since changed ${moved[0]}`)
  const dirty = paths.filter((p) => !sameEntry(index.get(p), head.get(p)) || (index.has(p) && !sameEntry(work.get(p), index.get(p))))
  if (dirty.length > 0) return fail(blockedMessage({ overwritten: dirty, untracked: [] }, 'merge'))
  const updates: IndexUpdate = new Map()
  for (const path of paths) {
    const now = stashTree!.get(path)
    if (now) await writeWorkFile(ctx, path, now)
    else await ctx.fs.rm(`${ctx.dir}/${path}`, { force: true })
    const staged = indexTree!.get(path)
    if (staged && !baseTree!.has(path)) updates.set(path, { entry: staged, fromDisk: false })
    else if (!staged && baseTree!.has(path)) updates.set(path, null)
  }
  await updateIndexEntries(ctx, updates)
  return ok()
}
