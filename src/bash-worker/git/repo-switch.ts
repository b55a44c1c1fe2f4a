/**
 * Bash worker side: what switch and checkout share — moving HEAD to a branch (new or old) or
 * to a detached commit, the work tree with it, and the lines git prints about it.
 */

import git from 'isomorphic-git'
import { fail, type GitContext, type GitOutput } from './git-context'
import { oneLine } from './repo-commit-format'
import { collectChanges, formatNameStatus, objectSide, workdirSide } from './repo-diff'
import { treeEntries, workdirEntries } from './repo-entries'
import { logCheckout, previousCheckout } from './repo-head-log'
import { currentBranch, headOid, repoArgs, resolveCommit } from './repo-revisions'
import { blockedMessage, checkoutTree } from './repo-worktree'
import { unmergedPaths } from './repo-index-file'
import { needsMerge } from './repo-merge-state'

export type SwitchTarget =
  | { kind: 'branch'; name: string; create: false }
  | { kind: 'branch'; name: string; create: true; reset: boolean; start: string | null }
  | { kind: 'detach'; oid: string; label: string; advice: boolean }

export async function branchExists(ctx: GitContext, name: string): Promise<boolean> {
  return (await git.listBranches(repoArgs(ctx))).includes(name)
}

/** git's check for a branch name (the common cases of check-ref-format). */
export function validBranchName(name: string): boolean {
  return !/(^[-./]|\.\.|[\s~^:?*[\\]|@\{|\.lock$|\/$|\.$|\/\.)/.test(name) && name !== '@' && name !== 'HEAD'
}

const DETACHED_ADVICE = `You are in 'detached HEAD' state. You can look around, make experimental
changes and commit them, and you can discard any commits you make in this
state without impacting any branches by switching back to a branch.

If you want to create a new branch to retain commits you create, you may
do so (now or later) by using -c with the switch command. Example:

  git switch -c <new-branch-name>

Or undo this operation with:

  git switch -

Turn off this advice by setting config variable advice.detachedHead to false

`

export async function switchTo(ctx: GitContext, target: SwitchTarget, force: boolean): Promise<GitOutput> {
  const args = repoArgs(ctx)
  const fromBranch = await currentBranch(ctx)
  const fromOid = await headOid(ctx)
  let toOid: string | null
  if (target.kind === 'detach') toOid = target.oid
  else if (target.create) toOid = target.start ?? fromOid
  else toOid = await git.resolveRef({ ...args, ref: `refs/heads/${target.name}` })
  const unmerged = await unmergedPaths(ctx)
  if (unmerged.length > 0 && !force) return { stdout: needsMerge(unmerged), stderr: 'error: you need to resolve your current index first\n', exitCode: 1 }
  if (toOid !== fromOid || force) {
    const blocked = await checkoutTree(ctx, await treeEntries(ctx, fromOid), await treeEntries(ctx, toOid), force)
    if (blocked.overwritten.length > 0 || blocked.untracked.length > 0) return fail(blockedMessage(blocked, 'checkout'))
  }
  let stderr = ''
  if (fromBranch === null && fromOid !== null && toOid !== fromOid && !(target.kind === 'detach' && !target.advice)) {
    stderr += `Previous HEAD position was ${await oneLine(ctx, fromOid)}\n`
  }
  if (target.kind === 'detach') {
    await git.writeRef({ ...args, ref: 'HEAD', value: target.oid, force: true })
    if (target.advice && fromBranch !== null) stderr += `Note: switching to '${target.label}'.\n\n${DETACHED_ADVICE}`
    stderr += `HEAD is now at ${await oneLine(ctx, target.oid)}\n`
  } else {
    const existed = await branchExists(ctx, target.name)
    if (target.create && toOid !== null) await git.writeRef({ ...args, ref: `refs/heads/${target.name}`, value: toOid, force: true })
    await git.writeRef({ ...args, ref: 'HEAD', value: `refs/heads/${target.name}`, symbolic: true, force: true })
    if (target.create && existed) stderr += fromBranch === target.name ? `Reset branch '${target.name}'\n` : `Switched to and reset branch '${target.name}'\n`
    else if (target.create) stderr += `Switched to a new branch '${target.name}'\n`
    else if (fromBranch === target.name) stderr += `Already on '${target.name}'\n`
    else stderr += `Switched to branch '${target.name}'\n`
  }
  await logCheckout(ctx, fromOid, toOid, fromBranch ?? fromOid ?? 'HEAD', target.kind === 'detach' ? target.label : target.name)
  return { stdout: await localChanges(ctx, toOid), stderr, exitCode: 0 }
}

/** `-` as switch and checkout read it: the branch before the last checkout, or that commit. */
export async function previousTarget(ctx: GitContext): Promise<SwitchTarget | null> {
  const previous = await previousCheckout(ctx)
  if (previous === null) return null
  if (await branchExists(ctx, previous)) return { kind: 'branch', name: previous, create: false }
  const oid = await resolveCommit(ctx, previous)
  return oid === null ? null : { kind: 'detach', oid, label: previous, advice: true }
}

/** The "M\tpath" lines git prints after a switch for changes it carried along. */
export async function localChanges(ctx: GitContext, oid: string | null): Promise<string> {
  const tree = await treeEntries(ctx, oid)
  const work = await workdirEntries(ctx)
  return formatNameStatus(await collectChanges(objectSide(ctx, tree), workdirSide(ctx, work)))
}
