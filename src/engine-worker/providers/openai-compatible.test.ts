import { describe, expect, test } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import type { ModelEvent, ModelRequest } from '../../shared/protocol/model-events.ts'
import { createOpenAiCompatibleProvider } from './openai-compatible.ts'
import { byteSplits, collect, fakeFetch, sseResponse, sseText, streamOf, joinTextDeltas } from '../../../test/support/providers.ts'

const KEY = 'sk-secret-123456789'

function providerOver(chunks: Uint8Array[], apiKey?: string) {
  const fake = fakeFetch(() => sseResponse(chunks))
  const provider = createOpenAiCompatibleProvider({
    baseUrl: 'https://models.example/v1',
    model: 'test-model',
    label: 'models.example',
    fetch: fake.fetch,
    ...(apiKey ? { apiKey } : {}),
  })
  return { provider, calls: fake.calls }
}

/** Runs the same SSE text split at every byte boundary and returns each run's events. */
async function eventsAtEverySplit(text: string): Promise<ModelEvent[][]> {
  const runs: ModelEvent[][] = []
  for (const chunks of byteSplits(text)) runs.push(await collect(providerOver(chunks).provider))
  return runs
}

const chunk = (delta: object, finishReason: string | null = null) => ({ choices: [{ index: 0, delta, finish_reason: finishReason }] })

describe('streaming a chat completion', () => {
  test('text deltas, usage and finish arrive whole however the bytes are split', async () => {
    const text = sseText(
      chunk({ role: 'assistant', content: 'Héllo' }),
      chunk({ content: ' → wörld' }),
      chunk({}, 'stop'),
      { choices: [], usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 } },
      '[DONE]',
    )
    const expected: ModelEvent[] = [
      { type: 'text_delta', delta: 'Héllo' },
      { type: 'text_delta', delta: ' → wörld' },
      { type: 'usage', inputTokens: 12, outputTokens: 3 },
      { type: 'finish', reason: 'stop' },
    ]
    const runs = await eventsAtEverySplit(text)
    expect(runs.length).toBeGreaterThan(100)
    for (const events of runs) expect(joinTextDeltas(events)).toEqual(joinTextDeltas(expected))
  })

  test('the text of one network read goes on as one delta, before the events after it', async () => {
    const text = sseText(chunk({ content: 'a' }), chunk({ content: 'b' }), chunk({ content: 'c' }), chunk({}, 'stop'), '[DONE]')
    const events = await collect(providerOver([new TextEncoder().encode(text)]).provider)
    expect(events).toEqual([{ type: 'text_delta', delta: 'abc' }, { type: 'finish', reason: 'stop' }])
  })

  test('tool call deltas spread over chunks become start, argument fragments and end', async () => {
    const text = sseText(
      chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'run_command', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"comm' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'and":"ls"}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'run_command', arguments: '{"command":"pwd"}' } }] }),
      chunk({}, 'tool_calls'),
      { choices: [], usage: { prompt_tokens: 40, completion_tokens: 20 } },
      '[DONE]',
    )
    const expected: ModelEvent[] = [
      { type: 'tool_call_start', index: 0, id: 'call_a', name: 'run_command' },
      { type: 'tool_call_delta', index: 0, delta: '{"comm' },
      { type: 'tool_call_delta', index: 0, delta: 'and":"ls"}' },
      { type: 'tool_call_start', index: 1, id: 'call_b', name: 'run_command' },
      { type: 'tool_call_delta', index: 1, delta: '{"command":"pwd"}' },
      { type: 'tool_call_end', index: 0 },
      { type: 'tool_call_end', index: 1 },
      { type: 'usage', inputTokens: 40, outputTokens: 20 },
      { type: 'finish', reason: 'tool_calls' },
    ]
    for (const events of await eventsAtEverySplit(text)) expect(events).toEqual(expected)
  })

  test('[DONE] without a finish_reason is a cut answer, not a success', async () => {
    const events = await collect(providerOver([new TextEncoder().encode(sseText(chunk({ content: 'ok' }), '[DONE]'))]).provider)
    expect(events).toEqual([
      { type: 'text_delta', delta: 'ok' },
      {
        type: 'error',
        code: ErrorCode.FX_MODEL_STREAM_TRUNCATED,
        message: 'models.example ended the stream without saying why the model stopped, so the answer may be cut short; try again',
        retryable: true,
      },
    ])
  })

  test('a malformed line ends the stream with one error quoting at most 80 characters of it', async () => {
    const bad = `{not json ${'x'.repeat(100)}`
    const text = sseText(chunk({ content: 'ok' }), bad, chunk({ content: 'never shown' }), chunk({}, 'stop'), '[DONE]')
    const events = await collect(providerOver([new TextEncoder().encode(text)]).provider)
    expect(events).toEqual([
      { type: 'text_delta', delta: 'ok' },
      {
        type: 'error',
        code: ErrorCode.FX_MODEL_STREAM_MALFORMED,
        message: `models.example sent a stream line that is not a JSON object: "${bad.slice(0, 79)}…"`,
        retryable: false,
      },
    ])
  })

  test('a stream that closes before finishing reports truncation at every split', async () => {
    const text = sseText(chunk({ content: 'partial' }))
    for (const events of await eventsAtEverySplit(text)) {
      expect(events).toEqual([
        { type: 'text_delta', delta: 'partial' },
        { type: 'error', code: ErrorCode.FX_MODEL_STREAM_TRUNCATED, message: 'the model server closed the stream before finishing; try again', retryable: true },
      ])
    }
  })

  test('an error chunk becomes one error event with the key and bearer tokens masked', async () => {
    const text = sseText(
      chunk({ content: 'a' }),
      { error: { message: `upstream failed for ${KEY} with Bearer abc.def`, type: 'server_error' } },
      '[DONE]',
    )
    const events = await collect(providerOver([new TextEncoder().encode(text)], KEY).provider)
    expect(events).toEqual([
      { type: 'text_delta', delta: 'a' },
      {
        type: 'error',
        code: ErrorCode.FX_MODEL_STREAM_ERROR,
        message: 'models.example reported an error mid-answer: upstream failed for *** with Bearer ***; try again',
        retryable: true,
      },
    ])
  })
})

