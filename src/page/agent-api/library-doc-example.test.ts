// The "Headless agent API" example of docs/library.md, run as it is written: only its import is replaced
// (by the same exports from src/index.ts), its model server by the mock, and the names it leaves
// to the reader (orders, out, userId) are given here. Like the example, it passes no `wasm`:
// engine.wasm is found beside the module, as a `file:` URL in Node.
import 'fake-indexeddb/auto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import * as fxterm from '../../index.ts'
import { reply, startMock, toolCalls, type Mock } from '../../../test/support/agent-api.ts'

let mock: Mock
beforeAll(async () => {
  mock = await startMock()
})
afterAll(() => mock.close())

/** The first ```ts block of docs/library.md's "Headless agent API" section. */
function docExample(): string {
  const doc = readFileSync(fileURLToPath(new URL('../../../docs/library.md', import.meta.url)), 'utf8')
  const section = doc.slice(doc.indexOf('## Headless agent API'))
  const start = section.indexOf('```ts\n') + 6
  return section.slice(start, section.indexOf('\n```', start))
}

it("the library doc's agent example runs: a tool call, streamed text and a result", async () => {
  await mock.script(toolCalls(['get_order', '{"id":"7"}']), reply('Order 7 has shipped.'))
  const source = docExample()
    .replace(/^import \{ createFxAgent, indexedDb \} from 'fxterm'.*$/m, '')
    .replace("'http://localhost:11434/v1'", 'baseUrl')
  expect(source).toContain('createFxAgent({')
  const appended: string[] = []
  const orders = { get: async (id: string) => ({ id, status: 'shipped' }) }
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<unknown>
  const run = new AsyncFunction('createFxAgent', 'indexedDb', 'baseUrl', 'orders', 'out', 'userId', `${source}\nreturn { stopReason, usage, error }`)
  const result = await run(fxterm.createFxAgent, fxterm.indexedDb, mock.baseUrl, orders, { append: (text: string) => appended.push(text) }, 42)
  expect(result).toEqual({ stopReason: 'end_turn', usage: { inputTokens: 22, outputTokens: 10 }, error: undefined })
  expect(appended.join('')).toBe('Order 7 has shipped.')
  const [, second] = await mock.requests()
  expect(second!.messages.find((m) => m.role === 'tool')!.content).toBe('{"id":"7","status":"shipped"}')
})

it('with no wasm and no provider, the offline demo answers from the tape shipped beside the module', async () => {
  const agent = fxterm.createFxAgent({ provider: 'demo', worker: false })
  try {
    const turn = agent.session('demo-1').prompt("what's in this project?")
    let text = ''
    for await (const event of turn) if (event.type === 'text_delta') text += String(event['delta'])
    const { stopReason, error } = await turn.result
    expect({ stopReason, error }).toEqual({ stopReason: 'end_turn', error: undefined })
    expect(text.length).toBeGreaterThan(0)
  } finally {
    await agent.close()
  }
})
