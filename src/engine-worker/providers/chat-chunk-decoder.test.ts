import { describe, expect, test } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import type { ModelEvent } from '../../shared/protocol/model-events.ts'
import { createChatChunkDecoder } from './chat-chunk-decoder.ts'

/** Feeds payloads (objects become JSON), then ends the body, and returns the events. */
function decode(payloads: (object | string)[], options: { end?: boolean } = {}): ModelEvent[] {
  const events: ModelEvent[] = []
  const decoder = createChatChunkDecoder({ emit: (event) => events.push(event), label: 'srv', secret: 'sk-live-abcdefgh' })
  for (const payload of payloads) decoder.payload(typeof payload === 'string' ? payload : JSON.stringify(payload))
  if (options.end !== false) decoder.end()
  return events
}

describe('the chat chunk decoder', () => {
  test('only the first choice is followed when a server sends several', () => {
    expect(
      decode([
        { choices: [{ index: 0, delta: { content: 'A' } }, { index: 1, delta: { content: 'B' } }] },
        { choices: [{ index: 1, delta: {}, finish_reason: 'length' }, { index: 0, delta: { content: 'C' }, finish_reason: 'stop' }] },
        '[DONE]',
      ]),
    ).toEqual([
      { type: 'text_delta', delta: 'A' },
      { type: 'text_delta', delta: 'C' },
      { type: 'finish', reason: 'stop' },
    ])
  })

  test("OpenAI's refusal comes as refusal deltas, never as an empty reply", () => {
    // The chunks' shape as OpenAI streams a refusal (content null, then refusal deltas).
    const envelope = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-2024-08-06' }
    expect(
      decode([
        { ...envelope, choices: [{ index: 0, delta: { role: 'assistant', content: null, refusal: '' }, logprobs: null, finish_reason: null }] },
        { ...envelope, choices: [{ index: 0, delta: { refusal: "I'm sorry, " }, logprobs: null, finish_reason: null }] },
        { ...envelope, choices: [{ index: 0, delta: { refusal: "I can't help with that." }, logprobs: null, finish_reason: null }] },
        { ...envelope, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }] },
        '[DONE]',
      ]),
    ).toEqual([
      { type: 'refusal_delta', delta: "I'm sorry, " },
      { type: 'refusal_delta', delta: "I can't help with that." },
      { type: 'finish', reason: 'stop' },
    ])
  })

  test("Azure's filter reports around the chunks are passed over; its content_filter stop is kept", () => {
    // Azure OpenAI's shape: a first chunk with no choices and the prompt's filter results, then
    // content with per-chunk filter results, then the stop.
    const filtered = { hate: { filtered: false, severity: 'safe' }, violence: { filtered: true, severity: 'high' } }
    expect(
      decode([
        { id: '', object: '', created: 0, model: '', choices: [], prompt_filter_results: [{ prompt_index: 0, content_filter_results: filtered }] },
        { choices: [{ index: 0, delta: { role: 'assistant', content: 'Part of' }, content_filter_results: {}, finish_reason: null }] },
        { choices: [{ index: 0, delta: {}, content_filter_results: filtered, finish_reason: 'content_filter' }] },
        '[DONE]',
      ]),
    ).toEqual([
      { type: 'text_delta', delta: 'Part of' },
      { type: 'finish', reason: 'content_filter' },
    ])
  })

  test('a refusal in the same chunk as a content_filter stop is shown, then the stop', () => {
    expect(decode([{ choices: [{ index: 0, delta: { refusal: 'I cannot help with that request.' }, finish_reason: 'content_filter' }] }, '[DONE]'])).toEqual([
      { type: 'refusal_delta', delta: 'I cannot help with that request.' },
      { type: 'finish', reason: 'content_filter' },
    ])
  })

  test("content as an array of parts (Mistral's Magistral): text parts are the reply, thinking parts reasoning", () => {
    expect(
      decode([
        { choices: [{ index: 0, delta: { role: 'assistant', content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'Two plus two' }] }] } }] },
        { choices: [{ index: 0, delta: { content: [{ type: 'thinking', thinking: [{ type: 'text', text: ' is four.' }] }, { type: 'text', text: '2 + 2 = 4' }] } }] },
        { choices: [{ index: 0, delta: { content: [{ type: 'image_url', image_url: 'x' }, { type: 'thinking', thinking: 'plain string' }] }, finish_reason: 'stop' }] },
      ]),
    ).toEqual([
      { type: 'reasoning_delta', delta: 'Two plus two' },
      { type: 'reasoning_delta', delta: ' is four.' },
      { type: 'text_delta', delta: '2 + 2 = 4' },
      { type: 'reasoning_delta', delta: 'plain string' },
      { type: 'finish', reason: 'stop' },
    ])
  })

  test('reasoning fields of either common name become reasoning deltas', () => {
    expect(
      decode([
        { choices: [{ index: 0, delta: { reasoning_content: 'hmm' } }] },
        { choices: [{ index: 0, delta: { reasoning: ' ok' } }] },
        { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      ]),
    ).toEqual([
      { type: 'reasoning_delta', delta: 'hmm' },
      { type: 'reasoning_delta', delta: ' ok' },
      { type: 'finish', reason: 'stop' },
    ])
  })

  test("OpenRouter's reasoning_details count when no reasoning field carries the text, and never twice", () => {
    expect(
      decode([
        { choices: [{ index: 0, delta: { content: '', reasoning: null, reasoning_details: [{ type: 'reasoning.text', text: 'alone', index: 0 }] } }] },
        { choices: [{ index: 0, delta: { content: '', reasoning: ' both', reasoning_details: [{ type: 'reasoning.text', text: ' both', index: 0 }] } }] },
        { choices: [{ index: 0, delta: { reasoning_details: [{ type: 'reasoning.summary', summary: ' summed' }, { type: 'reasoning.encrypted', data: 'xyz' }] } }] },
        { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      ]),
    ).toEqual([
      { type: 'reasoning_delta', delta: 'alone' },
      { type: 'reasoning_delta', delta: ' both' },
      { type: 'reasoning_delta', delta: ' summed' },
      { type: 'finish', reason: 'stop' },
    ])
  })

  test('argument fragments that arrive before the call id and name are held until the start', () => {
    expect(
      decode([
        { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"a"' } }] } }] },
        { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'c1', function: { name: 'run_command', arguments: ':1}' } }] } }] },
        { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
        '[DONE]',
      ]),
    ).toEqual([
      { type: 'tool_call_start', index: 0, id: 'c1', name: 'run_command' },
      { type: 'tool_call_delta', index: 0, delta: '{"a"' },
      { type: 'tool_call_delta', index: 0, delta: ':1}' },
      { type: 'tool_call_end', index: 0 },
      { type: 'finish', reason: 'tool_calls' },
    ])
  })

  test('tool calls without an index or id still get distinct indices and a generated id', () => {
    expect(
      decode([
        { choices: [{ index: 0, delta: { tool_calls: [{ function: { name: 'run_command', arguments: '{"command":"ls"}' } }] } }] },
        { choices: [{ index: 0, delta: { tool_calls: [{ id: 'x2', function: { name: 'run_command', arguments: '{}' } }] } }] },
        { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      ]),
    ).toEqual([
      // The first call can get no more fragments once the second begins, so it starts then.
      { type: 'tool_call_start', index: 0, id: 'call_0', name: 'run_command' },
      { type: 'tool_call_delta', index: 0, delta: '{"command":"ls"}' },
      { type: 'tool_call_start', index: 1, id: 'x2', name: 'run_command' },
      { type: 'tool_call_delta', index: 1, delta: '{}' },
      { type: 'tool_call_end', index: 0 },
      { type: 'tool_call_end', index: 1 },
      // A server that says "stop" after calling tools still needs the engine to run them.
      { type: 'finish', reason: 'tool_calls' },
    ])
  })

  test('a finish_reason followed by a closed body finishes without [DONE], keeping the usage', () => {
    expect(
      decode([
        { choices: [{ index: 0, delta: { content: 'x' }, finish_reason: 'length' }] },
        { choices: [], usage: { prompt_tokens: 5, completion_tokens: 9 } },
      ]),
    ).toEqual([
      { type: 'text_delta', delta: 'x' },
      { type: 'usage', inputTokens: 5, outputTokens: 9 },
      { type: 'finish', reason: 'length' },
    ])
  })

  test('unknown finish reasons map to stop and content_filter is kept', () => {
    expect(decode([{ choices: [{ index: 0, delta: {}, finish_reason: 'eos' }] }])).toEqual([{ type: 'finish', reason: 'stop' }])
    expect(decode([{ choices: [{ index: 0, delta: {}, finish_reason: 'content_filter' }] }])).toEqual([
      { type: 'finish', reason: 'content_filter' },
    ])
  })

  test('nothing is emitted after the terminal event, and end() after it stays silent', () => {
    expect(
      decode([{ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }, '[DONE]', { choices: [{ index: 0, delta: { content: 'late' } }] }, 'not json']),
    ).toEqual([{ type: 'finish', reason: 'stop' }])
  })

  test('an SSE error event and a string error are reported with secrets masked', () => {
    const events: ModelEvent[] = []
    const decoder = createChatChunkDecoder({ emit: (event) => events.push(event), label: 'srv', secret: 'sk-live-abcdefgh' })
    decoder.payload('{"message":"quota exceeded for sk-live-abcdefgh"}', 'error')
    expect(events).toEqual([
      { type: 'error', code: ErrorCode.FX_MODEL_STREAM_ERROR, message: 'srv reported an error mid-answer: quota exceeded for ***; try again', retryable: true },
    ])
    expect(decode([{ error: 'overloaded' }])).toEqual([
      { type: 'error', code: ErrorCode.FX_MODEL_STREAM_ERROR, message: 'srv reported an error mid-answer: overloaded; try again', retryable: true },
    ])
  })

  test('a JSON value that is not an object is malformed', () => {
    expect(decode(['[1,2]'])).toEqual([
      { type: 'error', code: ErrorCode.FX_MODEL_STREAM_MALFORMED, message: 'srv sent a stream line that is not a JSON object: "[1,2]"', retryable: false },
    ])
  })
})
