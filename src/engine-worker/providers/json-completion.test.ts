/**
 * A server that ignores `stream: true` and answers one JSON object is a one-event reply. The
 * bodies are crafted here in the shapes of OpenAI's documented `chat.completion` object and
 * Anthropic's documented Messages `message` object (not recorded from a server).
 */
import { describe, expect, test } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import { createAnthropicProvider } from './anthropic-messages.ts'
import { createOpenAiCompatibleProvider } from './openai-compatible.ts'
import { MAX_EVENT_BYTES } from './sse-event-size.ts'
import { collect, fakeFetch } from '../../../test/support/providers.ts'

const json = (body: unknown, type = 'application/json') => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status: 200, headers: { 'content-type': type } })

function openAi(response: () => Response) {
  const { fetch } = fakeFetch(response)
  return createOpenAiCompatibleProvider({ baseUrl: 'https://models.example/v1', apiKey: 'sk-secret-123456789', model: 'm', label: 'models.example', fetch })
}

const completion = (message: object, finish = 'stop') => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1764000000,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
  usage: { prompt_tokens: 21, completion_tokens: 7, total_tokens: 28 },
})

describe('a non-streamed Chat Completions reply', () => {
  test('with text is its text, usage and finish', async () => {
    const events = await collect(openAi(() => json(completion({ content: 'Hello from JSON.' }))))
    expect(events).toEqual([
      { type: 'text_delta', delta: 'Hello from JSON.' },
      { type: 'usage', inputTokens: 21, outputTokens: 7 },
      { type: 'finish', reason: 'stop' },
    ])
  })

  test('with tool calls is each call whole, in order, then tool_calls', async () => {
    const calls = [
      { id: 'call_a', type: 'function', function: { name: 'run_command', arguments: '{"command":"ls"}' } },
      { id: 'call_b', type: 'function', function: { name: 'write_file', arguments: { path: 'a.txt', content: 'x' } } },
    ]
    const events = await collect(openAi(() => json(completion({ content: null, tool_calls: calls }, 'tool_calls'), 'application/json; charset=utf-8')))
    expect(events).toEqual([
      { type: 'tool_call_start', index: 0, id: 'call_a', name: 'run_command' },
      { type: 'tool_call_delta', index: 0, delta: '{"command":"ls"}' },
      { type: 'tool_call_end', index: 0 },
      { type: 'tool_call_start', index: 1, id: 'call_b', name: 'write_file' },
      { type: 'tool_call_delta', index: 1, delta: '{"path":"a.txt","content":"x"}' },
      { type: 'tool_call_end', index: 1 },
      { type: 'usage', inputTokens: 21, outputTokens: 7 },
      { type: 'finish', reason: 'tool_calls' },
    ])
  })

  test('with an error object quotes it, masked', async () => {
    const events = await collect(openAi(() => json({ error: { message: 'bad key sk-secret-123456789', type: 'invalid_request_error' } })))
    expect(events).toEqual([
      {
        type: 'error',
        code: ErrorCode.FX_MODEL_STREAM_ERROR,
        message: 'models.example answered with an error: bad key ***; change the request or the model before trying again',
        retryable: false,
      },
    ])
  })

  test('JSON that is no reply is malformed, and one over 4 MB is refused unread', async () => {
    expect(await collect(openAi(() => json({ object: 'list', data: [] })))).toEqual([
      { type: 'error', code: ErrorCode.FX_MODEL_STREAM_MALFORMED, message: 'models.example answered with JSON that is not a reply: "{"object":"list","data":[]}"', retryable: false },
    ])
    const huge = JSON.stringify(completion({ content: 'x'.repeat(MAX_EVENT_BYTES) }))
    expect(await collect(openAi(() => json(huge)))).toEqual([
      {
        type: 'error',
        code: ErrorCode.FX_MODEL_EVENT_TOO_LARGE,
        message: 'models.example answered with a reply larger than 4 MB in one piece, so it was refused without reading the rest; ask for the work in smaller steps (write a large file in parts)',
        retryable: false,
      },
    ])
  })
})

test('a non-streamed Anthropic message is its blocks as events', async () => {
  const message = {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude',
    content: [
      { type: 'text', text: 'Listing.' },
      { type: 'tool_use', id: 'toolu_1', name: 'run_command', input: { command: 'ls' } },
    ],
    stop_reason: 'tool_use',
    usage: { input_tokens: 10, output_tokens: 4 },
  }
  const { fetch } = fakeFetch(() => json(message))
  const provider = createAnthropicProvider({ baseUrl: 'https://anthropic.example/v1', name: 'anthropic', label: 'anthropic', model: 'claude', key: async () => 'k', fetch })
  expect(await collect(provider)).toEqual([
    { type: 'text_delta', delta: 'Listing.' },
    { type: 'tool_call_start', index: 0, id: 'toolu_1', name: 'run_command' },
    { type: 'tool_call_delta', index: 0, delta: '{"command":"ls"}' },
    { type: 'tool_call_end', index: 0 },
    { type: 'usage', inputTokens: 10, outputTokens: 4 },
    { type: 'finish', reason: 'tool_calls' },
  ])
})
