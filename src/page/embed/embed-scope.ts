/**
 * Whose storage an iframe embed uses. Its `namespace` parameter alone is chosen by whoever wrote
 * the iframe tag, so a page of another origin could name the main page's (`fxterm`) and read or
 * change its settings, history and sessions, and talk on its tab channel. The embed's scope is
 * therefore the origin that embeds it as well as the namespace: every database, the tab channel,
 * the Web Lock names and the type-ahead frame key all derive from the scoped name.
 *
 * The embedding origin comes from `location.ancestorOrigins` (Chromium, Safari: the nearest
 * ancestor of another origin counts, not only the parent), else from `document.referrer`
 * (Firefox: the parent only). A frame whose parent's origin cannot be known (no ancestor
 * origins and no referrer, or an opaque parent) gets a scope of its own for this load only and
 * keeps nothing: it must never fall back to the top-level page's scope.
 */

/** What the embed can see of where it runs. */
export type EmbedView = {
  /** This document's origin. */
  self: string
  /** False when the embed is the top-level page. */
  framed: boolean
  /** `location.ancestorOrigins` where the browser has it, nearest first. */
  ancestorOrigins?: ArrayLike<string> | undefined
  /** `document.referrer`. */
  referrer: string
}

/** Where the embed keeps things. */
export type EmbedScope = {
  /** The namespace the stores, locks and tab channel use. */
  namespace: string
  /** The origin of the page that embeds this one (its own when top-level); null when unknown. */
  embedder: string | null
  /** False when nothing may be stored (the embedder is unknown). */
  persistent: boolean
}

/** `text`'s origin when it is an http(s) URL or origin, else null (`null`, opaque, junk). */
function httpOrigin(text: string | undefined): string | null {
  if (!text) return null
  try {
    const url = new URL(text)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null
  } catch {
    return null
  }
}

/** The origin of the page that embeds this one: itself when top-level, null when unknowable. */
export function embeddingOrigin(view: EmbedView): string | null {
  if (!view.framed) return view.self
  // ancestorOrigins is the browser's own record; a referrer is only where the navigation came from.
  if (view.ancestorOrigins && view.ancestorOrigins.length > 0) return httpOrigin(view.ancestorOrigins[0])
  return httpOrigin(view.referrer)
}

/**
 * The origin whose scope the embed uses: the nearest ancestor of another origin (a page of this
 * origin framed by a foreign one, which could load any embed URL, is no more trusted than the
 * foreign page), this origin when every ancestor is this origin, null when one cannot be known.
 * Without ancestorOrigins only the parent is known (its referrer).
 */
function scopeOrigin(view: EmbedView): string | null {
  if (!view.framed) return view.self
  if (!view.ancestorOrigins || view.ancestorOrigins.length === 0) return httpOrigin(view.referrer)
  for (let i = 0; i < view.ancestorOrigins.length; i++) {
    const origin = httpOrigin(view.ancestorOrigins[i])
    if (origin !== view.self) return origin
  }
  return view.self
}

/**
 * The scope of an embed asked for `namespace`. Embedded by its own origin (or opened directly)
 * it is the namespace as given, as before. Embedded by another origin it is
 * `<encoded origin>@<namespace>`: the origin comes first and is percent-encoded (no `@` in it), so
 * no namespace one origin can ask for ever names another origin's scope or a same-origin one.
 * An unknown embedder gets a name no one else can have (`random`), and stores nothing.
 */
export function embedScope(namespace: string, view: EmbedView, random: () => string = () => crypto.randomUUID()): EmbedScope {
  const embedder = embeddingOrigin(view)
  const owner = scopeOrigin(view)
  if (owner === view.self) return { namespace, embedder, persistent: true }
  if (owner === null) return { namespace: `unknown-embedder-${random()}@${namespace}`, embedder, persistent: false }
  return { namespace: `${encodeURIComponent(owner)}@${namespace}`, embedder, persistent: true }
}
