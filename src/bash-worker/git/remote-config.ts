/**
 * Bash worker side: the settings the network subcommands read, and the proxy notice.
 * `http.corsProxy` comes, as git orders config, from `-c` first, then the repository's
 * .git/config, then $HOME/.gitconfig (where `git config --global` writes). The proxy is applied
 * by remote-http.ts, never by isomorphic-git (which would write it into the repository's
 * config on clone), so every network subcommand passes `corsProxy: ''` to isomorphic-git.
 */

import { configValue } from './repo-config'
import type { GitContext } from './git-context'
import { refuseRemoteUrl } from './remote-url'

/** `http.corsProxy` as git would resolve it (repo-config.ts), or null when none is set (or it is ''). */
export async function corsProxyOf(ctx: GitContext, gitdir: string | null = ctx.gitdir): Promise<string | null> {
  // A clone passes null: the repository it runs inside has no say over the new one.
  return (await configValue({ ...ctx, gitdir }, 'http.corsProxy')) || null
}

/** The refusal for a proxy URL fxterm's git will not use, or null. */
export function refuseProxy(proxy: string): string | null {
  const refusal = refuseRemoteUrl(proxy)
  return refusal === null ? null : `fatal: http.corsProxy: ${refusal.replace(/^fatal: /, '')}`
}

/**
 * The line said the first time a session's git goes through `proxy`, or '' after that: the
 * proxy reads every request and answer in full, credentials included.
 */
export function proxyNotice(ctx: GitContext, proxy: string): string {
  const key = `proxy ${proxy}`
  if (ctx.session.said.has(key)) return ''
  ctx.session.said.add(key)
  return `note: git goes through the CORS proxy ${proxy} (http.corsProxy); the proxy sees everything that passes through it, credentials included\n`
}
