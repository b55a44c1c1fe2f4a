/**
 * The exact JSON the adapter sends, pinned as snapshots, and where the key may go: only in the
 * Authorization header, and only to the provider's own base URL.
 */
import { describe, expect, test } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import type { ModelRequest } from '../../shared/protocol/model-events.ts'
import { createOpenAiCompatibleProvider } from './openai-compatible.ts'
import { toWireMessages } from './openai-wire.ts'
import { collect, type FetchCall, fakeFetch, sseResponse, sseText } from '../../../test/support/providers.ts'

const KEY = 'vck_request-body-secret-1234'
const BASE = 'https://ai-gateway.vercel.sh/v1'

const STOP = new TextEncoder().encode(sseText({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }, '[DONE]'))

/** Sends `request` through a gateway-like provider and returns every fetch it made. */
async function send(request: ModelRequest, fastServiceTier?: string): Promise<FetchCall[]> {
  const { fetch, calls } = fakeFetch(() => sseResponse([STOP]))
  const provider = createOpenAiCompatibleProvider({
    baseUrl: BASE,
    apiKey: KEY,
    model: 'anthropic/claude-sonnet-4.5',
    label: 'ai-gateway',
    fetch,
    ...(fastServiceTier ? { fastServiceTier } : {}),
  })
  const events = await collect(provider, request)
  expect(events).toEqual([{ type: 'finish', reason: 'stop' }])
  return calls
}

function bodyOf(calls: FetchCall[]): unknown {
  expect(calls.length).toEqual(1)
  const text = String(calls[0]?.init?.body)
  expect(text).not.toContain(KEY)
  return JSON.parse(text)
}

/** The body exactly as sent (compact JSON, fields in the order sent), indented to be read. */
function sentJson(calls: FetchCall[]): string {
  const text = String(calls[0]?.init?.body)
  expect(JSON.stringify(bodyOf(calls))).toEqual(text)
  return JSON.stringify(JSON.parse(text), null, 2)
}

/** Every request that carried the key went to the provider's own base URL. */
function expectKeyOnlyToBase(calls: FetchCall[]): void {
  for (const call of calls) {
    const headers = (call.init?.headers ?? {}) as Record<string, string>
    if (headers['Authorization'] !== undefined) {
      expect(call.url.startsWith(`${BASE}/`)).toBe(true)
      expect(headers['Authorization']).toEqual(`Bearer ${KEY}`)
    }
    expect(call.url).not.toContain(KEY)
  }
}

