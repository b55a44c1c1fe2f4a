/**
 * The byte scanner reads the same text as decoding the whole body and splitting it with
 * eventsource-parser would, in any pieces: the bytes it reads itself (plain deltas in the learnt
 * envelope) and the events it hands on as text must not differ from that at any cut.
 */
import { createParser } from 'eventsource-parser'
import { concatBytes } from '../../shared/protocol/bytes.ts'
import { describe, expect, test } from 'vitest'
import { createSseByteScanner } from './sse-byte-scanner.ts'
import { plainTextDelta } from './text-delta-fast-path.ts'

const envelope = '{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":'
const plain = (content: string) => `data: ${envelope}${JSON.stringify(content)}},"finish_reason":null}]}\n\n`
const encoder = new TextEncoder()

/** What the scanner passes on: text deltas and other events, in order, adjacent texts joined. */
function scan(pieces: Uint8Array[]): string[] {
  const out: string[] = []
  const push = (item: string) => {
    const last = out.length - 1
    if (item.startsWith('text:') && out[last]?.startsWith('text:')) out[last] += item.slice(5)
    else out.push(item)
  }
  // As sse-chat-stream.ts does: what reaches the general parser still meets the regex.
  const parser = createParser({
    onEvent: (event) => {
      const text = event.event === undefined ? plainTextDelta(event.data) : undefined
      push(text === undefined ? `data:${event.data}` : `text:${text}`)
    },
  })
  const scanner = createSseByteScanner({
    text: (delta) => push(`text:${delta}`),
    data: (payload) => push(`data:${payload}`),
    other: (text) => parser.feed(text),
    done: () => false,
  })
  for (const piece of pieces) scanner.feed(piece)
  scanner.end()
  parser.feed('\n\n')
  return out
}

/**
 * The oracle: the whole body decoded at once, split by eventsource-parser, each payload read by
 * the fast path's regex (text-delta-fast-path.ts, itself checked against JSON.parse).
 */
function reference(body: Uint8Array): string[] {
  const out: string[] = []
  const parser = createParser({
    onEvent: (event) => {
      const text = event.event === undefined ? plainTextDelta(event.data) : undefined
      const item = text === undefined ? `data:${event.data}` : `text:${text}`
      const last = out.length - 1
      if (item.startsWith('text:') && out[last]?.startsWith('text:')) out[last] += item.slice(5)
      else out.push(item)
    },
  })
  parser.feed(new TextDecoder().decode(body))
  parser.feed('\n\n')
  return out
}

/** `body` whole, in 1-byte pieces, and cut once at every byte. */
function cuts(body: Uint8Array): Uint8Array[][] {
  const all = [[body], Array.from(body, (b) => Uint8Array.of(b))]
  for (let at = 1; at < body.length; at++) all.push([body.subarray(0, at), body.subarray(at)])
  return all
}

function expectSameAtEveryCut(body: Uint8Array) {
  const expected = reference(body)
  for (const pieces of cuts(body)) expect(scan(pieces)).toEqual(expected)
}

const bytes = (...parts: (string | number[])[]) => concatBytes(parts.map((part) => (typeof part === 'string' ? encoder.encode(part) : Uint8Array.from(part))))

describe('the SSE byte scanner', () => {
  test('plain deltas in one envelope, with multi-byte text, read the same at every cut', () => {
    expectSameAtEveryCut(bytes(plain('Hé'), plain('llo'), plain(' 漢字'), plain(' 😀'), plain(''), plain('a"b'), plain('end')))
  })

  test('escapes in a delta are undone on the bytes, a \\u escape through the text path', () => {
    const unicode = plain('x').replace('"x"', '"\\u00e9\\ud83d\\ude00"')
    expectSameAtEveryCut(bytes(plain('a'), plain('b'), plain('q"\\/\n\t\r\b\f'), unicode, plain('\\'), plain('"'), plain('z')))
  })

  test('a leading BOM is dropped and a later one is kept, even cut inside it', () => {
    expectSameAtEveryCut(bytes([0xef, 0xbb, 0xbf], plain('a'), plain('b'), plain('\ufeffc'), plain('d')))
  })

  test('a character split across two deltas (invalid UTF-8 in each) decodes as the streamed body would', () => {
    const head = `data: ${envelope}"`
    const tail = '"},"finish_reason":null}]}\n\n'
    // "€" is E2 82 AC: its lead ends one delta's content, its continuation bytes begin the next.
    expectSameAtEveryCut(bytes(plain('a'), plain('b'), head, 'x', [0xe2], tail, head, [0x82, 0xac], 'y', tail, plain('z')))
  })

  test('another envelope, other events and comments between plain deltas keep their order', () => {
    const other = plain('x').replace('"created":1', '"created":2')
    expectSameAtEveryCut(bytes(plain('a'), plain('b'), other, plain('c'), ': keep-alive\n\n', 'event: ping\ndata: {}\n\n', plain('d'), 'data: [DONE]\n\n'))
  })

  test('CRLF line endings after plain deltas are read as text from there on', () => {
    expectSameAtEveryCut(bytes(plain('a'), plain('b'), plain('c').replace('\n\n', '\r\n\r\n'), plain('d').replace('\n\n', '\r\n\r\n')))
  })

  test('an event longer than what is held back is streamed to the parser whole', () => {
    const long = plain('x'.repeat(70_000)).replace('"finish_reason":null', '"finish_reason":"stop"')
    const body = bytes(plain('a'), plain('b'), long, plain('c'))
    const expected = reference(body)
    for (const size of [1000, 4096, 65_536]) {
      const pieces: Uint8Array[] = []
      for (let at = 0; at < body.length; at += size) pieces.push(body.subarray(at, at + size))
      expect(scan(pieces)).toEqual(expected)
    }
  })
})
