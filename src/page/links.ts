/**
 * Clickable links: OSC 8 hyperlinks (the engine writes them for http/https Markdown links) and
 * bare URLs in the text (the web-links addon). Only http and https open, always in a new tab with
 * `noopener`; any other scheme (javascript:, data:, file:…) stays plain text, whatever the
 * model or a command printed.
 */
import type { ILinkHandler, Terminal } from '@xterm/xterm'
import { WebLinksAddon } from '@xterm/addon-web-links'

type Open = (url: string, target: string, features: string) => unknown

/** The URL when it is http(s), else null. */
export function safeLinkUrl(text: string): string | null {
  try {
    const url = new URL(text)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null
  } catch {
    return null
  }
}

/** Opens `text` in a new tab if it is an http(s) URL; `open` is `window.open` by default. */
export function openSafeLink(text: string, open: Open = (u, t, f) => window.open(u, t, f)): boolean {
  const url = safeLinkUrl(text)
  if (url === null) return false
  open(url, '_blank', 'noopener,noreferrer')
  return true
}

/** xterm.js's handler for OSC 8 links: http(s) only, opened with noopener. */
export function safeLinkHandler(open?: Open): ILinkHandler {
  return { activate: (_event, text) => void openSafeLink(text, open), allowNonHttpProtocols: false }
}

/**
 * Makes http(s) links in `term` clickable (OSC 8 ones too, unless the terminal was constructed
 * with a `linkHandler` already); returns a function that undoes it.
 */
export function attachLinks(term: Terminal, open?: Open): () => void {
  term.options.linkHandler ??= safeLinkHandler(open)
  const addon = new WebLinksAddon((_event, uri) => void openSafeLink(uri, open))
  term.loadAddon(addon)
  return () => {
    addon.dispose()
    term.options.linkHandler = null
  }
}
