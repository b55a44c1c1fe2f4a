/**
 * Streams other projects recorded from real providers (src/engine-worker/providers/fixtures/recorded/, origins
 * in its README), replayed through the whole path a reply takes: the response body through the
 * OpenAI-compatible provider (byte reader, SSE parser, chunk decoder), its events into the engine,
 * and the engine's writes into a terminal. Each test reads what a person would see, and what the
 * next request sends back to the model.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { createOpenAiCompatibleProvider } from '../../src/engine-worker/providers/openai-compatible.ts'
import { collect, fakeFetch, joinTextDeltas, sseResponse } from '../../test/support/providers.ts'
import type { ModelEvent } from '../../src/shared/protocol/model-events.ts'
import { createHarness, type Harness } from './harness.ts'

const RECORDED = new URL('../../src/engine-worker/providers/fixtures/recorded/', import.meta.url)

/** A recorded body: `.sse` as it is; `.chunks.txt` as `data:` events and `[DONE]` (vercel/ai's replay). */
function body(name: string): Uint8Array {
  const text = readFileSync(new URL(name, RECORDED), 'utf8')
  if (name.endsWith('.sse')) return new TextEncoder().encode(text)
  const events = text.split('\n').filter((line) => line.trim() !== '').map((line) => `data: ${line}\n\n`)
  return new TextEncoder().encode(`${events.join('')}data: [DONE]\n\n`)
}

/** The provider's events for a body cut into pieces of `size` bytes. */
async function eventsOf(bytes: Uint8Array, size = bytes.length): Promise<ModelEvent[]> {
  const chunks: Uint8Array[] = []
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.slice(at, at + size))
  const { fetch } = fakeFetch(() => sseResponse(chunks))
  const provider = createOpenAiCompatibleProvider({ baseUrl: 'https://recorded.example/v1', apiKey: 'sk-recorded', model: 'm', label: 'recorded.example', fetch })
  return joinTextDeltas(await collect(provider))
}

/** Events of one kind joined, e.g. the whole reasoning. */
function joined(events: ModelEvent[], type: 'text_delta' | 'reasoning_delta' | 'refusal_delta'): string {
  return events.map((event) => (event.type === type ? event.delta : '')).join('')
}

/** Replays the recording as the answer to a prompt; returns the harness and the bytes written. */
async function replay(name: string): Promise<{ h: Harness; events: ModelEvent[]; written: string }> {
  const bytes = body(name)
  const events = await eventsOf(bytes)
  // The same events whatever the network's cut: odd-sized reads split events and characters.
  expect(await eventsOf(bytes, 7)).toEqual(events)
  const h = await createHarness()
  await h.type('go\r')
  const written: string[] = []
  const write = h.term.write.bind(h.term)
  h.term.write = ((data: string | Uint8Array, cb?: () => void) => {
    written.push(typeof data === 'string' ? data : new TextDecoder().decode(data))
    write(data, cb)
  }) as typeof h.term.write
  for (const event of events) await h.model(1, event)
  return { h, events, written: written.join('') }
}

/** The assistant messages the next request sends back (what the history kept). */
async function historyAfter(h: Harness): Promise<string[]> {
  await h.type('next\r')
  const request = h.lastOf('model_request')!.request
  return request.messages.filter((message) => message.role === 'assistant').map((message) => message.content)
}

describe('recorded provider streams, replayed to the screen', () => {
  test("OpenAI's refusal is shown as the reply, styled as a refusal, and kept in the history", async () => {
    const { h, events, written } = await replay('openai-refusal.sse')
    const refusal = "I'm sorry, I can't assist with that request."
    expect(joined(events, 'refusal_delta')).toBe(refusal)
    expect(joined(events, 'text_delta')).toBe('')
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' })
    expect(h.screen()).toContain(`⊘ ${refusal}`)
    // Drawn in the refusal's colour (yellow), not as plain reply text.
    expect(written).toContain(`\x1b[33m${refusal}`)
    expect(await historyAfter(h)).toEqual([refusal])
  })

  test('a reply cut by the output limit (finish_reason "length") says so in the transcript', async () => {
    const { h, events } = await replay('openai-length.sse')
    expect(joined(events, 'text_delta')).toBe('{"')
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'length' })
    expect(h.screen()).toContain("The reply reached the model's output limit; ask it to continue.")
    expect(await historyAfter(h)).toEqual(['{"'])
  })

  test("Magistral's content parts: the text part is the reply, the thinking parts its reasoning", async () => {
    const { h, events } = await replay('mistral-magistral-thinking.chunks.txt')
    expect(joined(events, 'text_delta')).toBe('2 + 2 = 4')
    expect(joined(events, 'reasoning_delta')).toBe('The user is asking for 2+2. This is basic arithmetic. 2+2=4.')
    const screen = h.screen()
    expect(screen).toContain('∴ The user is asking for 2+2. This is basic arithmetic. 2+2=4.')
    expect(screen).toContain('● 2 + 2 = 4')
    // Reasoning first, then the reply; only the reply goes back to the model.
    expect(screen.indexOf('∴ The user')).toBeLessThan(screen.indexOf('● 2 + 2 = 4'))
    expect(await historyAfter(h)).toEqual(['2 + 2 = 4'])
  })

  test("DeepSeek's reasoning_content is shown as reasoning before the reply", async () => {
    const { h, events } = await replay('deepseek-reasoning-content.chunks.txt')
    const reasoning = joined(events, 'reasoning_delta')
    const reply = joined(events, 'text_delta')
    expect(reasoning.startsWith('We need to')).toBe(true)
    expect(reply.length).toBeGreaterThan(20)
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' })
    const screen = h.screen()
    expect(screen).toContain('∴ We need to')
    expect(screen.indexOf('∴ We need to')).toBeLessThan(screen.indexOf('●'))
    expect(await historyAfter(h)).toEqual([reply])
  })

  test("OpenRouter's reasoning (with reasoning_details beside it) is shown once, and the reply after it", async () => {
    const { h, events } = await replay('openrouter-reasoning.sse')
    expect(joined(events, 'reasoning_delta')).toBe('This is a simple arithmetic question. 2+2 equals 4.')
    expect(joined(events, 'text_delta')).toBe('2 + 2 = 4')
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' })
    const screen = h.screen()
    expect(screen.split('2+2 equals 4.').length - 1).toBe(1)
    expect(screen).toContain('∴ This is a simple arithmetic question. 2+2 equals 4.')
    expect(screen).toContain('● 2 + 2 = 4')
  })

  test('a reply the content filter stopped says so in the transcript', async () => {
    // No project had a recorded one; the hand-written fixture beside the recorded ones.
    const bytes = new Uint8Array(readFileSync(new URL('../finish-content-filter.sse', RECORDED)))
    const events = await eventsOf(bytes)
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'content_filter' })
    const h = await createHarness()
    await h.type('go\r')
    for (const event of events) await h.model(1, event)
    expect(h.screen()).toContain("The model's content filter stopped the reply. Rephrase the request.")
  })
})
