/**
 * `git merge [--no-ff|--ff-only] [-m <msg>] <commit>` and `git merge --abort`: a fast-forward,
 * or a three-way merge (isomorphic-git's) with a merge commit; a conflict leaves git's markers
 * in the files, MERGE_HEAD and MERGE_MSG, and says so with exit 1.
 */

import git, { Errors } from 'isomorphic-git'
import { has, parseArgs, value } from '../git-args'
import { fail, fatal, ok, unsupported, type GitContext, type GitOutput, type GitSubcommand } from '../git-context'
import { collectChanges, objectSide } from '../repo-diff'
import { formatStat, formatSummary } from '../repo-diff-stat'
import { indexEntries, sameEntry, treeEntries, workdirEntries } from '../repo-entries'
import { identity } from '../repo-identity'
import { currentBranch, headOid, repoArgs, resolveCommit } from '../repo-revisions'
import { blockedMessage, checkoutTree, writeEntries } from '../repo-worktree'
import { unmergedPaths } from '../repo-index-file'
import { abortMerge, recordConflict, writeConflictIndex } from '../repo-merge-state'

export const merge: GitSubcommand = {
  needsRepo: true,
  async run(args, ctx) {
    const parsed = parseArgs(args, {
      booleans: { '--no-ff': 'no-ff', '--ff': 'ff', '--ff-only': 'ff-only', '--abort': 'abort', '--no-edit': 'no-edit', '-q': 'quiet', '--quiet': 'quiet', '--stat': 'stat', '-n': 'no-stat', '--no-stat': 'no-stat' },
      values: { '-m': 'message', '--message': 'message' },
    })
    if (parsed.unknown) return unsupported(`git merge ${parsed.unknown}`)
    if (has(parsed, 'abort')) return abortMerge(ctx)
    if ((await unmergedPaths(ctx)).length > 0) {
      return fail(`error: Merging is not possible because you have unmerged files.
hint: Fix them up in the work tree, and then use 'git add/rm <file>'
hint: as appropriate to mark resolution and make a commit.
fatal: Exiting because of an unresolved conflict.`, 128)
    }
    if (await ctx.fs.exists(`${ctx.gitdir}/MERGE_HEAD`)) {
      return fatal('You have not concluded your merge (MERGE_HEAD exists).\nPlease, commit your changes before you merge.')
    }
    const names = [...parsed.positional, ...parsed.paths]
    if (names.length === 0) return fatal('No remote for the current branch.')
    if (names.length > 1) return unsupported('git merge of more than one commit (octopus)')
    const name = names[0]!
    const theirs = await resolveCommit(ctx, name)
    if (theirs === null) return fail(`merge: ${name} - not something we can merge`)
    const head = await headOid(ctx)
    if (head === null) return unsupported('git merge into a branch without commits')
    const branch = await currentBranch(ctx)
    const [base] = await git.findMergeBase({ ...repoArgs(ctx), oids: [head, theirs] })
    if (base === undefined) return fatal('refusing to merge unrelated histories')
    if (base === theirs) return ok('Already up to date.\n')
    const quiet = has(parsed, 'quiet')
    const stat = async (from: string, to: string) => {
      if (quiet || has(parsed, 'no-stat')) return ''
      const changes = await collectChanges(objectSide(ctx, await treeEntries(ctx, from)), objectSide(ctx, await treeEntries(ctx, to)))
      return formatStat(changes) + formatSummary(changes)
    }
    if (base === head && !has(parsed, 'no-ff')) {
      const updating = `Updating ${head.slice(0, 7)}..${theirs.slice(0, 7)}\n`
      const blocked = await checkoutTree(ctx, await treeEntries(ctx, head), await treeEntries(ctx, theirs), false)
      if (blocked.overwritten.length > 0 || blocked.untracked.length > 0) return { stdout: updating, stderr: blockedMessage(blocked, 'merge'), exitCode: 1 }
      await moveBranch(ctx, branch, head, theirs)
      return ok(quiet ? '' : `${updating}Fast-forward\n${await stat(head, theirs)}`)
    }
    if (has(parsed, 'ff-only')) return fatal('Not possible to fast-forward, aborting.')
    return threeWay(ctx, { head, theirs, base, name, branch, message: value(parsed, 'message'), quiet, stat })
  },
}

