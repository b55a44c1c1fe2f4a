/**
 * Bodies that end or grow the wrong way, crafted here byte by byte: a body cut inside a line is a
 * dropped connection (retryable), not a malformed line; one event over the 4 MB cap is refused
 * at once, after reading no more of the body than that; many events adding up to more are fine.
 */
import { describe, expect, test } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import type { ModelEvent } from '../../shared/protocol/model-events.ts'
import { createAnthropicProvider } from './anthropic-messages.ts'
import { createOpenAiCompatibleProvider } from './openai-compatible.ts'
import { createEventSizeGuard, MAX_EVENT_BYTES } from './sse-event-size.ts'
import { collect, fakeFetch, joinTextDeltas, sseText } from '../../../test/support/providers.ts'

const encode = (text: string) => new TextEncoder().encode(text)
const delta = (content: string, finish: string | null = null) => ({ choices: [{ index: 0, delta: { content }, finish_reason: finish }] })
const DROPPED: ModelEvent = { type: 'error', code: ErrorCode.FX_MODEL_STREAM_TRUNCATED, message: 'the connection to models.example dropped before the model finished; try again', retryable: true }

/** A body that yields `chunks`, then either closes or fails as a reset connection does. */
function body(chunks: Uint8Array[], ending: 'close' | 'reset', pulled: { count: number } = { count: 0 }): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[pulled.count++]
      if (chunk !== undefined) controller.enqueue(chunk)
      else if (ending === 'close') controller.close()
      else controller.error(new TypeError('network error'))
    },
  })
}

function openAi(stream: ReadableStream<Uint8Array>) {
  const { fetch } = fakeFetch(() => new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream' } }))
  return createOpenAiCompatibleProvider({ baseUrl: 'https://models.example/v1', model: 'm', label: 'models.example', fetch })
}

describe('a body cut inside a line', () => {
  const whole = sseText(delta('Hello'), delta(' there'))
  const last = sseText(delta('!', 'stop'))

  test.each(['close', 'reset'] as const)('is a dropped connection at every byte of the last line (%s)', async (ending) => {
    // Every cut inside the last event's line, from `d` of `data:` to just before its newline.
    for (let keep = 1; keep < last.indexOf('\n'); keep++) {
      const events = joinTextDeltas(await collect(openAi(body([encode(whole + last.slice(0, keep))], ending))))
      expect(events, `cut after ${keep} bytes of the last line`).toEqual([{ type: 'text_delta', delta: 'Hello there' }, DROPPED])
    }
  })

  test('is still read when the unfinished line is a whole event (a server that omits the last newline)', async () => {
    const events = joinTextDeltas(await collect(openAi(body([encode(whole + last.trimEnd())], 'reset'))))
    expect(events).toEqual([{ type: 'text_delta', delta: 'Hello there!' }, { type: 'finish', reason: 'stop' }])
  })

  test('while a whole line that is not JSON stays a malformed stream, not retried', async () => {
    const events = await collect(openAi(body([encode(whole + 'data: {"choices": nope}\n\n')], 'reset')))
    expect(events.at(-1)).toEqual({
      type: 'error',
      code: ErrorCode.FX_MODEL_STREAM_MALFORMED,
      message: 'models.example sent a stream line that is not a JSON object: "{"choices": nope}"',
      retryable: false,
    })
  })

  test('an Anthropic body cut inside an event is dropped too', async () => {
    const start = 'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":1,"output_tokens":1}}}\n\n'
    const text = 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}\n\n'
    const cutEvent = 'event: content_block_delta\ndata: {"type":"content_block_delta","ind'
    const { fetch } = fakeFetch(() => new Response(body([encode(start + text + cutEvent)], 'reset'), { status: 200 }))
    const provider = createAnthropicProvider({ baseUrl: 'https://anthropic.example/v1', name: 'anthropic', label: 'anthropic', model: 'claude', key: async () => 'k', fetch })
    expect(await collect(provider)).toEqual([
      { type: 'text_delta', delta: 'Hi' },
      { type: 'error', code: ErrorCode.FX_MODEL_STREAM_TRUNCATED, message: 'the connection to anthropic dropped before the model finished; try again', retryable: true },
    ])
  })
})

describe('one event over the size cap', () => {
  const MB = 1024 * 1024
  const huge = (size: number) => `data: {"choices":[{"index":0,"delta":{"content":"${'x'.repeat(size)}"}}]}`
  const TOO_LARGE: ModelEvent = {
    type: 'error',
    code: ErrorCode.FX_MODEL_EVENT_TOO_LARGE,
    message: 'models.example sent one stream event larger than 4 MB, so the reply was refused without reading the rest; ask for the work in smaller steps (write a large file in parts)',
    retryable: false,
  }

  test('is refused as soon as it passes 4 MB, and the rest of the body is not read', async () => {
    // 10 MB in 1 MB pieces, after a small ordinary event.
    const text = encode(sseText(delta('before ')) + huge(10 * MB) + '\n\n')
    const pieces = Array.from({ length: Math.ceil(text.length / MB) }, (_, i) => text.slice(i * MB, (i + 1) * MB))
    const pulled = { count: 0 }
    const events = joinTextDeltas(await collect(openAi(body(pieces, 'close', pulled))))
    expect(events).toEqual([{ type: 'text_delta', delta: 'before ' }, TOO_LARGE])
    expect(pulled.count, 'pieces read of 11').toBeLessThanOrEqual(6)
  })

  test('many events adding up to more than 4 MB are an ordinary reply', async () => {
    const piece = 'y'.repeat(MB / 2)
    const text = sseText(...Array.from({ length: 10 }, () => delta(piece)), delta('', 'stop'))
    const events = joinTextDeltas(await collect(openAi(body([encode(text)], 'close'))))
    expect(events).toEqual([{ type: 'text_delta', delta: piece.repeat(10) }, { type: 'finish', reason: 'stop' }])
  })

  test('the guard finds event ends split across pieces and in every line ending', () => {
    for (const blank of ['\n\n', '\r\r', '\r\n\r\n']) {
      const guard = createEventSizeGuard(16)
      const event = `data: 12345${blank}`
      // Each event alone is within 16 bytes of its end; cut everywhere, the unfinished part stays small.
      for (let i = 0; i < 5; i++) for (const char of event) expect(guard.add(encode(char)), JSON.stringify(event)).toBe(true)
      expect(guard.add(encode('data: 1234567890123'))).toBe(false)
    }
    expect(MAX_EVENT_BYTES).toBe(4 * MB)
  })
})
