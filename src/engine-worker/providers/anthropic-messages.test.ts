/**
 * The Anthropic Messages adapter: streams in the shapes Anthropic documents, and streams its API
 * really sent (fixtures/anthropic/, origins in its README), become the same ModelEvents the Chat
 * Completions adapter emits; the request carries the key only in x-api-key with the browser
 * opt-in header, and the body is Anthropic's.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import type { ModelRequest } from '../../shared/protocol/model-events.ts'
import { ErrorCode } from '../../shared/errors.ts'
import { createAnthropicProvider } from './anthropic-messages.ts'
import { MISSING_RESULT, toAnthropicBody, toAnthropicMessages } from './anthropic-wire.ts'
import { byteSplits, collect, fakeFetch, joinTextDeltas, sseResponse } from '../../../test/support/providers.ts'

const KEY = 'sk-ant-fixture-0123456789'
const fixture = (name: string) => readFileSync(new URL(`./fixtures/anthropic/${name}.sse`, import.meta.url))

function provider(respond: (url: string, init: RequestInit | undefined) => Response, key: string | null = KEY) {
  const { fetch, calls } = fakeFetch(respond)
  return { calls, provider: createAnthropicProvider({ baseUrl: 'https://api.anthropic.com/v1/', name: 'anthropic', label: 'anthropic', model: 'claude-sonnet-4-5', key: async () => key ?? undefined, fetch, origin: 'https://page.example' }) }
}

async function replay(name: string, chunks?: Uint8Array[]) {
  const { provider: p } = provider(() => sseResponse(chunks ?? [fixture(name)]))
  return joinTextDeltas(await collect(p))
}

describe('Anthropic streams as model events', () => {
  test('a text reply: deltas, then usage with cached input counted, then stop', async () => {
    expect(await replay('text')).toEqual([
      { type: 'text_delta', delta: 'Hello, wörld ✓' },
      { type: 'usage', inputTokens: 25, outputTokens: 15 },
      { type: 'finish', reason: 'stop' },
    ])
  })

  test('tool_use blocks become numbered tool calls; a call without input gets {}', async () => {
    expect(await replay('tool-use')).toEqual([
      { type: 'text_delta', delta: 'Let me list the files.' },
      { type: 'tool_call_start', index: 0, id: 'toolu_01FixtureA', name: 'run_command' },
      { type: 'tool_call_delta', index: 0, delta: '{"command": "ls' },
      { type: 'tool_call_delta', index: 0, delta: ' -la"}' },
      { type: 'tool_call_end', index: 0 },
      { type: 'tool_call_start', index: 1, id: 'toolu_01FixtureB', name: 'list_files' },
      { type: 'tool_call_delta', index: 1, delta: '{}' },
      { type: 'tool_call_end', index: 1 },
      { type: 'usage', inputTokens: 572, outputTokens: 89 },
      { type: 'finish', reason: 'tool_calls' },
    ])
  })

  test('thinking is reasoning, the signature is dropped, max_tokens is a length stop', async () => {
    expect(await replay('thinking')).toEqual([
      { type: 'reasoning_delta', delta: '27 * 453: 27 * 400 = 10800,' },
      { type: 'reasoning_delta', delta: ' 27 * 53 = 1431, so 12231.' },
      { type: 'text_delta', delta: '27 × 453 = 12,231' },
      { type: 'usage', inputTokens: 69, outputTokens: 53 },
      { type: 'finish', reason: 'length' },
    ])
  })

  test('an error event mid-stream is one retryable error after the text so far', async () => {
    expect(await replay('overloaded')).toEqual([
      { type: 'text_delta', delta: 'Partial' },
      { type: 'error', code: ErrorCode.FX_MODEL_STREAM_ERROR, message: 'anthropic reported overloaded_error during the reply: Overloaded', retryable: true },
    ])
  })

  test('a body that ends before message_stop is a retryable truncation', async () => {
    expect(await replay('cut-short')).toEqual([
      { type: 'text_delta', delta: 'Half a sen' },
      { type: 'error', code: ErrorCode.FX_MODEL_STREAM_TRUNCATED, message: 'anthropic closed the stream before the model finished; try again', retryable: true },
    ])
  })

  for (const name of ['text', 'tool-use', 'thinking']) {
    test(`${name}: the same events however the bytes are cut`, async () => {
      const whole = await replay(name)
      for (const chunks of byteSplits(new TextDecoder().decode(fixture(name)))) expect(await replay(name, chunks)).toEqual(whole)
    })
  }
})

/**
 * A recorded `.chunks.txt` (one event's JSON a line, as vercel/ai stores Anthropic's replies) as
 * the body Anthropic sends: each line behind its `event:` name, as on the wire.
 */
