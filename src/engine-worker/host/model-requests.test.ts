import { describe, expect, test } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import type { ModelEvent, ModelProvider } from '../../shared/protocol/model-events.ts'
import { createModelRequests } from './model-requests.ts'

const request = { model: 'm', messages: [], tools: [] }

/** A provider named `name` that plays `run` for each request. */
function provider(name: string, run: (emit: (event: ModelEvent) => void, signal: AbortSignal) => Promise<void>) {
  const signals: AbortSignal[] = []
  const p: ModelProvider = {
    name,
    label: name,
    defaultModel: 'm',
    stream: (_request, emit, signal) => {
      signals.push(signal)
      return run(emit, signal)
    },
  }
  return { provider: p, signals }
}

function requestsOf(...providers: ModelProvider[]) {
  const delivered: Array<[number, ModelEvent]> = []
  const requests = createModelRequests({ providers: () => providers, defaultProvider: 'b', textIntervalMs: 8, deliver: (id, event) => delivered.push([id, event]) })
  return { requests, delivered }
}

/** Lets the provider's promise settle. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('model requests', () => {
  test('text deltas of one burst arrive joined, before the finish, and nothing after it', async () => {
    const { provider: p } = provider('a', async (emit) => {
      emit({ type: 'text_delta', delta: 'Hel' })
      emit({ type: 'text_delta', delta: 'lo' })
      emit({ type: 'finish', reason: 'stop' })
      emit({ type: 'text_delta', delta: 'late' })
    })
    const { requests, delivered } = requestsOf(p)
    requests.start(1, request)
    await settle()
    expect(delivered).toEqual([
      [1, { type: 'text_delta', delta: 'Hello' }],
      [1, { type: 'finish', reason: 'stop' }],
    ])
  })

  test('a provider that throws ends the request with FX_MODEL_PROVIDER_FAILED', async () => {
    const { provider: p } = provider('a', async () => {
      throw new Error('socket closed')
    })
    const { requests, delivered } = requestsOf(p)
    requests.start(3, request)
    await settle()
    expect(delivered).toEqual([[3, { type: 'error', code: ErrorCode.FX_MODEL_PROVIDER_FAILED, message: 'The model request failed: socket closed' }]])
  })

  test('a provider that returns without finish or error ends the request with FX_MODEL_STREAM_TRUNCATED', async () => {
    const { provider: p } = provider('a', async () => {})
    const { requests, delivered } = requestsOf(p)
    requests.start(1, request)
    await settle()
    expect(delivered).toEqual([[1, { type: 'error', code: ErrorCode.FX_MODEL_STREAM_TRUNCATED, message: 'The model stream ended without finishing.' }]])
  })

  test('a cancelled request is aborted through its signal and delivers nothing more, not even its pending text', async () => {
    let emitLater: (event: ModelEvent) => void = () => {}
    const { provider: p, signals } = provider('a', (emit, signal) => {
      emit({ type: 'text_delta', delta: 'pending' })
      emitLater = emit
      return new Promise((resolve) => signal.addEventListener('abort', () => resolve()))
    })
    const { requests, delivered } = requestsOf(p)
    requests.start(1, request)
    requests.cancel(1)
    expect(signals[0]!.aborted).toBe(true)
    emitLater({ type: 'finish', reason: 'stop' })
    await settle()
    expect(delivered).toEqual([])
  })

  test('a request goes to the provider it names, else to the default one, else to the first', async () => {
    const used: string[] = []
    const named = (name: string) => provider(name, async (emit) => (used.push(name), emit({ type: 'finish', reason: 'stop' }))).provider
    const { requests } = requestsOf(named('a'), named('b'), named('c'))
    requests.start(1, { ...request, provider: 'c' })
    requests.start(2, request)
    requests.start(3, { ...request, provider: 'gone' })
    await settle()
    expect(used).toEqual(['c', 'b', 'b'])
    const first = createModelRequests({ providers: () => [named('x'), named('y')], textIntervalMs: 8, deliver: () => {} })
    first.start(1, request)
    await settle()
    expect(used.at(-1)).toBe('x')
  })
})
