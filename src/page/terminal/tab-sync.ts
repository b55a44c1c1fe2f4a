/**
 * What one tab tells the other tabs of the same page (`BroadcastChannel('fxterm:<namespace>')`):
 * a setting it saved, that the saved sessions changed, that the person signed out. A tab never
 * receives its own messages. Without BroadcastChannel the tabs simply do not hear each other.
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

/** The page's end of the channel. */
export type TabSync = {
  post(message: TabMessage): void
  /** Calls `listener` for each message from another tab; returns the unsubscribe function. */
  onMessage(listener: (message: TabMessage) => void): () => void
  close(): void
}

type ChannelFactory = new (name: string) => Pick<BroadcastChannel, 'postMessage' | 'close' | 'addEventListener' | 'removeEventListener'>

/** The channel of `namespace` (a null object where BroadcastChannel is missing, or for null). */
export function createTabSync(namespace: string, Channel: ChannelFactory | null = globalThis.BroadcastChannel ?? null): TabSync {
  if (!Channel) return { post() {}, onMessage: () => () => {}, close() {} }
  const channel = new Channel(`fxterm:${namespace}`)
  let closed = false
  return {
    post(message) {
      if (closed) return
      try {
        channel.postMessage(message)
      } catch {
        // A channel closed by the browser (the page is going away): nobody is left to tell.
      }
    },
    onMessage(listener) {
      const handle = (event: Event) => {
        const message = asTabMessage((event as MessageEvent).data)
        if (message) listener(message)
      }
      channel.addEventListener('message', handle)
      return () => channel.removeEventListener('message', handle)
    },
    close() {
      closed = true
      channel.close()
    },
  }
}

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