function recordedBody(name: string): string {
  const lines = readFileSync(new URL(`./fixtures/anthropic/${name}.chunks.txt`, import.meta.url), 'utf8').split('\n')
  return lines
    .filter((line) => line.trim() !== '')
    .map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`)
    .join('')
}

async function replayRecorded(name: string, size?: number) {
  const bytes = new TextEncoder().encode(recordedBody(name))
  const chunks: Uint8Array[] = []
  const step = size ?? bytes.length
  for (let at = 0; at < bytes.length; at += step) chunks.push(bytes.slice(at, at + step))
  return replay('', chunks)
}

describe('streams Anthropic really sent (recorded by vercel/ai, see fixtures/anthropic/README.md)', () => {
  test('claude-sonnet-4-5 greeting: the whole text, usage, end_turn as stop', async () => {
    expect(await replayRecorded('vercel-text')).toEqual([
      { type: 'text_delta', delta: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?" },
      { type: 'usage', inputTokens: 12, outputTokens: 30 },
      { type: 'finish', reason: 'stop' },
    ])
  })

  test('claude-haiku-4-5 tool_use: an empty first partial_json and a ping between deltas, one call', async () => {
    expect(await replayRecorded('vercel-json-tool')).toEqual([
      { type: 'tool_call_start', index: 0, id: 'toolu_01KFbKqPYSuAKujiL6mTfzYA', name: 'json' },
      { type: 'tool_call_delta', index: 0, delta: '{"elements": [{"location": "San Francisco", "temperature": 58, "condition": "sunny"}]' },
      { type: 'tool_call_delta', index: 0, delta: '}' },
      { type: 'tool_call_end', index: 0 },
      { type: 'usage', inputTokens: 849, outputTokens: 47 },
      { type: 'finish', reason: 'tool_calls' },
    ])
  })

  test('claude-sonnet-4-5 thinking: reasoning first (signature dropped), then the reply', async () => {
    const events = await replayRecorded('vercel-clear-thinking')
    const reasoning = events.map((event) => (event.type === 'reasoning_delta' ? event.delta : '')).join('')
    expect(reasoning).toBe('The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185')
    expect(events.filter((event) => event.type !== 'reasoning_delta')).toEqual([
      { type: 'text_delta', delta: '925 ÷ 5 = 185' },
      { type: 'usage', inputTokens: 69, outputTokens: 53 },
      { type: 'finish', reason: 'stop' },
    ])
    expect(JSON.stringify(events)).not.toContain('EvQBCkYI')
  })

  for (const name of ['vercel-text', 'vercel-json-tool', 'vercel-clear-thinking']) {
    test(`${name}: the same events when the network cuts it every 7 bytes`, async () => {
      expect(await replayRecorded(name, 7)).toEqual(await replayRecorded(name))
    })
  }
})

describe('the request Anthropic gets', () => {
  test('POST /v1/messages with x-api-key, the version and the browser opt-in, and no Authorization', async () => {
    const { provider: p, calls } = provider(() => sseResponse([fixture('text')]))
    await collect(p)
    expect(calls.map((call) => [call.url, call.init?.method, call.init?.headers])).toEqual([
      [
        'https://api.anthropic.com/v1/messages',
        'POST',
        {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          'x-api-key': KEY,
          'anthropic-version': '2023-06-01',
          'anthropic-dangerous-direct-browser-access': 'true',
        },
      ],
    ])
  })

  test('without a key nothing is sent and the error says how to save one', async () => {
    const { provider: p, calls } = provider(() => sseResponse([fixture('text')]), null)
    expect(await collect(p)).toEqual([{ type: 'error', code: ErrorCode.FX_MODEL_UNAUTHORIZED, message: 'anthropic needs an API key: /key anthropic saves one', retryable: false }])
    expect(calls).toEqual([])
  })

  test('ultrafast has no Anthropic tier: the request fails at once, naming the setting', async () => {
    const { provider: p, calls } = provider(() => sseResponse([fixture('text')]))
    expect(await collect(p, { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }], tools: [], options: { ultrafast: true } })).toEqual([
      { type: 'error', code: ErrorCode.FX_MODEL_UNSUPPORTED_ULTRAFAST, message: 'anthropic has no ultrafast tier; leave ultrafast off', retryable: false },
    ])
    expect(calls).toEqual([])
  })

  test('a 401 names the key as rejected and never quotes it', async () => {
    const { provider: p } = provider(() => new Response(JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${KEY}` } }), { status: 401 }))
    const events = await collect(p)
    expect(events.map((e) => e.type === 'error' && e.code)).toEqual([ErrorCode.FX_MODEL_UNAUTHORIZED])
    expect(JSON.stringify(events)).not.toContain(KEY)
  })

  test('a redirect is not followed (x-api-key would go with it): one line names the only origin the key goes to', async () => {
    const { provider: p, calls } = provider(() => new Response(null, { status: 307, headers: { location: 'https://elsewhere.example/v1/messages' } }))
    expect(await collect(p)).toEqual([
      {
        type: 'error',
        code: ErrorCode.FX_MODEL_REDIRECT_REFUSED,
        message: "anthropic answered https://api.anthropic.com/v1/messages with a redirect; fxterm does not follow it, so your key goes only to https://api.anthropic.com. Set the provider's base URL to where the server really answers.",
        retryable: false,
      },
    ])
    expect(calls.map((call) => [call.url, call.init?.redirect])).toEqual([['https://api.anthropic.com/v1/messages', 'manual']])
  })

  test("an app's fetch that cannot read the key says so, and nothing is probed", async () => {
    const { provider: p, calls } = provider(() => {
      throw Object.assign(new Error('the key could not be read, so nothing was sent: the key store is locked'), { code: ErrorCode.FX_MODEL_KEY_UNAVAILABLE })
    })
    expect(await collect(p)).toEqual([
      { type: 'error', code: ErrorCode.FX_MODEL_KEY_UNAVAILABLE, message: 'the key could not be read, so nothing was sent: the key store is locked', retryable: false },
    ])
    expect(calls).toHaveLength(1)
  })

  test('the catalog comes from GET /v1/models with the same headers', async () => {
    const { provider: p, calls } = provider(() => Response.json({ data: [{ type: 'model', id: 'claude-sonnet-4-5', display_name: 'Claude Sonnet 4.5' }, { type: 'model', id: 'claude-haiku-4-5' }], has_more: false }))
    expect(await p.listModels!(new AbortController().signal)).toEqual([
      { id: 'claude-sonnet-4-5', supportsToolUse: true, supportsImages: true, fast: false },
      { id: 'claude-haiku-4-5', supportsToolUse: true, supportsImages: true, fast: false },
    ])
    expect(calls[0]?.url).toEqual('https://api.anthropic.com/v1/models?limit=1000')
    expect((calls[0]?.init?.headers as Record<string, string>)['x-api-key']).toEqual(KEY)
  })

  test('the body: system apart, tool calls as tool_use, results folded into one user turn', () => {
    const request: ModelRequest = {
      model: '',
      tools: [{ name: 'run_command', description: 'Run a command', parameters: { type: 'object', properties: { command: { type: 'string' } } } }],
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'list and count' },
        { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'run_command', arguments: '{"command":"ls"}' }, { id: 't2', name: 'run_command', arguments: 'not json' }] },
        { role: 'tool', toolCallId: 't1', content: 'a.txt' },
        { role: 'tool', toolCallId: 't2', content: 'error' },
        { role: 'assistant', content: 'One file.' },
        { role: 'user', content: 'thanks', images: [{ mimeType: 'image/png', data: 'iVBORw0=' }] },
      ],
    }
    expect(toAnthropicBody(request, 'claude-sonnet-4-5')).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 8192,
      system: 'You are terse.',
      stream: true,
      tools: [{ name: 'run_command', description: 'Run a command', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }],
      messages: [
        { role: 'user', content: 'list and count' },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 't1', name: 'run_command', input: { command: 'ls' } },
            { type: 'tool_use', id: 't2', name: 'run_command', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: 'a.txt' },
            { type: 'tool_result', tool_use_id: 't2', content: 'error' },
          ],
        },
        { role: 'assistant', content: 'One file.' },
        { role: 'user', content: [{ type: 'text', text: 'thanks' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0=' } }] },
      ],
    })
  })
})

