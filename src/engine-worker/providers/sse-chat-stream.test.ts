/**
 * An SSE body with the plain text deltas that take the fast path (text-delta-fast-path.ts) mixed
 * with every other kind of event: the same events wherever the bytes are cut — inside `data: `,
 * inside a multi-byte character, inside an escape, between CR and LF — and the same errors.
 */
import { describe, expect, test } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import type { ModelEvent } from '../../shared/protocol/model-events.ts'
import { createOpenAiCompatibleProvider } from './openai-compatible.ts'
import { byteSplits, collect, fakeFetch, joinTextDeltas, sseResponse } from '../../../test/support/providers.ts'

const envelope = { id: 'chatcmpl-7', object: 'chat.completion.chunk', created: 1764000000, model: 'm', system_fingerprint: 'fp' }
const event = (payload: object | string, ending = '\n') => `data: ${typeof payload === 'string' ? payload : JSON.stringify({ ...envelope, ...payload })}${ending}${ending}`
const delta = (delta: object, finish: string | null = null) => ({ choices: [{ index: 0, delta, finish_reason: finish }] })
const text = (content: string, ending?: string) => event(delta({ content }), ending)

async function eventsOf(chunks: Uint8Array[]): Promise<ModelEvent[]> {
  const { fetch } = fakeFetch(() => sseResponse(chunks))
  return collect(createOpenAiCompatibleProvider({ baseUrl: 'https://models.example/v1', model: 'm', label: 'models.example', fetch }))
}

/** The events of `body` whole, in 1-byte chunks and cut once at every byte: all must equal `expected`. */
async function expectAtEveryCut(body: string, expected: ModelEvent[]) {
  expect(joinTextDeltas(await eventsOf([new TextEncoder().encode(body)]))).toEqual(expected)
  for (const chunks of byteSplits(body)) expect(joinTextDeltas(await eventsOf(chunks))).toEqual(expected)
}

const CONTENTS = ['Hé', 'llo', ' "wörld"', '\n', 'tab\there', ' 漢字', ' 😀', '\\', ' \u00e9\u2028']

