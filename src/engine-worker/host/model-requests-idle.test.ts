/**
 * The idle limit, on fake timers: a request with no event for the limit ends as a dropped
 * connection (retryable) and its provider is aborted; any event restarts the wait; keep-alive
 * bytes reach no event, so a keep-alive-only stream ends too.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import type { ModelEvent, ModelProvider } from '../../shared/protocol/model-events.ts'
import { createModelRequests, STREAM_IDLE_TIMEOUT_MS } from './model-requests.ts'
import { createOpenAiCompatibleProvider } from '../providers/openai-compatible.ts'

const request = { model: 'm', messages: [], tools: [] }

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

/** A provider that hands its emit and signal to the test and never ends by itself. */
function heldProvider() {
  const held: { emit?: (event: ModelEvent) => void; signal?: AbortSignal } = {}
  const provider: ModelProvider = {
    name: 'slow.example',
    label: 'slow.example',
    defaultModel: 'm',
    stream: (_request, emit, signal) => {
      held.emit = emit
      held.signal = signal
      return new Promise((resolve) => signal.addEventListener('abort', () => resolve()))
    },
  }
  return { provider, held }
}

function requestsWith(provider: ModelProvider, idleTimeoutMs?: number) {
  const delivered: ModelEvent[] = []
  const requests = createModelRequests({
    providers: () => [provider],
    textIntervalMs: 8,
    deliver: (_id, event) => delivered.push(event),
    ...(idleTimeoutMs === undefined ? {} : { idleTimeoutMs }),
  })
  return { requests, delivered }
}

const idleError = (seconds: string): ModelEvent => ({
  type: 'error',
  code: ErrorCode.FX_MODEL_STREAM_IDLE,
  message: `slow.example sent nothing for ${seconds} s (keep-alives do not count), so the connection was treated as dropped; try again`,
  retryable: true,
})

describe('a stream with no progress', () => {
  test('ends after 60 s by default as a retryable dropped connection, and its provider is aborted', async () => {
    const { provider, held } = heldProvider()
    const { requests, delivered } = requestsWith(provider)
    requests.start(1, request)
    await vi.advanceTimersByTimeAsync(STREAM_IDLE_TIMEOUT_MS - 1)
    expect(delivered).toEqual([])
    expect(held.signal?.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(delivered).toEqual([idleError('60')])
    expect(held.signal?.aborted).toBe(true)
    expect(STREAM_IDLE_TIMEOUT_MS).toBe(60_000)
  })

  test('waits the whole limit again after each event', async () => {
    const { provider, held } = heldProvider()
    const { requests, delivered } = requestsWith(provider, 10_000)
    requests.start(1, request)
    await vi.advanceTimersByTimeAsync(9_000)
    held.emit!({ type: 'reasoning_delta', delta: 'thinking' })
    await vi.advanceTimersByTimeAsync(9_999)
    expect(delivered).toEqual([{ type: 'reasoning_delta', delta: 'thinking' }])
    await vi.advanceTimersByTimeAsync(1)
    expect(delivered).toEqual([{ type: 'reasoning_delta', delta: 'thinking' }, idleError('10')])
  })

  test('a finished request sets off nothing later, and 0 turns the limit off', async () => {
    const { provider, held } = heldProvider()
    const { requests, delivered } = requestsWith(provider, 1_500)
    requests.start(1, request)
    held.emit!({ type: 'finish', reason: 'stop' })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(delivered).toEqual([{ type: 'finish', reason: 'stop' }])

    const off = heldProvider()
    const never = requestsWith(off.provider, 0)
    never.requests.start(1, request)
    await vi.advanceTimersByTimeAsync(10 * STREAM_IDLE_TIMEOUT_MS)
    expect(never.delivered).toEqual([])
    expect(off.held.signal?.aborted).toBe(false)
    never.requests.cancelAll()
  })

  test('an SSE body that sends only keep-alive comments is cut off at the limit', async () => {
    let sent = 0
    // A server that sends `: keep-alive` every second, forever.
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent++ > 0) await new Promise((resolve) => setTimeout(resolve, 1_000))
        controller.enqueue(new TextEncoder().encode(': keep-alive\n\n'))
      },
    })
    const fetch = (async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } })) as typeof globalThis.fetch
    const provider = createOpenAiCompatibleProvider({ baseUrl: 'https://slow.example/v1', model: 'm', label: 'slow.example', fetch })
    const { requests, delivered } = requestsWith(provider, 5_000)
    requests.start(1, request)
    await vi.advanceTimersByTimeAsync(4_500)
    expect(sent).toBeGreaterThanOrEqual(4)
    expect(delivered).toEqual([])
    await vi.advanceTimersByTimeAsync(1_000)
    expect(delivered).toEqual([idleError('5')])
  })
})
