/**
 * The headless agent example (public/examples/agent.html): streams a reply into a <pre>, and
 * survives a reload mid-turn. Every line of the session's stream is shown from cursor 0, so a
 * reloaded page draws what was stored and then follows the turn as it continues.
 */
import { createFxAgent } from '../agent-api/create-fx-agent.ts'
import { indexedDb } from '../agent-api/durability.ts'
import type { FxStreamLine } from '../../shared/agent-api/types.ts'

const params = new URL(location.href).searchParams
const baseUrl = params.get('baseUrl')
const model = params.get('model') ?? undefined
const sessionId = params.get('session') ?? 'example'

const agent = createFxAgent({
  ...(baseUrl ? { provider: { name: 'example', baseUrl, ...(model ? { models: { [model]: {} } } : {}) } } : { provider: 'demo' }),
  ...(model ? { model } : {}),
  instructions: 'Answer briefly.',
  durability: indexedDb({ namespace: 'agent-example' }),
  // This page sits one folder down from the app's files.
  wasm: new URL('../engine.wasm', location.href).href,
  demoTapeUrl: new URL('../demos/tour.json', location.href).href,
})
const session = agent.session(sessionId)

const out = document.getElementById('out')!
const state = document.getElementById('state')!
const setState = (value: string) => {
  state.dataset['state'] = value
  state.textContent = value
}

function show(line: FxStreamLine): void {
  if (line.type === 'turn_start' || line.type === 'turn_resume') setState(line.type === 'turn_resume' ? 'resumed' : 'running')
  if (line.type === 'user_message') out.append(`${out.textContent ? '\n\n' : ''}❯ ${line.text}\n\n`)
  if (line.type === 'text_delta') out.append(line.delta)
  if (line.type === 'tool_start') out.append(`\n[${line.name}]\n`)
  if (line.type === 'turn_end') setState(`done: ${line.stopReason}`)
}

async function follow(): Promise<void> {
  const reader = session.stream(0).pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>).getReader()
  let rest = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    const parts = (rest + value).split('\n')
    rest = parts.pop()!
    for (const part of parts) show(JSON.parse(part) as FxStreamLine)
  }
}

void follow()
// A turn the last page left open goes on (the model is told it was interrupted).
void session.resume()

document.getElementById('ask')!.addEventListener('submit', (event) => {
  event.preventDefault()
  const input = document.getElementById('prompt') as HTMLInputElement
  const text = input.value.trim()
  if (!text) return
  input.value = ''
  session.prompt(text)
})

Object.assign(window, { fxagent: { agent, session } })
