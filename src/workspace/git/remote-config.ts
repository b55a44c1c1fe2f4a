/**
 * Bash worker side: the settings the network subcommands read, and the proxy notice.
 * `http.corsProxy` comes, as git orders config, from `-c` first, then the repository's
 * .git/config, then $HOME/.gitconfig (where `git config --global` writes). The proxy is applied
 * by remote-http.ts, never by isomorphic-git (which would write it into the repository's
 * config on clone), so every network subcommand passes `corsProxy: ''` to isomorphic-git.
 */

import { joinPath } from './git-command'
import type { GitContext } from './git-context'
import { refuseRemoteUrl } from './remote-url'

/** The value of `[section] name` in a git config file's text (the last one wins), or undefined. */
export function configFileValue(text: string, section: string, name: string): string | undefined {
  let inSection = false
  let found: string | undefined
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    const header = /^\[\s*([^\]\s"]+)\s*(?:"[^"]*")?\s*\]/.exec(line)
    if (header) {
      inSection = header[1]!.toLowerCase() === section.toLowerCase() && !/"/.test(line)
      continue
    }
    if (!inSection || line === '' || line.startsWith('#') || line.startsWith(';')) continue
    const eq = line.indexOf('=')
    const key = (eq === -1 ? line : line.slice(0, eq)).trim().toLowerCase()
    if (key !== name.toLowerCase()) continue
    found = eq === -1 ? 'true' : line.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1')
  }
  return found
}

async function fileText(ctx: GitContext, path: string): Promise<string> {
  return ctx.fs.readFile(path).catch(() => '')
}

/** `http.corsProxy` as git would resolve it, or null when none is set (or it is set to ''). */
export async function corsProxyOf(ctx: GitContext, gitdir: string | null = ctx.gitdir): Promise<string | null> {
  const override = Object.entries(ctx.configOverrides).find(([key]) => key.toLowerCase() === 'http.corsproxy')?.[1]
  if (override !== undefined) return override || null
  if (gitdir !== null) {
    const local = configFileValue(await fileText(ctx, joinPath(gitdir, 'config')), 'http', 'corsProxy')
    if (local !== undefined) return local || null
  }
  const global = configFileValue(await fileText(ctx, joinPath(ctx.env.HOME ?? '/home/user', '.gitconfig')), 'http', 'corsProxy')
  return global || null
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