describe('a stream of plain deltas and other events', () => {
  test.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('plain deltas with escapes and multi-byte text arrive whole at every cut (%s)', async (_name, ending) => {
    const body = [
      event(delta({ role: 'assistant', content: '' }), ending),
      ...CONTENTS.map((content) => text(content, ending)),
      event(delta({}, 'stop'), ending),
      event({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 9 } }, ending),
      event('[DONE]', ending),
    ].join('')
    await expectAtEveryCut(body, [
      { type: 'text_delta', delta: CONTENTS.join('') },
      { type: 'usage', inputTokens: 3, outputTokens: 9 },
      { type: 'finish', reason: 'stop' },
    ])
  })

  test('a surrogate pair written as escapes is one character, cut anywhere', async () => {
    const escaped = text('X').replace('"content":"X"', '"content":"\\ud83d\\ude00 caf\\u00e9"')
    const body = text('a') + text('b') + escaped + event(delta({}, 'stop'))
    await expectAtEveryCut(body, [{ type: 'text_delta', delta: 'ab😀 café' }, { type: 'finish', reason: 'stop' }])
  })

  test('tool calls, reasoning and comments between plain deltas keep their order', async () => {
    const body = [
      text('one '),
      text('two '),
      event(delta({ reasoning_content: 'hmm' })),
      ': keep-alive\n\n',
      text('three'),
      event(delta({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'run_command', arguments: '{"command":"ls"}' } }] })),
      event(delta({}, 'tool_calls')),
    ].join('')
    await expectAtEveryCut(body, [
      { type: 'text_delta', delta: 'one two ' },
      { type: 'reasoning_delta', delta: 'hmm' },
      { type: 'text_delta', delta: 'three' },
      { type: 'tool_call_start', index: 0, id: 'call_1', name: 'run_command' },
      { type: 'tool_call_delta', index: 0, delta: '{"command":"ls"}' },
      { type: 'tool_call_end', index: 0 },
      { type: 'finish', reason: 'tool_calls' },
    ])
  })

  test('an error object after plain deltas ends the stream with the server error', async () => {
    const body = text('par') + text('tial') + event({ error: { message: 'overloaded', type: 'server_error' } })
    const events = joinTextDeltas(await eventsOf([new TextEncoder().encode(body)]))
    expect(events.map((e) => e.type)).toEqual(['text_delta', 'error'])
    expect(events[1]).toMatchObject({ code: ErrorCode.FX_MODEL_STREAM_ERROR })
  })

  test.each([
    ['an unknown escape (it used to throw and be reported as a dropped connection)', '{"choices":[{"index":0,"delta":{"content":"\\q"},"finish_reason":null}]}'],
    ['a raw control character', '{"choices":[{"index":0,"delta":{"content":"a\tb"},"finish_reason":null}]}'],
    ['a cut-off object', '{"choices":[{"index":0,"delta":{"content":"ab"}'],
  ])('%s after plain deltas is a malformed stream', async (_name, bad) => {
    const body = text('a') + text('b') + event(bad) + text('never')
    const events = joinTextDeltas(await eventsOf([new TextEncoder().encode(body)]))
    expect(events).toEqual([
      { type: 'text_delta', delta: 'ab' },
      { type: 'error', code: ErrorCode.FX_MODEL_STREAM_MALFORMED, message: `models.example sent a stream line that is not a JSON object: "${bad.replace('\t', ' ')}"`, retryable: false },
    ])
  })

  test('a body that stops inside an event ends as a dropped connection, which the engine retries', async () => {
    // Issue 31: this was reported as a malformed line (not retried); a cut is a dropped connection.
    const body = text('a') + text('b') + text('c').slice(0, 40)
    const events = joinTextDeltas(await eventsOf([new TextEncoder().encode(body)]))
    expect(events.map((e) => e.type)).toEqual(['text_delta', 'error'])
    expect(events[1]).toMatchObject({ code: ErrorCode.FX_MODEL_STREAM_TRUNCATED, retryable: true })
  })

  test('a body that stops after a whole plain event, without finishing, is a truncated stream', async () => {
    const events = joinTextDeltas(await eventsOf([new TextEncoder().encode(text('a') + text('b') + text('c'))]))
    expect(events.map((e) => e.type)).toEqual(['text_delta', 'error'])
    expect(events[1]).toMatchObject({ code: ErrorCode.FX_MODEL_STREAM_TRUNCATED })
  })

  test('a long body in one read, and cut in uneven pieces, gives what each event says, in order', async () => {
    // Longer than what the parser reads before the fast lane looks again, with a role, escapes,
    // reasoning and a tool call among thousands of plain deltas, and a malformed-looking envelope
    // (another id) that must still be read by the full path.
    const words = Array.from({ length: 3000 }, (_, i) => (i % 11 === 0 ? `"q${i}"\n` : `w${i} `))
    const parts = [event(delta({ role: 'assistant', content: '' }))]
    const expected: ModelEvent[] = []
    let pending = ''
    words.forEach((word, i) => {
      if (i === 1500) {
        parts.push(event(delta({ reasoning_content: 'think' })))
        expected.push({ type: 'text_delta', delta: pending }, { type: 'reasoning_delta', delta: 'think' })
        pending = ''
      }
      parts.push(i === 2000 ? `data: ${JSON.stringify({ ...envelope, id: 'chatcmpl-other', ...delta({ content: word }) })}\n\n` : text(word))
      pending += word
    })
    parts.push(event(delta({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'run_command', arguments: '{}' } }] })), event(delta({}, 'tool_calls')))
    expected.push(
      { type: 'text_delta', delta: pending },
      { type: 'tool_call_start', index: 0, id: 'call_1', name: 'run_command' },
      { type: 'tool_call_delta', index: 0, delta: '{}' },
      { type: 'tool_call_end', index: 0 },
      { type: 'finish', reason: 'tool_calls' },
    )
    const bytes = new TextEncoder().encode(parts.join(''))
    expect(joinTextDeltas(await eventsOf([bytes]))).toEqual(expected)
    const cuts = [0, 7, 40_000, 40_001, 123_457, 300_000, bytes.length]
    expect(joinTextDeltas(await eventsOf(cuts.slice(1).map((end, i) => bytes.slice(cuts[i], end))))).toEqual(expected)
  })
})
