/**
 * What the agent API's tests share: the compiled engine, the mock model server on 127.0.0.1
 * (mock-servers/mock-model-server.mjs), agents pointed at it, and small readers for streams and turns.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { fileURLToPath } from 'node:url'
import { startMockModelServer } from '../../mock-servers/mock-model-server.mjs'
import { createFxAgent } from '../../src/page/agent-api/create-fx-agent.ts'
import type { FxAgentOptions, FxLogLine, FxTurn } from '../../src/shared/agent-api/types.ts'

let compiled: WebAssembly.Module | undefined
export function engineModule(): WebAssembly.Module {
  compiled ??= new WebAssembly.Module(readFileSync(fileURLToPath(new URL('../../public/engine.wasm', import.meta.url))))
  return compiled
}

export type MockServer = Awaited<ReturnType<typeof startMockModelServer>>

/** A body the mock received, as the provider sent it. */
export type SentRequest = { model: string; messages: Array<{ role: string; content: unknown; tool_call_id?: string; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> }>; tools?: Array<{ function: { name: string } }> }

export async function startMock() {
  const server = await startMockModelServer()
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(server.url + path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) })
    return response.json() as Promise<unknown>
  }
  return {
    server,
    baseUrl: `${server.url}/v1`,
    script: (...responses: object[]) => call('POST', '/__script', responses),
    requests: () => call('GET', '/__requests') as Promise<SentRequest[]>,
    held: async () => ((await call('GET', '/__held')) as { held: number }).held,
    release: () => call('POST', '/__release'),
    close: () => server.close(),
  }
}
export type Mock = Awaited<ReturnType<typeof startMock>>

/** The mock server for a test file: started before its tests, reset before each, closed after. */
export function useMock(): Mock {
  let started: Mock | undefined
  const get = (): Mock => {
    if (!started) throw new Error('the mock model server is not started yet (use it inside a test)')
    return started
  }
  beforeAll(async () => {
    started = await startMock()
  })
  afterAll(() => started?.close())
  beforeEach(async () => {
    await fetch(`${get().server.url}/__reset`, { method: 'POST' })
  })
  return {
    get server() {
      return get().server
    },
    get baseUrl() {
      return get().baseUrl
    },
    script: (...responses) => get().script(...responses),
    requests: () => get().requests(),
    held: () => get().held(),
    release: () => get().release(),
    close: () => get().close(),
  }
}

/** An agent on the mock's OpenAI-compatible endpoint, with the compiled engine. */
export function mockAgent(mock: Mock, options: FxAgentOptions = {}) {
  return createFxAgent({
    provider: { name: 'mock', baseUrl: mock.baseUrl, models: { 'mock-model': { contextWindow: 128000, supportsToolUse: true } } },
    model: 'mock-model',
    wasm: engineModule(),
    ...options,
  })
}

/** A reply as SSE chunks: text deltas, then stop. */
export function reply(text: string, deltaChars = 4) {
  return { text, deltaChars }
}

/** A reply that calls tools: `[name, argsJson]` pairs, ids call_1, call_2, … unless given. */
export function toolCalls(...calls: Array<[string, string, string?]>) {
  return {
    chunks: [
      { choices: [{ index: 0, delta: { role: 'assistant', content: null, tool_calls: calls.map(([name, args, id], i) => ({ index: i, id: id ?? `call_${i + 1}`, type: 'function', function: { name, arguments: args } })) }, finish_reason: null }] },
      { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
      { choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } },
    ],
  }
}

/** Every line of a turn, by async iteration. */
export async function linesOf(turn: FxTurn): Promise<FxLogLine[]> {
  const lines: FxLogLine[] = []
  for await (const line of turn) lines.push(line)
  return lines
}

/** Reads NDJSON from a stream until `count` lines arrived (then cancels it). */
export async function readLines(stream: ReadableStream<Uint8Array>, count: number): Promise<FxLogLine[]> {
  const reader = stream.getReader()
  const decoder = new TextDecoder()
  let text = ''
  const lines: FxLogLine[] = []
  while (lines.length < count) {
    const step = await reader.read()
    if (step.done) break
    text += decoder.decode(step.value, { stream: true })
    let nl: number
    while ((nl = text.indexOf('\n')) >= 0 && lines.length < count) {
      lines.push(JSON.parse(text.slice(0, nl)) as FxLogLine)
      text = text.slice(nl + 1)
    }
  }
  await reader.cancel()
  return lines
}

/** Waits until `check` holds, polling (never a fixed sleep for the outcome itself). */
export async function until(check: () => boolean | Promise<boolean>, what = 'condition'): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/**
 * The lines' types, for order checks, with each run of text deltas as one `text_delta`: how a
 * reply is cut into deltas depends on how the network delivered it.
 */
export const types = (lines: FxLogLine[]) => lines.map((l) => l.type).filter((type, i, all) => !(type === 'text_delta' && all[i - 1] === 'text_delta'))

/** Reads NDJSON from a stream up to and including the first line that `last` accepts. */
export async function readUntil(stream: ReadableStream<Uint8Array>, last: (line: FxLogLine) => boolean): Promise<FxLogLine[]> {
  const reader = stream.getReader()
  const decoder = new TextDecoder()
  let text = ''
  const lines: FxLogLine[] = []
  while (!lines.some(last)) {
    const step = await reader.read()
    if (step.done) break
    text += decoder.decode(step.value, { stream: true })
    const parts = text.split('\n')
    text = parts.pop()!
    for (const part of parts) if (!lines.some(last)) lines.push(JSON.parse(part) as FxLogLine)
  }
  await reader.cancel()
  return lines
}

/** The text a turn streamed. */
export const textOf = (lines: FxLogLine[]) => lines.filter((l) => l.type === 'text_delta').map((l) => l['delta']).join('')
