/** Bash worker side: the commits a push would send, newest first, for the person's question. */

import git from 'isomorphic-git'
import type { GitContext } from './git-context'

/** The most commits listed; a longer push says "and N more" from `total`. */
const LISTED = 50

/** Commits reachable from `local` but not `remote` (all of them when the remote has none). */
export async function commitsToSend(ctx: GitContext, local: string, remote: string): Promise<Array<{ oid: string; subject: string }>> {
  const repo = { fs: ctx.gitFs, dir: ctx.dir! }
  const known = /^0+$/.test(remote) ? null : remote
  const commits: Array<{ oid: string; subject: string }> = []
  const seen = new Set<string>()
  const queue = [local]
  while (queue.length > 0 && commits.length < LISTED) {
    const oid = queue.shift()!
    if (seen.has(oid) || oid === known) continue
    seen.add(oid)
    if (known && (await git.isDescendent({ ...repo, oid: known, ancestor: oid, depth: -1 }).catch(() => false))) continue
    const { commit } = await git.readCommit({ ...repo, oid }).catch(() => ({ commit: null }))
    if (!commit) continue
    commits.push({ oid, subject: commit.message.split('\n')[0] ?? '' })
    queue.push(...commit.parent)
  }
  return commits
}
