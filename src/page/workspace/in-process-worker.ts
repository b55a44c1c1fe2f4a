/**
 * For tests: a stand-in Worker that serves `api` over comlink on a MessageChannel in this thread,
 * so the adapter can be tested in Node, which has no Web Worker. `terminate()` closes the channel;
 * it cannot stop code that is already running, so tests simulate a stuck command with an API
 * that never answers instead.
 */

import { expose } from 'comlink'

export type InProcessWorker = Worker & { readonly terminated: boolean }

/** Serves `api` like `expose(api)` in a worker would. */
export function createInProcessWorker(api: object): InProcessWorker {
  const { port1, port2 } = new MessageChannel()
  expose(api, port2)
  let terminated = false
  const worker = {
    get terminated() {
      return terminated
    },
    postMessage: (message: unknown, transfer: Transferable[] = []) =>
      port1.postMessage(message, transfer),
    addEventListener: (type: string, listener: EventListener) =>
      port1.addEventListener(type, listener),
    removeEventListener: (type: string, listener: EventListener) =>
      port1.removeEventListener(type, listener),
    start: () => port1.start(),
    terminate: () => {
      terminated = true
      port1.close()
      port2.close()
    },
  }
  return worker as unknown as InProcessWorker
}
