/**
 * A message endpoint over a worker's scope that holds the messages arriving before anyone
 * listens, and hands them, in order, to the first 'message' listener added (Comlink.expose's).
 * The engine worker's entry exposes the engine only once its host module has loaded, and the
 * page may call it before then.
 */
import type { Endpoint } from 'comlink'

type Scope = Pick<EventTarget, 'addEventListener' | 'removeEventListener'> & { postMessage(message: unknown, transfer: Transferable[]): void }

export function holdMessages(scope: Scope): Endpoint {
  let held: MessageEvent[] | null = []
  const hold = (event: Event) => held?.push(event as MessageEvent)
  scope.addEventListener('message', hold)
  return {
    postMessage: (message: unknown, transfer?: Transferable[]) => scope.postMessage(message, transfer ?? []),
    addEventListener(type: string, listener: EventListenerOrEventListenerObject) {
      scope.addEventListener(type, listener)
      if (type !== 'message' || held === null) return
      // Later messages reach the listener in later tasks, so these still come first.
      scope.removeEventListener('message', hold)
      const earlier = held
      held = null
      for (const event of earlier) {
        if (typeof listener === 'function') listener(event)
        else listener.handleEvent(event)
      }
    },
    removeEventListener: (type: string, listener: EventListenerOrEventListenerObject) => scope.removeEventListener(type, listener),
  }
}