describe('aborting', () => {
  test('an abort mid-stream emits nothing more, even with more chunks already buffered', async () => {
    const encode = (s: string) => new TextEncoder().encode(s)
    const reads = [encode(sseText(chunk({ content: 'one' }))), encode(sseText(chunk({ content: 'two' }), chunk({}, 'stop'), '[DONE]'))]
    const controller = new AbortController()
    const events = await collect(providerOver(reads).provider, undefined, {
      signal: controller.signal,
      onEvent: () => controller.abort(),
    })
    expect(events).toEqual([{ type: 'text_delta', delta: 'one' }])
  })

  test('an abort while the server is silent ends the request without another event', async () => {
    const first = new TextEncoder().encode(sseText(chunk({ content: 'thinking' })))
    // A body that sends one chunk and then never answers again.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(first)
      },
    })
    const { fetch } = fakeFetch(() => new Response(body))
    const provider = createOpenAiCompatibleProvider({ baseUrl: 'http://localhost:8080/v1', model: 'm', label: 'local', fetch })
    const controller = new AbortController()
    const events = await collect(provider, undefined, { signal: controller.signal, onEvent: () => controller.abort() })
    expect(events).toEqual([{ type: 'text_delta', delta: 'thinking' }])
  })
})

describe('the request sent', () => {
  const request: ModelRequest = {
    model: 'anthropic/claude-sonnet-4.5',
    messages: [
      { role: 'system', content: 'You are fxterm.' },
      { role: 'user', content: 'list files' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'run_command', arguments: '{"command":"ls"}' }] },
      { role: 'tool', toolCallId: 'call_1', content: 'README.md\n' },
      { role: 'assistant', content: 'One file.' },
    ],
    tools: [{ name: 'run_command', description: 'Run a shell command', parameters: { type: 'object', properties: { command: { type: 'string' } } } }],
  }

  test('maps messages and tools to the OpenAI wire format and sends no Authorization without a key', async () => {
    const { provider, calls } = providerOver([new TextEncoder().encode(sseText(chunk({}, 'stop'), '[DONE]'))])
    await collect(provider, request)
    expect(calls.map((call) => ({ url: call.url, method: call.init?.method, headers: call.init?.headers }))).toEqual([
      {
        url: 'https://models.example/v1/chat/completions',
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      },
    ])
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual({
      model: 'anthropic/claude-sonnet-4.5',
      messages: [
        { role: 'system', content: 'You are fxterm.' },
        { role: 'user', content: 'list files' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'run_command', arguments: '{"command":"ls"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'README.md\n' },
        { role: 'assistant', content: 'One file.' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'run_command', description: 'Run a shell command', parameters: { type: 'object', properties: { command: { type: 'string' } } } },
        },
      ],
      stream: true,
      stream_options: { include_usage: true },
    })
  })

  test('omits tools when there are none, uses the default model, and sends the key as a bearer token', async () => {
    const { provider, calls } = providerOver([new TextEncoder().encode(sseText(chunk({}, 'stop'), '[DONE]'))], KEY)
    await collect(provider, { model: '', messages: [{ role: 'user', content: 'hi' }], tools: [] })
    expect(calls[0]?.init?.headers).toEqual({ 'Content-Type': 'application/json', Accept: 'text/event-stream', Authorization: `Bearer ${KEY}` })
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual({
      model: 'test-model',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    })
  })
})

