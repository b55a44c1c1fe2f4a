/**
 * What one tab tells the other tabs of the same page over `BroadcastChannel('fxterm:<namespace>')`,
 * and the check every received message passes (another fxterm version may share the channel).
 * The page's end of the channel is src/page/terminal/tab-sync.ts.
 */

/** The messages tabs exchange. */
export type TabMessage =
  /** A setting this tab saved in the configStore; the others apply it without saving it again. */
  | { type: 'config'; id: string; value: string }
  /** A session was created or removed: a list on screen elsewhere is out of date. */
  | { type: 'sessions_changed' }
  /** The person signed out here; the others drop their credentials too. */
  | { type: 'signed_out' }
  /** The person signed in here; the others use the account too. */
  | { type: 'signed_in' }

/** `data` when it is a well-formed message (another fxterm version may share the channel). */
export function asTabMessage(data: unknown): TabMessage | null {
  if (typeof data !== 'object' || data === null) return null
  const m = data as Record<string, unknown>
  switch (m['type']) {
    case 'config':
      return typeof m['id'] === 'string' && typeof m['value'] === 'string' ? { type: 'config', id: m['id'], value: m['value'] } : null
    case 'sessions_changed':
    case 'signed_out':
    case 'signed_in':
      return { type: m['type'] }
    default:
      return null
  }
}
