/**
 * Bash worker side: what fetch, pull, push and ls-remote share before they talk to a server:
 * which URL a remote name stands for, whether that URL and the person's proxy are usable, the
 * HTTP client for the transfer, and the once-per-session proxy notice to print.
 */

import git, { type HttpClient } from 'isomorphic-git'
import { fail, type GitContext, type GitOutput } from './git-context'
import { corsProxyOf, proxyNotice, refuseProxy } from './remote-config'
import { remoteHttp } from './remote-http'
import { MAX_CLONE_BYTES } from './remote-clone'
import { refuseRemoteUrl } from './remote-url'

export type RemoteTarget = {
  /** The remote's name, or null when a URL was given. */
  name: string | null
  url: string
  http: HttpClient
  /** The proxy notice, if this is the session's first use of the proxy; else ''. */
  notice: string
}

/** Whether `arg` is a URL rather than a remote's name (git's rule, roughly: it has a scheme or a colon). */
export function looksLikeUrl(arg: string): boolean {
  return arg.includes('://') || arg.includes(':')
}

/** The remote the current branch tracks (branch.<name>.remote), else `origin`. */
export async function defaultRemote(ctx: GitContext): Promise<string> {
  const repo = { fs: ctx.gitFs, dir: ctx.dir! }
  const branch = await git.currentBranch(repo).catch(() => undefined)
  const tracked = branch ? ((await git.getConfig({ ...repo, path: `branch.${branch}.remote` })) as string | undefined) : undefined
  return tracked ?? 'origin'
}

/** The target for a remote name or URL, or the output that refuses it. */
export async function remoteTarget(ctx: GitContext, nameOrUrl: string, forPush = false): Promise<RemoteTarget | GitOutput> {
  let name: string | null = null
  let url = nameOrUrl
  if (!looksLikeUrl(nameOrUrl)) {
    if (ctx.dir === null) return fail(`fatal: '${nameOrUrl}' does not appear to be a git repository`, 128)
    const repo = { fs: ctx.gitFs, dir: ctx.dir }
    const pushUrl = forPush ? ((await git.getConfig({ ...repo, path: `remote.${nameOrUrl}.pushurl` })) as string | undefined) : undefined
    const found = pushUrl ?? ((await git.getConfig({ ...repo, path: `remote.${nameOrUrl}.url` })) as string | undefined)
    if (found === undefined) return fail(`fatal: '${nameOrUrl}' does not appear to be a git repository (there is no remote of that name)`, 128)
    name = nameOrUrl
    url = found
  }
  const refusal = refuseRemoteUrl(url)
  if (refusal) return fail(refusal, 128)
  const proxy = await corsProxyOf(ctx)
  const badProxy = proxy === null ? null : refuseProxy(proxy)
  if (badProxy) return fail(badProxy, 128)
  const http = remoteHttp({
    proxy,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    maxResponseBytes: MAX_CLONE_BYTES,
    tooBig: () => `the answer from ${url} is bigger than ${MAX_CLONE_BYTES / (1024 * 1024)} MB, more than fxterm's git takes in one transfer`,
  })
  return { name, url, http, notice: proxy === null ? '' : proxyNotice(ctx, proxy) }
}

export function isOutput(value: RemoteTarget | GitOutput): value is GitOutput {
  return 'exitCode' in value
}