type ThreeWay = {
  head: string
  theirs: string
  base: string
  name: string
  branch: string | null
  message: string | undefined
  quiet: boolean
  stat(from: string, to: string): Promise<string>
}

async function threeWay(ctx: GitContext, m: ThreeWay): Promise<GitOutput> {
  const [baseTree, ourTree, theirTree] = await Promise.all([m.base, m.head, m.theirs].map((oid) => treeEntries(ctx, oid)))
  // Files both sides changed are merged line by line ("Auto-merging"); local edits to any file the merge changes block it.
  const touched = [...new Set([...theirTree!.keys(), ...ourTree!.keys()])].filter((p) => !sameEntry(ourTree!.get(p), theirTree!.get(p)) && !sameEntry(baseTree!.get(p), theirTree!.get(p)))
  const index = await indexEntries(ctx)
  const work = await workdirEntries(ctx)
  const dirty = touched.filter((p) => !sameEntry(index.get(p), ourTree!.get(p)) || (index.has(p) && !sameEntry(work.get(p), index.get(p))))
  const untracked: string[] = []
  for (const p of touched) if (!ourTree!.has(p) && !index.has(p) && (await ctx.fs.exists(`${ctx.dir}/${p}`))) untracked.push(p)
  if (dirty.length > 0 || untracked.length > 0) return fail(`${blockedMessage({ overwritten: dirty, untracked }, 'merge')}Merge with strategy ort failed.`, 2)
  const autoMerging = touched.filter((p) => ourTree!.has(p) && theirTree!.has(p) && !sameEntry(baseTree!.get(p), ourTree!.get(p))).sort()
  const author = await identity(ctx, 'author')
  const committer = await identity(ctx, 'committer')
  const message = m.message ?? defaultMessage(m.name, m.branch)
  const log = autoMerging.map((p) => `Auto-merging ${p}\n`).join('')
  try {
    const result = await git.merge({
      ...repoArgs(ctx),
      ours: m.head,
      theirs: m.theirs,
      fastForward: false,
      noUpdateBranch: true,
      abortOnConflict: false,
      message: `${message}\n`,
      author,
      committer,
    })
    const merged = result.oid
    if (merged === undefined) return fatal('the merge made no commit')
    // isomorphic-git wrote the merged index but not the work tree: bring the changed paths out.
    const mergedTree = await treeEntries(ctx, merged)
    const changed = [...new Set([...ourTree!.keys(), ...mergedTree.keys()])].filter((p) => !sameEntry(ourTree!.get(p), mergedTree.get(p)))
    await writeEntries(ctx, new Map(changed.map((p) => [p, mergedTree.get(p)])))
    await moveBranch(ctx, m.branch, m.head, merged)
    return ok(m.quiet ? '' : `${log}Merge made by the 'ort' strategy.\n${await m.stat(m.head, merged)}`)
  } catch (error) {
    if (!(error instanceof Errors.MergeConflictError)) throw error
    const conflicts = await recordConflict(ctx, { head: m.head, theirs: m.theirs, name: m.name, message, error, ourLabel: m.head, theirLabel: m.theirs })
    await writeConflictIndex(ctx, { base: baseTree!, ours: ourTree!, theirs: theirTree! }, error.data.filepaths)
    return { stdout: `${log}${conflicts}Automatic merge failed; fix conflicts and then commit the result.\n`, stderr: '', exitCode: 1 }
  }
}

/** git's message: "Merge branch 'x'" (plus " into y" off main/master), or "Merge commit 'x'". */
function defaultMessage(name: string, branch: string | null): string {
  const what = /^[0-9a-f]{7,40}$/.test(name) || /[~^]/.test(name) ? `commit '${name}'` : `branch '${name}'`
  return branch === null || branch === 'main' || branch === 'master' ? `Merge ${what}` : `Merge ${what} into ${branch}`
}

async function moveBranch(ctx: GitContext, branch: string | null, from: string, to: string): Promise<void> {
  await ctx.fs.writeFile(`${ctx.gitdir}/ORIG_HEAD`, `${from}\n`)
  await git.writeRef({ ...repoArgs(ctx), ref: branch === null ? 'HEAD' : `refs/heads/${branch}`, value: to, force: true })
}
