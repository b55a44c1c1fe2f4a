/**
 * Bash worker side: HEAD's reflog lines for checkouts ("checkout: moving from main to dev"),
 * written as git writes them, so `git switch -` / `git checkout -` find the branch before.
 */

import type { GitContext } from './git-context'
import { identity } from './repo-identity'

const ZERO = '0'.repeat(40)

function zone(timezoneOffset: number): string {
  const east = -timezoneOffset
  const abs = Math.abs(east)
  return `${east < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`
}

export async function logCheckout(ctx: GitContext, fromOid: string | null, toOid: string | null, fromLabel: string, toLabel: string): Promise<void> {
  const who = await identity(ctx, 'committer')
  const path = `${ctx.gitdir}/logs/HEAD`
  const before = await ctx.fs.readFile(path).catch(() => '')
  await ctx.fs.mkdir(`${ctx.gitdir}/logs`, { recursive: true })
  const line = `${fromOid ?? ZERO} ${toOid ?? ZERO} ${who.name} <${who.email}> ${who.timestamp} ${zone(who.timezoneOffset)}\tcheckout: moving from ${fromLabel} to ${toLabel}\n`
  await ctx.fs.writeFile(path, before + line)
}

/** What `@{-1}` names: the branch (or commit) HEAD was on before the last checkout; null if none. */
export async function previousCheckout(ctx: GitContext): Promise<string | null> {
  const text = await ctx.fs.readFile(`${ctx.gitdir}/logs/HEAD`).catch(() => '')
  const lines = text.split('\n').reverse()
  for (const line of lines) {
    const match = /\tcheckout: moving from (.+) to (.+)$/.exec(line)
    if (match) return match[1]!
  }
  return null
}
