/**
 * Bash worker side: which remote URLs fxterm's git will talk to, and the names git derives from
 * them. Only http(s): the tab can reach nothing else (no ssh, no git://), and a file:// or a
 * path would mean another repository in the workspace, which clone does not do yet. A URL with
 * `user:password@` is refused rather than used: its password would be stored in .git/config and
 * sent to any proxy on the way.
 */

/** The line that refuses `url`, or null when fxterm's git can use it. */
export function refuseRemoteUrl(url: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return `fatal: '${url}' is not an http(s) URL; fxterm's git reaches remotes only over http(s)`
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return `fatal: ${parsed.protocol.slice(0, -1)} URLs are not supported in fxterm's git; use an http(s) URL`
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return `fatal: '${withoutCredentials(url)}' has credentials in the URL; fxterm's git does not send them (remove the user:password@ part)`
  }
  return null
}

/** `url` with any `user:password@` replaced by `***@`, for messages. */
export function withoutCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1***@')
}

/** The directory `git clone <url>` makes: the last path segment without `.git` (git's "humanish" name). */
export function cloneDirectoryName(url: string): string {
  const path = url.replace(/[?#].*$/, '').replace(/\/+$/, '').replace(/\/\.git$/, '')
  const last = path.slice(path.lastIndexOf('/') + 1).replace(/\.git$/, '')
  return last === '' || last.includes(':') ? 'repository' : last
}
