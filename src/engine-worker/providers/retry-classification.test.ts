/**
 * The adapter classifies every failure for the engine's retry loop: `retryable`, the wait a
 * server asked for (`retryAfterMs`, from an injectable clock) and the HTTP `status`.
 */
import { describe, expect, test } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import type { ModelEvent } from '../../shared/protocol/model-events.ts'
import { createOpenAiCompatibleProvider } from './openai-compatible.ts'
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from './retry-hints.ts'
import { collect, fakeFetch, sseText } from '../../../test/support/providers.ts'

const NOW = Date.parse('2030-01-01T00:00:00Z')

/** The retry-relevant part of the request's terminal event. */
function hints(events: ModelEvent[]) {
  const last = events.at(-1)
  if (last?.type !== 'error') return last
  const { code, retryable, retryAfterMs, status } = last
  return { code, retryable, retryAfterMs, status }
}

async function outcome(respond: Parameters<typeof fakeFetch>[0], baseUrl = 'https://models.example/v1', origin = 'https://fxterm.example') {
  const { fetch } = fakeFetch(respond)
  const provider = createOpenAiCompatibleProvider({ baseUrl, model: 'm', label: 'models.example', fetch, origin, now: () => NOW, permissions: null })
  return hints(await collect(provider))
}

const status = (code: number, headers: Record<string, string> = {}) => () => new Response('{"error":{"message":"nope"}}', { status: code, headers })

/** A 200 response whose body yields `text`, then fails the way a reset connection does. */
function cutAfter(text: string) {
  let sent = false
  return () =>
    new Response(
      new ReadableStream<Uint8Array>({
        // Erroring drops queued chunks, so the text goes out on the first pull, the error on the next.
        pull(controller) {
          if (sent) return controller.error(new TypeError('network error'))
          sent = true
          controller.enqueue(new TextEncoder().encode(text))
        },
      }),
    )
}

const chunk = (delta: object, finishReason: string | null = null) => ({ choices: [{ index: 0, delta, finish_reason: finishReason }] })

