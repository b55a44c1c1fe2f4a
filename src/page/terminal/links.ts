/**
 * Clickable links: OSC 8 hyperlinks (the engine writes them for http(s) Markdown links and bare
 * URLs) and bare URLs in the text (the web-links addon). A link's text can lie about where it
 * goes (`[https://platform.openai.com/api-keys](https://elsewhere/)`), so:
 *
 * - a link whose visible text is itself its target opens at once;
 * - any other link (its text is words, or a different URL) shows its real target and asks first
 *   (link-dialog.ts);
 * - only http and https ever open, always in a new tab with `noopener`; any other scheme
 *   (javascript:, data:, file:…) does nothing, whatever the model or a command printed.
 */
import type { IBufferRange, ILinkHandler, Terminal } from '@xterm/xterm'
import { WebLinksAddon } from '@xterm/addon-web-links'
import { confirmLink } from './link-dialog.ts'

type Open = (url: string, target: string, features: string) => unknown
/** Asks the person whether to open `url`; `textDiffers`: the link's text is another URL. */
export type ConfirmLink = (url: string, textDiffers: boolean) => Promise<boolean>

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

/** What a click on a link does. */
export type LinkDecision = { action: 'open'; url: string } | { action: 'ask'; url: string; textDiffers: boolean } | { action: 'refuse' }

/**
 * The decision for a link showing `visible` and going to `target`: open when the text is the
 * target itself, refuse when the target is not http(s), ask otherwise (saying so when the text
 * is a URL of its own: that link is lying).
 */
export function decideLink(visible: string, target: string): LinkDecision {
  const url = safeLinkUrl(target)
  if (url === null) return { action: 'refuse' }
  const shown = safeLinkUrl(visible.trim())
  if (shown === url) return { action: 'open', url }
  return { action: 'ask', url, textDiffers: shown !== null }
}

/** Row `y` (1-based) of a buffer, cells `from` to `to` (0-based, end excluded; default the whole row). */
export type RowReader = { rows: number; read(y: number, from?: number, to?: number): string }

/**
 * The text a person sees for the link at `range` (one row: xterm.js gives each row of a link on
 * its own, and the engine closes a link at a row's end and opens it again on the next). A piece
 * that reaches its row's end is joined with the start of the next row, and one that starts its
 * row with the end of the previous, so a URL wrapped over rows reads whole. Only characters on
 * screen, in reading order, are joined: the result can equal a target only if the screen shows it.
 */
export function visibleLinkText(rows: RowReader, range: IBufferRange): string {
  let text = rows.read(range.start.y, range.start.x - 1, range.end.x)
  // Backwards: the piece starts its row (after indentation), and the row above runs to its end.
  for (let y = range.start.y, from = range.start.x - 1; y > 1; y--, from = 0) {
    if (rows.read(y, 0, from).trim() !== '') break
    const above = rows.read(y - 1).trim()
    const tail = /\S+$/.exec(above)?.[0] ?? ''
    if (tail === '') break
    text = tail + text
    if (tail.length < above.length) break
  }
  // Forwards: the piece ends its row, and the row below starts with more.
  for (let y = range.end.y, to = range.end.x; y < rows.rows; y++, to = Infinity) {
    if (rows.read(y, to).trim() !== '') break
    const below = rows.read(y + 1).trim()
    const head = /^\S+/.exec(below)?.[0] ?? ''
    if (head === '') break
    text += head
    if (head.length < below.length) break
  }
  return text
}

/** `term`'s active buffer as `visibleLinkText` reads it. */
function bufferRows(term: Terminal): RowReader {
  const buffer = term.buffer.active
  return {
    rows: buffer.length,
    read: (y, from = 0, to = Infinity) => {
      const line = buffer.getLine(y - 1)
      return line && from < to ? line.translateToString(false, from, Number.isFinite(to) ? to : undefined) : ''
    },
  }
}

/** Acts on a decision: opens, asks and then opens, or does nothing. */
async function follow(decision: LinkDecision, open: Open | undefined, confirm: ConfirmLink): Promise<void> {
  if (decision.action === 'refuse') return
  if (decision.action === 'ask' && !(await confirm(decision.url, decision.textDiffers))) return
  openSafeLink(decision.url, open)
}

/** xterm.js's handler for OSC 8 links: the decision above, on the text the link shows. */
export function safeLinkHandler(term: Terminal, open?: Open, confirm?: ConfirmLink): ILinkHandler {
  const ask = confirm ?? ((url, textDiffers) => confirmLink(term, url, textDiffers))
  return {
    activate: (_event, target, range) => void follow(decideLink(visibleLinkText(bufferRows(term), range), target), open, ask),
    allowNonHttpProtocols: false,
  }
}

/**
 * Makes http(s) links in `term` clickable: OSC 8 ones through `safeLinkHandler`, bare URLs
 * through the web-links addon (their text is their target, so they open at once). Returns a
 * function that undoes it.
 */
export function attachLinks(term: Terminal, open?: Open, confirm?: ConfirmLink): () => void {
  term.options.linkHandler = safeLinkHandler(term, open, confirm)
  const addon = new WebLinksAddon((_event, uri) => void openSafeLink(uri, open))
  term.loadAddon(addon)
  return () => {
    addon.dispose()
    term.options.linkHandler = null
  }
}
