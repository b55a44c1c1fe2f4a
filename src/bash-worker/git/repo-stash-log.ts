/**
 * Bash worker side: refs/stash and its reflog, where git keeps the stash list (stash@{0} is the
 * newest line). Entries are added and dropped here exactly as native git writes them, so a
 * repository moved between fxterm and git keeps its stashes.
 */

import git from 'isomorphic-git'
import type { GitContext } from './git-context'
import type { Person as Identity } from './repo-identity'
import { repoArgs, stashLog } from './repo-revisions'

const LOG = (ctx: GitContext) => `${ctx.gitdir}/logs/refs/stash`
const ZERO = '0'.repeat(40)

function zone(timezoneOffset: number): string {
  const east = -timezoneOffset
  const abs = Math.abs(east)
  return `${east < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`
}

export async function pushStash(ctx: GitContext, oid: string, message: string, who: Identity): Promise<void> {
  const log = LOG(ctx)
  const before = await ctx.fs.readFile(log).catch(() => '')
  const previous = (await stashLog(ctx))[0]?.oid ?? ZERO
  await ctx.fs.mkdir(log.slice(0, log.lastIndexOf('/')), { recursive: true })
  await ctx.fs.writeFile(log, `${before}${previous} ${oid} ${who.name} <${who.email}> ${who.timestamp} ${zone(who.timezoneOffset)}\t${message}\n`)
  await git.writeRef({ ...repoArgs(ctx), ref: 'refs/stash', value: oid, force: true })
}

/** Removes stash@{n}; refs/stash then names the newest left, or goes with the log when none is. */
export async function dropStash(ctx: GitContext, n: number): Promise<void> {
  const lines = (await ctx.fs.readFile(LOG(ctx))).split('\n').filter((line) => line !== '')
  const at = lines.length - 1 - n
  lines.splice(at, 1)
  // As `git reflog delete --rewrite`: the next entry's old id becomes the one before it.
  if (lines[at] !== undefined) {
    const fields = lines[at]!.split(' ')
    fields[0] = at === 0 ? ZERO : lines[at - 1]!.split(' ')[1]!
    lines[at] = fields.join(' ')
  }
  if (lines.length === 0) {
    await ctx.fs.rm(LOG(ctx), { force: true })
    await git.deleteRef({ ...repoArgs(ctx), ref: 'refs/stash' })
    return
  }
  await ctx.fs.writeFile(LOG(ctx), `${lines.join('\n')}\n`)
  await git.writeRef({ ...repoArgs(ctx), ref: 'refs/stash', value: lines.at(-1)!.split(' ')[1]!, force: true })
}
