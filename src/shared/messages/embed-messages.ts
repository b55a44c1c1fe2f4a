/**
 * The iframe embed's message rules, kept pure for tests: who may drive it, which messages it
 * accepts, and which texts it refuses. Anything else is ignored without a word (a page cannot
 * probe it).
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

/** What the embed knows when a message arrives (see embed-scope.ts for `embedder`). */
export type MessageGate = {
  /** `window.parent`; the same as `self` when the embed is the top-level page. */
  parent: unknown
  self: unknown
  /** The `origins` allow-list (allowedOrigins). */
  allowed: readonly string[]
  /** The origin of the page that embeds this one, null when it cannot be known. */
  embedder: string | null
}

/**
 * Whether a message may drive the embed: it comes from the parent window itself (not a sibling
 * frame, a popup or an opener), and its origin is both on the allow-list and the embedding
 * page's. A list naming an origin that does not embed this frame grants that origin nothing.
 */
export function acceptsMessage(event: { source: unknown; origin: string }, gate: MessageGate): boolean {
  if (gate.parent === gate.self || event.source !== gate.parent) return false
  return gate.embedder !== null && event.origin === gate.embedder && gate.allowed.includes(event.origin)
}

/**
 * Why a `run` or `type` text is refused, or null when it may go. A text whose first character
 * (after spaces) is `/` would be a slash command once sent: commands change providers, keys,
 * sign-in and settings, so they take a person's own keystrokes inside the frame.
 */
export function refusalOf(message: EmbedMessage): string | null {
  if (message.type === 'reset' || !/^\s*\//.test(message.text)) return null
  return 'Slash commands are not taken from the embedding page: type them in the terminal.'
}
