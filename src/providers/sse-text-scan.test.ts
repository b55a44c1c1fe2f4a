import { describe, expect, test } from 'vitest'
import { sseEventEnd } from './sse-event-end.ts'
import { createSseTextScan, NEED_MORE, NOT_PLAIN } from './sse-text-scan.ts'

const envelope = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm' }
const plain = (content: string, ending = '\n\n') =>
  `data: ${JSON.stringify({ ...envelope, choices: [{ index: 0, delta: { content }, finish_reason: null }] })}${ending}`

/** A scan that has learned the envelope from one plain event. */
function learned(ending = '\n\n') {
  const scan = createSseTextScan()
  expect(scan.learn(plain('first', ending))).toBe(true)
  return scan
}

describe('the SSE fast lane', () => {
  test.each(['abcd', 'é漢😀', 'a"b', 'line\nbreak', 'back\\slash', 'tab\tand \u2028', '\u0000\u001b[31m', ''])(
    'reads %j from an event of the learned envelope as JSON.parse would',
    (text) => {
      const event = plain(text)
      expect(learned().match(`${event}rest`, 0)).toEqual({ end: event.length, text })
    },
  )

  test.each([
    ['LF', '\n\n'],
    ['CRLF', '\r\n\r\n'],
    ['CR', '\r\r'],
  ])('reads events ended with %s, and waits at every point before the end', (_name, ending) => {
    const event = plain('wörd 😀', ending)
    const scan = learned(ending)
    for (let cut = 0; cut < event.length; cut++) expect(scan.match(event.slice(0, cut), 0), `cut at ${cut}`).toBe(NEED_MORE)
    expect(scan.match(`xx${event}`, 2)).toEqual({ end: event.length + 2, text: 'wörd 😀' })
  })

  test('a run of events of the learned envelope is read in one step, up to the last one in the text', () => {
    const scan = learned()
    const first = [plain('a'), plain('b\n"q"'), plain('c\\')].join('')
    expect(scan.match(first + plain('d'), 0)).toEqual({ end: first.length, text: 'ab\n"q"c\\' })
    expect(scan.match(first + plain('d'), first.length)).toEqual({ end: first.length + plain('d').length, text: 'd' })
  })

  test('a run stops before an event whose content is not a JSON string body', () => {
    const scan = learned()
    const bad = plain('x').replace('"content":"x"', '"content":"x"y"')
    const text = plain('a') + bad + plain('c')
    expect(scan.match(text, 0)).toEqual({ end: plain('a').length, text: 'a' })
    expect(scan.match(text, plain('a').length)).toBe(NOT_PLAIN)
  })

  test('learns nothing until a plain event was read by the full path', () => {
    expect(createSseTextScan().match(plain('a'), 0)).toBe(NOT_PLAIN)
  })

  test.each([
    ['a finish reason', `data: ${JSON.stringify({ ...envelope, choices: [{ index: 0, delta: { content: 'x' }, finish_reason: 'stop' }] })}\n\n`],
    ['another envelope', `data: ${JSON.stringify({ ...envelope, id: 'chatcmpl-2', choices: [{ index: 0, delta: { content: 'x' }, finish_reason: null }] })}\n\n`],
    ['a field other than data', `event: error\n${plain('x')}`],
    ['a data field without the space', plain('x').replace('data: ', 'data:')],
    ['mixed line endings', plain('x', '\r\n\n')],
    ['a second data line', plain('x', '\ndata: y\n\n')],
    ['an unknown escape', plain('x').replace('"content":"x"', '"content":"\\x"')],
    ['a raw control character', plain('x').replace('"content":"x"', '"content":"\tx"')],
    ['a comment', `: keep-alive\n\n${plain('x')}`],
  ])('%s is left to the full path', (_name, event) => {
    expect(learned().match(event, 0)).toBe(NOT_PLAIN)
  })

  test('an escaped quote does not end the content early', () => {
    const event = plain('say "hi"')
    expect(learned().match(event, 0)).toEqual({ end: event.length, text: 'say "hi"' })
    expect(learned().match(event.slice(0, event.indexOf('hi')), 0)).toBe(NEED_MORE)
  })

  test('the first event with a role teaches its own envelope, which the next events do not share', () => {
    const scan = createSseTextScan()
    const first = `data: ${JSON.stringify({ ...envelope, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })}\n\n`
    expect(scan.learn(first)).toBe(true)
    expect(scan.match(plain('x'), 0)).toBe(NOT_PLAIN)
    expect(scan.learn(plain('x'))).toBe(true)
    expect(scan.match(plain('y'), 0)).toEqual({ end: plain('y').length, text: 'y' })
  })

  test('an event that is not exactly one plain data line teaches nothing', () => {
    const scan = createSseTextScan()
    expect(scan.learn(`id: 1\n${plain('x')}`)).toBe(false)
    expect(scan.learn(plain('x', '\n'))).toBe(false)
    expect(scan.learn('data: [DONE]\n\n')).toBe(false)
  })
})

describe('the end of an SSE event', () => {
  test.each([
    ['data: a\n\nnext', 9],
    ['data: a\r\n\r\nnext', 11],
    ['data: a\r\rnext', 9],
    ['data: a\r\n\nnext', 10],
    ['id: 1\ndata: a\n\n', 15],
    ['\nnext', 1],
    ['\r\nnext', 2],
  ])('%j ends at %i', (text, end) => {
    expect(sseEventEnd(text, 0)).toBe(end)
  })

  test.each(['data: a', 'data: a\n', 'data: a\r', 'data: a\r\n\r', 'data: a\n\r'])('%j has not ended yet', (text) => {
    expect(sseEventEnd(text, 0)).toBe(-1)
  })
})
