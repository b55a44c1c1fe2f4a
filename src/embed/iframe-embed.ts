/**
 * embed.html: fxterm in an iframe, driven from the embedding page by postMessage.
 *
 *   <iframe src="https://fxterm.example/embed.html?demo=tape.json&files=seed.zip&origins=https://docs.example.com"></iframe>
 *
 * Messages in (only from an origin on the `origins` allow-list; `self` means the embed's own):
 *   {fxterm: 1, type: 'run', text}    sends `text` as a prompt
 *   {fxterm: 1, type: 'type', text}   types `text` into the composer without sending it
 *   {fxterm: 1, type: 'reset'}        starts a new conversation (/new)
 * Messages out (posted only to allowed origins):
 *   {fxterm: 1, type: 'ready'}                   the composer takes keys
 *   {fxterm: 1, type: 'turn_end', stopReason}    a turn finished
 * Other parameters: `theme`, `namespace` (default `fxterm-embed`), `provider` (base URL), `model`.
 */
import '@xterm/xterm/css/xterm.css'
import { mountFxTerminal } from './mount-terminal.ts'
import { createBashWorkspace } from '../workspace/create-bash-workspace.ts'
import { openDeferredStores } from '../start-up/page-deferred-stores.ts'
import { themeMode } from '../page/themes.ts'
import { allowedOrigins, readEmbedMessage } from './embed-messages.ts'

const params = new URLSearchParams(location.search)
const allowed = allowedOrigins(params.get('origins'), location.origin)
const post = (message: Record<string, unknown>) => {
  if (window.parent === window) return
  // Each allowed origin gets it only if the parent is that origin (the browser checks).
  for (const origin of allowed) window.parent.postMessage({ fxterm: 1, ...message }, origin)
}

const container = document.getElementById('terminal')!
const namespace = params.get('namespace') ?? 'fxterm-embed'
const { stores } = openDeferredStores({ namespace })
const files = params.get('files')
const demo = params.get('demo')
const provider = params.get('provider')
const model = params.get('model')
const { term, runtime } = mountFxTerminal(container, {
  theme: themeMode(params.get('theme')),
  onTheme: (_name, theme) => (document.body.style.background = theme.background ?? ''),
  workspace: createBashWorkspace(files ? { filesUrl: new URL(files, location.href).href } : {}),
  namespace,
  configStore: stores.config,
  promptHistoryStore: stores.history,
  ...(demo ? { demoTapeUrl: new URL(demo, location.href).href } : {}),
  ...(provider || model ? { provider: { ...(provider ? { baseUrl: provider } : {}), ...(model ? { model } : {}) } } : {}),
  onEvent: (event) => {
    if (event.type === 'turn_end') post({ type: 'turn_end', stopReason: event['stopReason'] ?? null })
  },
})
Object.assign(window, { fxterm: { term, runtime } })
void runtime.interactive.then(() => post({ type: 'ready' }))

window.addEventListener('message', (event) => {
  if (!allowed.includes(event.origin)) return
  const message = readEmbedMessage(event.data)
  if (!message) return
  if (message.type === 'run') runtime.write(`${message.text.replace(/\r?\n/g, '\x1b[13;2u')}\r`)
  else if (message.type === 'type') runtime.write(message.text)
  else runtime.write('\x15/new\r') // Ctrl+U clears a draft first
})
