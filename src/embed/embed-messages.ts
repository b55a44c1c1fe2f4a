/**
 * The iframe embed's message rules, kept pure for tests: which origins may drive it, and which
 * messages it accepts. Anything else is ignored without a word (a page cannot probe it).
 */

export type EmbedMessage = { type: 'run'; text: string } | { type: 'type'; text: string } | { type: 'reset' }

/** Longest text a message may carry (a paste is bigger than a prompt, and both fit). */
const MAX_TEXT = 1 << 20

/**
 * The `origins` parameter: comma-separated origins, `self` for the embed's own. Entries that are
 * not an http(s) origin exactly (a path, a wildcard, `null`) are dropped. Default: `self`.
 */
export function allowedOrigins(param: string | null, self: string): string[] {
  const out = new Set<string>()
  for (const raw of (param ?? 'self').split(',')) {
    const entry = raw.trim()
    if (entry === 'self') {
      out.add(self)
      continue
    }
    try {
      const url = new URL(entry)
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin === entry.replace(/\/$/, '')) out.add(url.origin)
    } catch {
      // not an origin
    }
  }
  return [...out]
}

/** The message when `data` is one the embed understands, else null. */
export function readEmbedMessage(data: unknown): EmbedMessage | null {
  if (typeof data !== 'object' || data === null) return null
  const { fxterm, type, text } = data as Record<string, unknown>
  if (fxterm !== 1) return null
  if (type === 'reset') return { type }
  if ((type === 'run' || type === 'type') && typeof text === 'string' && text.length <= MAX_TEXT) {
    // Control characters other than newline and tab would be keys: a message types text only.
    return { type, text: text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '') }
  }
  return null
}
