// The README's "Headless agent API" example, run as it is written: only its import is replaced
// (by the same exports from src/index.ts), its model server by the mock, and the names it leaves
// to the reader (orders, out, userId) are given here.
import 'fake-indexeddb/auto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import * as fxterm from '../index.ts'
import { engineModule, reply, startMock, toolCalls, type Mock } from './test-support.ts'

let mock: Mock
beforeAll(async () => {
  mock = await startMock()
})
afterAll(() => mock.close())

/** The first ```ts block of the README's "Headless agent API" section. */
function readmeExample(): string {
  const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8')
  const section = readme.slice(readme.indexOf('## Headless agent API'))
  const start = section.indexOf('```ts\n') + 6
  return section.slice(start, section.indexOf('\n```', start))
}

it("the README's agent example runs: a tool call, streamed text and a result", async () => {
  await mock.script(toolCalls(['get_order', '{"id":"7"}']), reply('Order 7 has shipped.'))
  const source = readmeExample()
    .replace(/^import \{ createFxAgent, indexedDb \} from 'fxterm'.*$/m, '')
    .replace("'http://localhost:11434/v1'", 'baseUrl')
    .replace("model: 'llama3.2',", "model: 'llama3.2', wasm,")
  expect(source).toContain('createFxAgent({')
  const appended: string[] = []
  const orders = { get: async (id: string) => ({ id, status: 'shipped' }) }
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<unknown>
  const run = new AsyncFunction('createFxAgent', 'indexedDb', 'baseUrl', 'wasm', 'orders', 'out', 'userId', `${source}\nreturn { stopReason, usage, error }`)
  const result = await run(fxterm.createFxAgent, fxterm.indexedDb, mock.baseUrl, engineModule(), orders, { append: (text: string) => appended.push(text) }, 42)
  expect(result).toEqual({ stopReason: 'end_turn', usage: { inputTokens: 22, outputTokens: 10 }, error: undefined })
  expect(appended.join('')).toBe('Order 7 has shipped.')
  const [, second] = await mock.requests()
  expect(second!.messages.find((m) => m.role === 'tool')!.content).toBe('{"id":"7","status":"shipped"}')
})