describe("a tool's images", () => {
  test('follow all the results of the turn, in the same user turn', () => {
    const image = { mimeType: 'image/png', data: 'iVBORw0=' }
    const request: ModelRequest = {
      model: 'claude-sonnet-4-5',
      tools: [{ name: 'shot', description: '', parameters: { type: 'object' } }],
      messages: [
        { role: 'user', content: 'look' },
        { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'shot', arguments: '{}' }, { id: 't2', name: 'shot', arguments: '{}' }] },
        { role: 'tool', toolCallId: 't1', content: 'page one', images: [image] },
        { role: 'tool', toolCallId: 't2', content: 'page two' },
      ],
    }
    expect(toAnthropicBody(request, 'claude-sonnet-4-5').messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: 'page one' },
        { type: 'tool_result', tool_use_id: 't2', content: 'page two' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0=' } },
      ],
    })
  })
})

describe('histories Anthropic would refuse are sent in the order it wants', () => {
  const call = (id: string) => ({ id, name: 'run_command', arguments: '{"command":"ls"}' })
  const use = (id: string) => ({ type: 'tool_use', id, name: 'run_command', input: { command: 'ls' } })

  test('a result after the user\'s words moves ahead of them', () => {
    expect(
      toAnthropicMessages([
        { role: 'user', content: 'list' },
        { role: 'assistant', content: '', toolCalls: [call('t1')] },
        { role: 'user', content: 'and be quick' },
        { role: 'tool', toolCallId: 't1', content: 'a.txt' },
      ]).messages,
    ).toEqual([
      { role: 'user', content: 'list' },
      { role: 'assistant', content: [use('t1')] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'a.txt' }, { type: 'text', text: 'and be quick' }] },
    ])
  })

  test('a session saved between a call and its result: the missing result says so, first', () => {
    expect(
      toAnthropicMessages([
        { role: 'user', content: 'list twice' },
        { role: 'assistant', content: 'Listing.', toolCalls: [call('t1'), call('t2')] },
        { role: 'tool', toolCallId: 't1', content: 'a.txt' },
        { role: 'user', content: '[The previous turn was interrupted]' },
      ]).messages,
    ).toEqual([
      { role: 'user', content: 'list twice' },
      { role: 'assistant', content: [{ type: 'text', text: 'Listing.' }, use('t1'), use('t2')] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'a.txt' },
          { type: 'tool_result', tool_use_id: 't2', content: MISSING_RESULT },
          { type: 'text', text: '[The previous turn was interrupted]' },
        ],
      },
    ])
  })

  test('calls at the very end get a user turn of results; a result with no call is kept as text', () => {
    expect(
      toAnthropicMessages([
        { role: 'tool', toolCallId: 'gone', content: 'old output' },
        { role: 'user', content: 'go' },
        { role: 'assistant', content: '', toolCalls: [call('t1')] },
      ]).messages,
    ).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'old output' }, { type: 'text', text: 'go' }] },
      { role: 'assistant', content: [use('t1')] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: MISSING_RESULT }] },
    ])
  })

  test('a request without tools carries earlier calls and results as text (tool blocks need tools defined)', () => {
    const body = toAnthropicBody(
      {
        model: 'm',
        tools: [],
        messages: [
          { role: 'user', content: 'list' },
          { role: 'assistant', content: '', toolCalls: [call('t1')] },
          { role: 'tool', toolCallId: 't1', content: 'a.txt' },
          { role: 'user', content: 'summarise' },
        ],
      },
      'm',
    )
    expect(body.messages).toEqual([
      { role: 'user', content: 'list' },
      { role: 'assistant', content: [{ type: 'text', text: '[called run_command {"command":"ls"}]' }] },
      { role: 'user', content: [{ type: 'text', text: '[result] a.txt' }, { type: 'text', text: 'summarise' }] },
    ])
    expect(body.tools).toBeUndefined()
  })
})
