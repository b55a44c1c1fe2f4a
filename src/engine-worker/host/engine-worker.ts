/**
 * The engine worker's entry, kept small so that the start-up reads its name asks for
 * (worker-start-reads.ts) begin the moment the worker runs. The engine's host (engine-host.ts: providers,
 * sign-in, the host loop; 64 KB) is fetched and parsed while IndexedDB answers, 30-70 ms on a busy
 * two-core machine that the reads no longer wait for. The page's calls that arrive before the
 * host is in are held, in order (held-messages.ts). The page's reads of the session store may be
 * served here too (SERVE_SESSIONS): the store holds the session read at start-up, the engine's
 * commits are written to it here (worker-session-writes.ts), and this worker is already running.
 */
import { holdMessages } from './held-messages.ts'
import { startReadsNamed } from './worker-start-reads.ts'
import { SERVE_SESSIONS } from '../../shared/messages/start-reads-message.ts'
import { markPhase, markStartUp } from '../../shared/start-up-timeline.ts'

// The worker's thread began at its time origin; its script runs now.
performance.mark('fxterm:worker-thread', { startTime: 0 })
markStartUp('worker-runs')

const scope = self as unknown as Parameters<typeof holdMessages>[0]
startReadsNamed(scope, { name: self.name })
// Added before the held messages' listener, so the engine's Comlink never sees this message.
scope.addEventListener('message', (event) => {
  const data = (event as MessageEvent<{ type?: unknown; port?: unknown } | null>).data
  if (data?.type !== SERVE_SESSIONS || !(data.port instanceof MessagePort)) return
  event.stopImmediatePropagation()
  const port = data.port
  void serving.then(({ serveSessionStore }) => serveSessionStore(port))
})
const held = holdMessages(scope)
markPhase('worker-host-module', 'start')
import('./engine-host.ts').then(
  ({ exposeEngine }) => {
    markPhase('worker-host-module', 'end')
    exposeEngine(held)
  },
  // The page learns of it as of any worker script that fails: an error event on its Worker.
  (error: unknown) => setTimeout(() => {
    throw error
  }),
)
// Fetched now, after the host (it is 1 KB): the page's first commit should not wait for it.
// Where it cannot load, the page's calls go unanswered and its store reports them (guard-store.ts).
const serving = import('../stores/session-store-api.ts')
serving.catch(() => {})
