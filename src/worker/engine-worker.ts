/**
 * The engine worker's entry, kept small so that the page's start-up reads (start-reads.ts) begin
 * the moment the worker runs. The engine's host (engine-host.ts: providers, sign-in, the host
 * loop, ~75 KB) is parsed while IndexedDB answers; before, the reads waited for it, 20-110 ms on
 * a busy two-core machine. The page's calls that arrive before the host is in are held, in order.
 */
import { holdMessages } from './held-messages.ts'
import { listenForStartReads } from './start-reads.ts'

// First: the page's start-up read request is this worker's, not the engine host's.
listenForStartReads(self, { name: self.name })
const held = holdMessages(self as unknown as Parameters<typeof holdMessages>[0])
import('./engine-host.ts').then(
  ({ exposeEngine }) => exposeEngine(held),
  // The page learns of it as of any worker script that fails: an error event on its Worker.
  (error: unknown) => setTimeout(() => {
    throw error
  }),
)
