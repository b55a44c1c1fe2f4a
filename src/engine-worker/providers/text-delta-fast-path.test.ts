import { describe, expect, test } from 'vitest'
import { plainTextDelta } from './text-delta-fast-path.ts'

const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}, choice: Record<string, unknown> = {}) =>
  JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm', ...extra, choices: [{ index: 0, delta, finish_reason: null, ...choice }] })

describe('the text-delta fast path', () => {
  test.each(['abcd', 'é漢😀', 'a"b', 'line\nbreak', 'back\\slash', '\u0000\u001b[31m', '', 'tab\tand \u2028'])(
    'reads %j exactly as JSON.parse would',
    (text) => {
      const data = chunk({ content: text })
      expect(plainTextDelta(data)).toBe((JSON.parse(data) as { choices: [{ delta: { content: string } }] }).choices[0].delta.content)
    },
  )

  test('the first chunk with a role and the logprobs field still match', () => {
    expect(plainTextDelta(chunk({ role: 'assistant', content: 'Hi' }, {}, { logprobs: null }))).toBe('Hi')
  })

  test.each([
    ['a finish reason', chunk({ content: 'x' }, {}, { finish_reason: 'stop' })],
    ['tool calls', chunk({ content: '', tool_calls: [{ index: 0, function: { arguments: '{' } }] })],
    ['reasoning', chunk({ reasoning_content: 'hmm', content: '' })],
    ['usage', chunk({ content: 'x' }, { usage: { prompt_tokens: 1, completion_tokens: 1 } })],
    ['an error envelope', JSON.stringify({ error: { message: 'boom' }, choices: [{ index: 0, delta: { content: 'x' }, finish_reason: null }] })],
    ['another choice index', chunk({ content: 'x' }, {}, { index: 1 })],
    ['two choices', JSON.stringify({ choices: [{ index: 0, delta: { content: 'a' }, finish_reason: null }, { index: 1, delta: { content: 'b' }, finish_reason: null }] })],
    ['an unknown envelope field', chunk({ content: 'x' }, { extra: { nested: true } })],
    ['a role other than assistant', chunk({ role: 'tool', content: 'x' })],
    ['trailing garbage', chunk({ content: 'x' }) + 'x'],
    ['not JSON', 'data'],
    ['a raw control character (JSON.parse would reject it)', chunk({ content: 'x' }).replace('"x"', '"a\tb"')],
    ['an escape JSON does not have', chunk({ content: 'x' }).replace('"x"', '"\\q"')],
  ])('%s takes the full parse', (_name, data) => {
    expect(plainTextDelta(data)).toBeUndefined()
  })
})
