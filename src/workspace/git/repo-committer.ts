/**
 * Bash worker side: who a commit made by merge or stash is by, and when — from GIT_AUTHOR_*
 * and GIT_COMMITTER_* in the shell's environment, else user.name/user.email from -c or the
 * repository's config, as git reads them; else "fxterm <fxterm@localhost>", the fallback
 * commit uses (the tab has no person's identity to ask for).
 * The same rules as repo-identity.ts on the git-a branch (commit/tag); once both land, one of
 * the two files can go.
 */

import git from 'isomorphic-git'
import type { GitContext } from './git-context'
import { repoArgs } from './repo-revisions'

export type Identity = { name: string; email: string; timestamp: number; timezoneOffset: number }

/** "1700000000 +0100" / "@1700000000 +0100" / anything Date parses; null when unreadable. */
export function parseGitDate(text: string): { timestamp: number; timezoneOffset: number } | null {
  const epoch = /^@?(\d+)(?:\s+([+-])(\d\d):?(\d\d))?$/.exec(text.trim())
  if (epoch) {
    const east = epoch[2] ? (epoch[2] === '-' ? -1 : 1) * (Number(epoch[3]) * 60 + Number(epoch[4])) : 0
    // `0 - 0` keeps a +0000 zone from becoming -0, which isomorphic-git writes as "-0000".
    return { timestamp: Number(epoch[1]), timezoneOffset: 0 - east }
  }
  const ms = Date.parse(text)
  return Number.isNaN(ms) ? null : { timestamp: Math.floor(ms / 1000), timezoneOffset: 0 }
}

async function config(ctx: GitContext, path: string): Promise<string | undefined> {
  if (ctx.configOverrides[path] !== undefined) return ctx.configOverrides[path]
  const found: unknown = await git.getConfig({ ...repoArgs(ctx), path }).catch(() => undefined)
  return typeof found === 'string' ? found : undefined
}

/** The author or committer of a commit made now. */
export async function identity(ctx: GitContext, role: 'AUTHOR' | 'COMMITTER'): Promise<Identity> {
  const name = ctx.env[`GIT_${role}_NAME`] ?? (await config(ctx, 'user.name')) ?? 'fxterm'
  const email = ctx.env[`GIT_${role}_EMAIL`] ?? (await config(ctx, 'user.email')) ?? 'fxterm@localhost'
  const date = ctx.env[`GIT_${role}_DATE`]
  const when = (date ? parseGitDate(date) : null) ?? { timestamp: ctx.nowSeconds(), timezoneOffset: 0 }
  return { name, email, ...when }
}