describe('failed requests', () => {
  test('a 401 says the key was rejected and to run /login or set a key, without echoing the key', async () => {
    const { fetch } = fakeFetch(() => new Response(JSON.stringify({ error: { message: `Invalid key ${KEY}` } }), { status: 401 }))
    const provider = createOpenAiCompatibleProvider({ baseUrl: 'https://ai-gateway.vercel.sh/v1', apiKey: KEY, model: 'm', label: 'ai-gateway', fetch })
    expect(await collect(provider)).toEqual([
      {
        type: 'error',
        code: ErrorCode.FX_MODEL_UNAUTHORIZED,
        message: 'ai-gateway rejected the key (HTTP 401: Invalid key ***); run /login or set a key, then try again',
        retryable: false,
        status: 401,
      },
    ])
  })

  test('a 404 names the model and up to 8 of the models the server lists', async () => {
    const ids = ['llama3.2', 'qwen2.5-coder', 'mistral', 'phi4', 'gemma3', 'deepseek-r1', 'codellama', 'llava', 'tinyllama', 'starcoder2']
    const { fetch, calls } = fakeFetch((url) =>
      url.endsWith('/models')
        ? Response.json({ object: 'list', data: ids.map((id) => ({ id, object: 'model' })) })
        : new Response('{"error":{"message":"model \\"llama9\\" not found"}}', { status: 404 }),
    )
    const provider = createOpenAiCompatibleProvider({ baseUrl: 'http://localhost:11434/v1/', model: 'llama9', label: 'localhost:11434', fetch })
    expect(await collect(provider, { model: 'llama9', messages: [], tools: [] })).toEqual([
      {
        type: 'error',
        code: ErrorCode.FX_MODEL_NOT_FOUND,
        message:
          'localhost:11434 has no model "llama9" (HTTP 404); it offers llama3.2, qwen2.5-coder, mistral, phi4, gemma3, deepseek-r1, codellama, llava and 2 more: pick one with /model <id>',
        retryable: false,
        status: 404,
      },
    ])
    expect(calls.map((call) => call.url)).toEqual(['http://localhost:11434/v1/chat/completions', 'http://localhost:11434/v1/models'])
  })

  test('a rejected fetch is diagnosed with a probe: a running Ollama that refuses the origin gets the exact fix', async () => {
    const { fetch, calls } = fakeFetch((_url, init) => {
      if (init?.mode === 'no-cors') return new Response(null, { status: 200 })
      throw new TypeError('Failed to fetch')
    })
    const provider = createOpenAiCompatibleProvider({
      baseUrl: 'http://localhost:11434/v1',
      model: 'llama3.2',
      label: 'localhost:11434',
      fetch,
      origin: 'https://fxterm.example',
    })
    expect(await collect(provider)).toEqual([
      {
        type: 'error',
        code: ErrorCode.FX_MODEL_CORS_REFUSED,
        message: 'localhost:11434 is running but refused requests from https://fxterm.example (CORS); restart Ollama with OLLAMA_ORIGINS=https://fxterm.example ollama serve',
        retryable: false,
      },
    ])
    expect(calls.map((call) => `${call.init?.mode ?? 'default'} ${call.url}`)).toEqual([
      'default http://localhost:11434/v1/chat/completions',
      'no-cors http://localhost:11434/v1/models',
      'cors http://localhost:11434/v1/models',
    ])
  })

  test('a fetch rejected because of an abort emits nothing', async () => {
    const controller = new AbortController()
    const { fetch } = fakeFetch(() => {
      controller.abort()
      throw new DOMException('aborted', 'AbortError')
    })
    const provider = createOpenAiCompatibleProvider({ baseUrl: 'https://models.example/v1', model: 'm', label: 'x', fetch })
    expect(await collect(provider, undefined, { signal: controller.signal })).toEqual([])
  })

  test('a body that is missing entirely counts as a truncated stream', async () => {
    const { fetch } = fakeFetch(() => new Response(null, { status: 200 }))
    const provider = createOpenAiCompatibleProvider({ baseUrl: 'https://models.example/v1', model: 'm', label: 'x', fetch })
    expect(await collect(provider)).toEqual([
      { type: 'error', code: ErrorCode.FX_MODEL_STREAM_TRUNCATED, message: 'the model server closed the stream before finishing; try again', retryable: true },
    ])
  })

  test('a plain JSON body sent with status 200 is quoted instead of being called truncated', async () => {
    const { fetch } = fakeFetch(() => new Response(streamOf([new TextEncoder().encode('{"error":"no tools for you"}\n')])))
    const provider = createOpenAiCompatibleProvider({ baseUrl: 'https://models.example/v1', model: 'm', label: 'x', fetch })
    expect(await collect(provider)).toEqual([
      {
        type: 'error',
        code: ErrorCode.FX_MODEL_STREAM_MALFORMED,
        message: 'x sent a line that is not part of an event stream: "{"error":"no tools for you"}"',
        retryable: false,
      },
    ])
  })
})