describe('the request body', () => {
  test('a plain chat', async () => {
    const calls = await send({ model: 'openai/gpt-5', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello' }], tools: [] })
    expectKeyOnlyToBase(calls)
    expect(calls[0]?.url).toEqual(`${BASE}/chat/completions`)
    expect(sentJson(calls)).toMatchInlineSnapshot(`
      "{
        "model": "openai/gpt-5",
        "messages": [
          {
            "role": "system",
            "content": "Be brief."
          },
          {
            "role": "user",
            "content": "Hello"
          }
        ],
        "stream": true,
        "stream_options": {
          "include_usage": true
        }
      }"
    `)
  })

  test("an earlier refusal goes back as the assistant's plain content, without the engine's refusal mark", async () => {
    const request: ModelRequest = {
      model: 'openai/gpt-5',
      messages: [
        { role: 'user', content: 'something bad' },
        { role: 'assistant', content: "I can't help with that.", refusal: true },
        { role: 'user', content: 'something else' },
      ],
      tools: [],
    }
    const body = bodyOf(await send(request)) as { messages: unknown[] }
    expect(body.messages).toEqual([
      { role: 'user', content: 'something bad' },
      { role: 'assistant', content: "I can't help with that." },
      { role: 'user', content: 'something else' },
    ])
  })

  test('tools, an assistant turn with tool calls, and the tool results', async () => {
    const calls = await send({
      model: '',
      messages: [
        { role: 'system', content: 'You are fxterm.' },
        { role: 'user', content: 'What is here?' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { id: 'call_1', name: 'run_command', arguments: '{"command":"ls"}' },
            { id: 'call_2', name: 'run_command', arguments: '{"command":"pwd"' },
          ],
        },
        { role: 'tool', toolCallId: 'call_1', content: 'README.md\nsrc\n' },
        { role: 'tool', toolCallId: 'call_2', content: 'error: the arguments are not valid JSON' },
        { role: 'assistant', content: 'Two entries.', toolCalls: [] },
        { role: 'user', content: 'Thanks' },
      ],
      tools: [
        {
          name: 'run_command',
          description: 'Run a bash command in the workspace.',
          parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
        },
      ],
      provider: 'ai-gateway',
    })
    expectKeyOnlyToBase(calls)
    expect(sentJson(calls)).toMatchInlineSnapshot(`
      "{
        "model": "anthropic/claude-sonnet-4.5",
        "messages": [
          {
            "role": "system",
            "content": "You are fxterm."
          },
          {
            "role": "user",
            "content": "What is here?"
          },
          {
            "role": "assistant",
            "content": null,
            "tool_calls": [
              {
                "id": "call_1",
                "type": "function",
                "function": {
                  "name": "run_command",
                  "arguments": "{\\"command\\":\\"ls\\"}"
                }
              },
              {
                "id": "call_2",
                "type": "function",
                "function": {
                  "name": "run_command",
                  "arguments": "{\\"command\\":\\"pwd\\""
                }
              }
            ]
          },
          {
            "role": "tool",
            "tool_call_id": "call_1",
            "content": "README.md\\nsrc\\n"
          },
          {
            "role": "tool",
            "tool_call_id": "call_2",
            "content": "error: the arguments are not valid JSON"
          },
          {
            "role": "assistant",
            "content": "Two entries."
          },
          {
            "role": "user",
            "content": "Thanks"
          }
        ],
        "stream": true,
        "stream_options": {
          "include_usage": true
        },
        "tools": [
          {
            "type": "function",
            "function": {
              "name": "run_command",
              "description": "Run a bash command in the workspace.",
              "parameters": {
                "type": "object",
                "properties": {
                  "command": {
                    "type": "string"
                  }
                },
                "required": [
                  "command"
                ]
              }
            }
          }
        ]
      }"
    `)
  })

  test('effort and fast become reasoning_effort and the priority service tier', async () => {
    const calls = await send(
      { model: 'openai/gpt-5', messages: [{ role: 'user', content: 'Plan it.' }], tools: [], options: { effort: 'high', fast: true } },
      'priority',
    )
    expect(sentJson(calls)).toMatchInlineSnapshot(`
      "{
        "model": "openai/gpt-5",
        "messages": [
          {
            "role": "user",
            "content": "Plan it."
          }
        ],
        "stream": true,
        "stream_options": {
          "include_usage": true
        },
        "reasoning_effort": "high",
        "service_tier": "priority"
      }"
    `)
  })

  test('ultrafast becomes service_tier "ultrafast", above fast', async () => {
    const request: ModelRequest = { model: 'openai/gpt-6-astra', messages: [{ role: 'user', content: 'x' }], tools: [], options: { fast: true, ultrafast: true } }
    expect(bodyOf(await send(request, 'priority'))).toMatchObject({ service_tier: 'ultrafast' })
  })

  test('options that are unset, empty or false send no field at all', async () => {
    const request: ModelRequest = { model: 'm', messages: [{ role: 'user', content: 'x' }], tools: [], options: { effort: '', fast: false } }
    expect(Object.keys(bodyOf(await send(request, 'priority')) as object)).toEqual(['model', 'messages', 'stream', 'stream_options'])
    expect(Object.keys(bodyOf(await send({ ...request, options: {} })) as object)).toEqual(['model', 'messages', 'stream', 'stream_options'])
  })
})

describe('requests a provider refuses to send', () => {
  test('fast mode on a provider without a fast tier fails at once, without a request', async () => {
    const { fetch, calls } = fakeFetch(() => sseResponse([STOP]))
    const provider = createOpenAiCompatibleProvider({ baseUrl: 'http://localhost:11434/v1', model: 'llama3.2', label: 'ollama', fetch })
    expect(await collect(provider, { model: 'llama3.2', messages: [], tools: [], options: { fast: true } })).toEqual([
      { type: 'error', code: ErrorCode.FX_MODEL_UNSUPPORTED_FAST, message: 'ollama has no fast tier; turn fast mode off with /fast', retryable: false },
    ])
    expect(calls).toEqual([])
  })

  test('no model named and no default (a preset before /model) fails at once, saying how to pick one', async () => {
    const { fetch, calls } = fakeFetch(() => sseResponse([STOP]))
    const provider = createOpenAiCompatibleProvider({ baseUrl: 'http://localhost:1234/v1', model: '', label: 'lmstudio', fetch })
    expect(await collect(provider, { model: '', messages: [], tools: [] })).toEqual([
      { type: 'error', code: ErrorCode.FX_MODEL_NOT_CHOSEN, message: 'no model is chosen for lmstudio; pick one with /model <id> (/models lists them)', retryable: false },
    ])
    expect(calls).toEqual([])
  })
})

describe('where the key goes when a request fails', () => {
  test('a 404 asks the provider itself for its models, and the probes after a network failure carry no key', async () => {
    const { fetch, calls } = fakeFetch((url, init) => {
      if (url.endsWith('/chat/completions')) return new Response('{"error":{"message":"no such model"}}', { status: 404 })
      if (init?.mode === 'no-cors') throw new TypeError('Failed to fetch')
      return Response.json({ data: [{ id: 'openai/gpt-5' }] })
    })
    const provider = createOpenAiCompatibleProvider({ baseUrl: BASE, apiKey: KEY, model: 'x', label: 'ai-gateway', fetch })
    await collect(provider)
    const failing = fakeFetch(() => {
      throw new TypeError('Failed to fetch')
    })
    await collect(createOpenAiCompatibleProvider({ baseUrl: BASE, apiKey: KEY, model: 'x', label: 'ai-gateway', fetch: failing.fetch }))
    const all = [...calls, ...failing.calls]
    expectKeyOnlyToBase(all)
    expect(all.map((call) => `${call.init?.mode ?? 'default'} ${call.url} ${(call.init?.headers as Record<string, string> | undefined)?.['Authorization'] ? 'with key' : 'no key'}`)).toEqual([
      `default ${BASE}/chat/completions with key`,
      `default ${BASE}/models with key`,
      `default ${BASE}/chat/completions with key`,
      `no-cors ${BASE}/models no key`,
    ])
  })
})

describe("a tool's images on Chat Completions", () => {
  test('go in one user message after the run of results, naming each call', () => {
    const png = { mimeType: 'image/png', data: 'iVBORw0=' }
    const wire = toWireMessages([
      { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'shot', arguments: '{}' }, { id: 'b', name: 'shot', arguments: '{}' }, { id: 'c', name: 'shot', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'a', content: 'one', images: [png] },
      { role: 'tool', toolCallId: 'b', content: 'two' },
      { role: 'tool', toolCallId: 'c', content: 'three', images: [png, png] },
      { role: 'assistant', content: 'Seen.' },
    ])
    const url = 'data:image/png;base64,iVBORw0='
    expect(wire.slice(1)).toEqual([
      { role: 'tool', tool_call_id: 'a', content: 'one' },
      { role: 'tool', tool_call_id: 'b', content: 'two' },
      { role: 'tool', tool_call_id: 'c', content: 'three' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'The images the tool call a returned:' },
          { type: 'image_url', image_url: { url } },
          { type: 'text', text: 'The images the tool call c returned:' },
          { type: 'image_url', image_url: { url } },
          { type: 'image_url', image_url: { url } },
        ],
      },
      { role: 'assistant', content: 'Seen.' },
    ])
  })
})