describe('which failures are worth retrying', () => {
  test.each([
    [408, ErrorCode.FX_MODEL_TIMEOUT],
    [409, ErrorCode.FX_MODEL_CONFLICT],
    [429, ErrorCode.FX_MODEL_RATE_LIMITED],
    [500, ErrorCode.FX_MODEL_SERVER_ERROR],
    [502, ErrorCode.FX_MODEL_SERVER_ERROR],
    [503, ErrorCode.FX_MODEL_SERVER_ERROR],
    [529, ErrorCode.FX_MODEL_SERVER_ERROR],
  ])('HTTP %i is retryable (%s)', async (code, expected) => {
    expect(await outcome(status(code))).toEqual({ code: expected, retryable: true, retryAfterMs: undefined, status: code })
  })

  test.each([
    [400, ErrorCode.FX_MODEL_REQUEST_REJECTED],
    [401, ErrorCode.FX_MODEL_UNAUTHORIZED],
    [403, ErrorCode.FX_MODEL_UNAUTHORIZED],
    [404, ErrorCode.FX_MODEL_NOT_FOUND],
    [422, ErrorCode.FX_MODEL_REQUEST_REJECTED],
  ])('HTTP %i is not retryable (%s)', async (code, expected) => {
    expect(await outcome(status(code))).toEqual({ code: expected, retryable: false, retryAfterMs: undefined, status: code })
  })

  test('Retry-After in seconds, as an HTTP-date against the injected clock, capped at 30 s, and retry-after-ms', async () => {
    expect(await outcome(status(429, { 'retry-after': '7' }))).toEqual({ code: ErrorCode.FX_MODEL_RATE_LIMITED, retryable: true, retryAfterMs: 7000, status: 429 })
    const inTwelveSeconds = new Date(NOW + 12_000).toUTCString()
    expect(await outcome(status(503, { 'retry-after': inTwelveSeconds }))).toMatchObject({ retryAfterMs: 12_000 })
    expect(await outcome(status(429, { 'retry-after': '120' }))).toMatchObject({ retryAfterMs: 30_000 })
    expect(await outcome(status(429, { 'retry-after': '2', 'retry-after-ms': '1500' }))).toMatchObject({ retryAfterMs: 1500 })
  })

  test('a network failure against a server that is up and accepts this origin is retryable', async () => {
    expect(
      await outcome((url) => {
        if (url.endsWith('/chat/completions')) throw new TypeError('Failed to fetch')
        return new Response('{"data":[]}')
      }),
    ).toEqual({ code: ErrorCode.FX_MODEL_NETWORK_ERROR, retryable: true, retryAfterMs: undefined, status: undefined })
  })

  test('CORS refusals, mixed content and an invalid URL are not retryable', async () => {
    const corsRefused = (_url: string, init: RequestInit | undefined) => {
      if (init?.mode === 'no-cors') return new Response(null)
      throw new TypeError('Failed to fetch')
    }
    const failed = () => {
      throw new TypeError('Failed to fetch')
    }
    expect(await outcome(corsRefused)).toEqual({ code: ErrorCode.FX_MODEL_CORS_REFUSED, retryable: false, retryAfterMs: undefined, status: undefined })
    expect(await outcome(failed, 'http://10.0.0.5:8000/v1')).toEqual({ code: ErrorCode.FX_MODEL_MIXED_CONTENT, retryable: false, retryAfterMs: undefined, status: undefined })
    expect(await outcome(failed, 'not a url')).toEqual({ code: ErrorCode.FX_MODEL_INVALID_URL, retryable: false, retryAfterMs: undefined, status: undefined })
  })

  test('a connection reset mid-stream is a retryable truncation, after the text that did arrive', async () => {
    const { fetch } = fakeFetch(cutAfter(sseText(chunk({ content: 'Half' }))))
    const provider = createOpenAiCompatibleProvider({ baseUrl: 'https://models.example/v1', model: 'm', label: 'models.example', fetch })
    expect(await collect(provider)).toEqual([
      { type: 'text_delta', delta: 'Half' },
      { type: 'error', code: ErrorCode.FX_MODEL_STREAM_TRUNCATED, message: 'the connection to models.example dropped before the model finished; try again', retryable: true },
    ])
  })

  test('a connection reset after the finish_reason still finishes the answer', async () => {
    expect(await outcome(cutAfter(sseText(chunk({ content: 'All' }, 'stop'))))).toEqual({ type: 'finish', reason: 'stop' })
  })

  test('a stream cut without a finish_reason is retryable; a malformed chunk is not', async () => {
    const body = (text: string) => () => new Response(text)
    expect(await outcome(body(sseText(chunk({ content: 'cut' }))))).toEqual({ code: ErrorCode.FX_MODEL_STREAM_TRUNCATED, retryable: true, retryAfterMs: undefined, status: undefined })
    expect(await outcome(body('data: {"choices":[\n\n'))).toEqual({ code: ErrorCode.FX_MODEL_STREAM_MALFORMED, retryable: false, retryAfterMs: undefined, status: undefined })
  })
})

describe('parsing Retry-After', () => {
  const parse = (headers: Record<string, string>) => parseRetryAfter(new Headers(headers), NOW)

  test('absent, empty, negative or unreadable values give no wait', () => {
    expect([parse({}), parse({ 'retry-after': '' }), parse({ 'retry-after': '-3' }), parse({ 'retry-after': 'soon' })]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ])
  })

  test('a date in the past means now, and the cap is 30 s', () => {
    expect(parse({ 'retry-after': new Date(NOW - 60_000).toUTCString() })).toEqual(0)
    expect(parse({ 'retry-after': '0' })).toEqual(0)
    expect(parse({ 'retry-after': '30' })).toEqual(MAX_RETRY_AFTER_MS)
    expect(parse({ 'retry-after-ms': '45000' })).toEqual(MAX_RETRY_AFTER_MS)
  })
})
