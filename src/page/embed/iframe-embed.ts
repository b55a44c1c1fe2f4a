/**
 * embed.html: fxterm in an iframe, driven from the embedding page by postMessage.
 *
 *   <iframe src="https://fxterm.example/embed.html?demo=tape.json&files=seed.zip&origins=https://docs.example.com"></iframe>
 *
 * Messages in, only from the parent window, and only when its origin is on the `origins`
 * allow-list (`self` means the embed's own) and is the origin that actually embeds this frame:
 *   {fxterm: 1, type: 'run', text}    sends `text` as a prompt (never as keys)
 *   {fxterm: 1, type: 'type', text}   pastes `text` into the composer without sending it
 *   {fxterm: 1, type: 'reset'}        starts a new conversation (/new)
 * A `run` or `type` text that starts with `/` is refused: slash commands (providers, keys,
 * sign-in, settings) take a person's keystrokes in the frame.
 * Messages out (posted only to the embedding origin, when it is allowed):
 *   {fxterm: 1, type: 'ready'}                   the composer takes keys
 *   {fxterm: 1, type: 'turn_end', stopReason}    a turn finished
 *   {fxterm: 1, type: 'refused', request, message}  a `run` or `type` was refused, and why
 * Other parameters: `theme`, `namespace` (default `fxterm-embed`), `provider` (base URL), `model`.
 * Storage, settings, the tab channel and locks are the embedding origin's as well as the
 * namespace's (embed-scope.ts): another origin never reaches this origin's own pages' state.
 */
import '@xterm/xterm/css/xterm.css'
import { mountFxTerminal } from './mount-terminal.ts'
import { createBashWorkspace } from '../workspace/create-bash-workspace.ts'
import { openDeferredStores } from '../start-up/page-deferred-stores.ts'
import { themeMode } from '../terminal/themes.ts'
import { acceptsMessage, allowedOrigins, readEmbedMessage, refusalOf } from '../../shared/messages/embed-messages.ts'
import { embedScope } from './embed-scope.ts'
import { memoryConfigStore, memoryPromptHistoryStore } from '../stores/memory-stores.ts'

const params = new URLSearchParams(location.search)
const allowed = allowedOrigins(params.get('origins'), location.origin)
const scope = embedScope(params.get('namespace') ?? 'fxterm-embed', {
  self: location.origin,
  framed: window.parent !== window,
  ancestorOrigins: location.ancestorOrigins,
  referrer: document.referrer,
})
const gate = { parent: window.parent, self: window, allowed, embedder: scope.embedder }
const post = (message: Record<string, unknown>) => {
  if (window.parent === window || scope.embedder === null || !allowed.includes(scope.embedder)) return
  // The browser delivers it only if the parent still is that origin.
  window.parent.postMessage({ fxterm: 1, ...message }, scope.embedder)
}

const container = document.getElementById('terminal')!
const { namespace } = scope
// An embedder that cannot be known keeps nothing: its settings and history live in memory.
const opened = scope.persistent ? openDeferredStores({ namespace }) : null
const stores = opened?.stores ?? { config: memoryConfigStore(), history: memoryPromptHistoryStore() }
const files = params.get('files')
const demo = params.get('demo')
const provider = params.get('provider')
const model = params.get('model')
const { term, runtime } = mountFxTerminal(container, {
  theme: themeMode(params.get('theme')),
  onTheme: (_name, theme) => (document.body.style.background = theme.background ?? ''),
  workspace: createBashWorkspace(files ? { filesUrl: new URL(files, location.href).href } : {}),
  namespace,
  // The provisional first frame is kept in localStorage: not for a scope that keeps nothing.
  ...(scope.persistent ? {} : { typeAhead: false }),
  configStore: stores.config,
  promptHistoryStore: stores.history,
  ...(demo ? { demoTapeUrl: new URL(demo, location.href).href } : {}),
  ...(provider || model ? { provider: { ...(provider ? { baseUrl: provider } : {}), ...(model ? { model } : {}) } } : {}),
  onEvent: (event) => {
    if (event.type === 'turn_end') post({ type: 'turn_end', stopReason: event['stopReason'] ?? null })
  },
})
Object.assign(window, { fxterm: { term, runtime } })
// Storage that does not answer (or is blocked) leaves the stores in memory: the person is told.
void opened?.opening.then((result) => result.notice && runtime.notice(result.notice, 'warning'))
void runtime.interactive.then(() => post({ type: 'ready' }))

window.addEventListener('message', (event) => {
  if (!acceptsMessage(event, gate)) return
  const message = readEmbedMessage(event.data)
  if (!message) return
  const refusal = refusalOf(message)
  if (refusal !== null) post({ type: 'refused', request: message.type, message: refusal })
  else if (message.type === 'run') runtime.prompt(message.text)
  // A paste, so no character is a key: a tab completes nothing, a digit answers no question.
  else if (message.type === 'type') runtime.write(`\x1b[200~${message.text}\x1b[201~`)
  else {
    // Esc first, on its own (a lone ESC is the Escape key): it closes a menu or picker, declines
    // a waiting question and stops a turn, so the keys after it reach the composer. Then the
    // whole draft is selected and deleted, and /new runs.
    runtime.write('\x1b')
    runtime.write('\x1b[97;9u\x7f/new\r')
  }
})
