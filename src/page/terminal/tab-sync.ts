/**
 * What one tab tells the other tabs of the same page (`BroadcastChannel('fxterm:<namespace>')`):
 * a setting it saved, that the saved sessions changed, that the person signed out. A tab never
 * receives its own messages. Without BroadcastChannel the tabs simply do not hear each other.
 */

import { asTabMessage, type TabMessage } from '../../shared/messages/tab-messages.ts'
export { asTabMessage, type TabMessage } from '../../shared/messages/tab-messages.ts'

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
