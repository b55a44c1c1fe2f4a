/**
 * The engine worker's entry: one script with the host (engine-host.ts), which the browser fetches
 * as the page spawns the worker. worker-begin.ts comes first, so the start-up reads begin before
 * the host's modules are evaluated. The whole script runs in one task, and messages the page
 * posted meanwhile are delivered after it: the listeners below hear every one. The page's reads of
 * the session store may be served here too (SERVE_SESSIONS): the store holds the session read at
 * start-up, the engine's commits are written to it here (worker-session-writes.ts), and this
 * worker is already running.
 */
import './worker-begin.ts'
import type { Endpoint } from 'comlink'
import { exposeEngine } from './engine-host.ts'
import { serveSessionStore } from '../stores/session-store-api.ts'
import { SERVE_SESSIONS } from '../../shared/messages/start-reads-message.ts'
import { markPhase } from '../../shared/start-up-timeline.ts'

markPhase('worker-host-eval', 'end')
const scope = self as unknown as Endpoint
// Added before the engine's own listener, so the engine's Comlink never sees this message.
scope.addEventListener('message', (event) => {
  const data = (event as MessageEvent<{ type?: unknown; port?: unknown } | null>).data
  if (data?.type !== SERVE_SESSIONS || !(data.port instanceof MessagePort)) return
  event.stopImmediatePropagation()
  serveSessionStore(data.port)
})
exposeEngine(scope)
