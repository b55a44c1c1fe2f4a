/**
 * `git reset [--soft|--mixed|--hard] [<commit>]` moves the branch (and the index, and the work
 * tree) to a commit; `git reset [<commit>] [--] <path>...` sets only those index entries.
 */

import git from 'isomorphic-git'
import { has, parseArgs } from '../git-args'
import { fatal, ok, unsupported, type GitContext, type GitSubcommand } from '../git-context'
import { oneLine } from '../repo-commit-format'
import { collectChanges, formatNameStatus, objectSide, repoPathspecs, workdirSide } from '../repo-diff'
import { indexEntries, treeEntries, workdirEntries } from '../repo-entries'
import { currentBranch, headOid, repoArgs, resolveCommit } from '../repo-revisions'
import { checkoutTree, setIndex } from '../repo-worktree'
import { ambiguous } from './diff'
import { clearMergeState, mergeInProgress } from '../repo-merge-state'

export const reset: GitSubcommand = {
  needsRepo: true,
  async run(args, ctx) {
    const parsed = parseArgs(args, {
      booleans: { '--soft': 'soft', '--mixed': 'mixed', '--hard': 'hard', '-q': 'quiet', '--quiet': 'quiet' },
    })
    if (parsed.unknown) return unsupported(`git reset ${parsed.unknown}`)
    const modes = ['soft', 'mixed', 'hard'].filter((m) => has(parsed, m))
    if (modes.length > 1) return fatal('--soft, --mixed and --hard cannot be used together')
    let [rev, ...paths] = parsed.positional
    paths.push(...parsed.paths)
    let target: string | null = null
    if (rev !== undefined) {
      target = await resolveCommit(ctx, rev)
      if (target === null) {
        if (!(await ctx.fs.exists(ctx.fs.resolvePath(ctx.cwd, rev))) && parsed.paths.length === 0) return ambiguous(rev)
        if (target === null) paths = [rev, ...paths]
        rev = undefined
      }
    }
    const head = await headOid(ctx)
    target ??= head
    const quiet = has(parsed, 'quiet')
    if (paths.length > 0) {
      if (modes[0] === 'soft' || modes[0] === 'hard') return fatal(`Cannot do ${modes[0]} reset with paths.`)
      const specs = repoPathspecs(ctx, paths)
      if (specs === null) return fatal(`${paths[0]}: '${paths[0]}' is outside repository at '${ctx.dir}'`)
      await setIndex(ctx, await treeEntries(ctx, target), specs)
      return ok(quiet ? '' : await unstaged(ctx))
    }
    if (target === null && (modes[0] ?? 'mixed') !== 'soft') {
      // No commits yet: git resets to the empty tree (unstages all; --hard removes tracked files).
      if (modes[0] === 'hard') await checkoutTree(ctx, new Map(), new Map(), true)
      else await setIndex(ctx, new Map())
      return ok()
    }
    if (target === null) return ambiguous('HEAD')
    const mode = modes[0] ?? 'mixed'
    if (mode === 'soft' && (await mergeInProgress(ctx))) return fatal('Cannot do a soft reset in the middle of a merge.')
    await moveHead(ctx, head, target)
    if (mode !== 'soft') await clearMergeState(ctx)
    if (mode === 'hard') {
      await checkoutTree(ctx, await treeEntries(ctx, head), await treeEntries(ctx, target), true)
      return ok(quiet ? '' : `HEAD is now at ${await oneLine(ctx, target)}\n`)
    }
    if (mode === 'mixed') {
      await setIndex(ctx, await treeEntries(ctx, target))
      return ok(quiet ? '' : await unstaged(ctx))
    }
    return ok()
  },
}

/** Points the branch HEAD names (or HEAD itself when detached) at `target`; ORIG_HEAD keeps the old. */
async function moveHead(ctx: GitContext, from: string | null, target: string): Promise<void> {
  if (from !== null) await ctx.fs.writeFile(`${ctx.gitdir}/ORIG_HEAD`, `${from}\n`)
  const branch = await currentBranch(ctx)
  await git.writeRef({ ...repoArgs(ctx), ref: branch === null ? 'HEAD' : `refs/heads/${branch}`, value: target, force: true })
}

/** "Unstaged changes after reset:" and the index-to-work-tree changes, or nothing. */
async function unstaged(ctx: GitContext): Promise<string> {
  const changes = await collectChanges(objectSide(ctx, await indexEntries(ctx)), workdirSide(ctx, await workdirEntries(ctx)))
  const lines = formatNameStatus(changes)
  return lines === '' ? '' : `Unstaged changes after reset:\n${lines}`
}
