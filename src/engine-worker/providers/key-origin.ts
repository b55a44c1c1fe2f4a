/**
 * The one rule that binds a saved key to a place: a key is sent only to the exact origin
 * (scheme, host and port) it was saved for. Names are not places: a provider named `openai` by a
 * URL parameter at `https://openai/v1` is not OpenAI, and neither is `api.openai.com.evil.test`.
 */

/** `url`'s origin as the URL parser normalizes it (lower-case host, default port dropped); undefined when it is not an http(s) URL. */
export function originOf(url: string): string | undefined {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return undefined
  }
  // Credentials in the authority (`https://api.openai.com@other/`) name another host than they seem to.
  if (parsed.username !== '' || parsed.password !== '') return undefined
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined
  return parsed.origin
}

/** True when a request to `requestUrl` may carry a key saved for `savedOrigin`. */
export function keyMayGoTo(savedOrigin: string | undefined, requestUrl: string): boolean {
  if (savedOrigin === undefined) return false
  const origin = originOf(requestUrl)
  return origin !== undefined && origin === originOf(savedOrigin)
}
