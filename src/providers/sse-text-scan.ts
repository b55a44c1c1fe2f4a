/**
 * The fast lane of an SSE body: whole events of the form `data: <plain text delta>` followed by
 * a blank line, read straight from the decoded text. A fast stream is ~45 bytes of envelope per
 * character of reply (250,000 events for 1 MB in 4-character deltas); going through the SSE
 * parser and a regex per event was most of the worker's time.
 *
 * The envelope of one plain event (`textDeltaShape`) is learned, and an event that starts with
 * the same bytes and ends with the same bytes after its content has that shape too. Events of
 * that envelope back to back are then separated by one fixed string (the end of one event's
 * line, the blank line, the start of the next one's), which no JSON string can contain (it holds
 * a raw line break): one native `split` cuts a whole network read into the contents, and only
 * contents with a quote, a backslash or a control character are looked at (JSON.parse of the
 * string literal alone). Works on the decoded string rather than the bytes: `split` and string
 * comparison are native there, and a per-byte loop in JavaScript over 45 MB is slower than
 * decoding it.
 *
 * Sans-IO and stateless but for the learned envelope; the caller owns the buffer and positions.
 */
import { decodeJsonStringBody, textDeltaShape } from './text-delta-fast-path.ts'

/** `match` at an event boundary: the event's end and its text, or why there is none. */
export type ScanResult = { end: number; text: string } | typeof NEED_MORE | typeof NOT_PLAIN

/** The buffer ends inside what may still be a plain event: wait for more text. */
export const NEED_MORE = 0
/** The event at this position is something else: the full SSE path must read it. */
export const NOT_PLAIN = -1

const DATA_FIELD = 'data: '

export type SseTextScan = {
  /** Reads the plain event starting at `at` (an event boundary) in `buf`. */
  match(buf: string, at: number): ScanResult
  /**
   * Learns the envelope from a whole event read by the full path (`event`: its text, blank line
   * included), when it is a plain text delta. Returns whether it was one.
   */
  learn(event: string): boolean
}

export function createSseTextScan(): SseTextScan {
  // `data: ` + the JSON up to the content's opening quote, and from the closing quote on.
  let prefix: string | undefined
  let suffix = ''
  // From one event's closing quote to the next one's opening quote: suffix, blank line, prefix.
  let separator = ''

  /** The events of the learned envelope back to back from `at`, all but the last one in `buf`. */
  const run = (buf: string, at: number, start: number): { end: number; text: string } | undefined => {
    const contents = buf.slice(start).split(separator)
    let end = at
    let text = ''
    // The last piece holds the last event's end and whatever follows it: the caller reads that.
    for (let i = 0; i < contents.length - 1; i++) {
      const raw = contents[i]!
      const decoded = SPECIAL.test(raw) ? parseStringBody(raw) : raw
      if (decoded === undefined) break
      text += decoded
      end += raw.length + separator.length
    }
    return end > at ? { end, text } : undefined
  }

  const match = (buf: string, at: number): ScanResult => {
    if (prefix === undefined) return NOT_PLAIN
    if (!hasAt(buf, at, prefix)) return isStartOf(prefix, buf, at) ? NEED_MORE : NOT_PLAIN
    const start = at + prefix.length
    const events = run(buf, at, start)
    if (events !== undefined) return events
    let close = buf.indexOf('"', start)
    if (close < 0) return NEED_MORE
    let raw = buf.slice(start, close)
    if (raw.includes('\\')) {
      close = closingQuote(buf, start)
      if (close < 0) return NEED_MORE
      raw = buf.slice(start, close)
    }
    const text = decodeJsonStringBody(raw)
    if (text === undefined) return NOT_PLAIN
    if (!hasAt(buf, close, suffix)) return isStartOf(suffix, buf, close) ? NEED_MORE : NOT_PLAIN
    const end = blankLineEnd(buf, close + suffix.length)
    if (end === NEED_MORE || end === NOT_PLAIN) return end
    return { end, text }
  }

  const learn = (event: string): boolean => {
    if (!event.startsWith(DATA_FIELD)) return false
    const lineEnd = firstTerminator(event)
    if (lineEnd < 0 || blankLineEnd(event, lineEnd) !== event.length) return false
    const shape = textDeltaShape(event.slice(DATA_FIELD.length, lineEnd))
    if (shape === undefined) return false
    prefix = DATA_FIELD + shape.prefix
    suffix = shape.suffix
    separator = suffix + event.slice(lineEnd) + prefix
    return true
  }

  return { match, learn }
}

/** What a JSON string body holds only when it has an escape, or is invalid. */
const SPECIAL = /["\\\u0000-\u001f]/

/** The text of a JSON string body, or undefined when it is not one (an unescaped quote too). */
function parseStringBody(raw: string): string | undefined {
  try {
    return JSON.parse(`"${raw}"`) as string
  } catch {
    return undefined
  }
}

/**
 * `buf.startsWith(expected, at)`, ten times faster: V8 compares a slice with `===` natively but
 * runs startsWith a character at a time (~360 against ~35 ns for a 150-character envelope).
 */
function hasAt(buf: string, at: number, expected: string): boolean {
  return buf.slice(at, at + expected.length) === expected
}

/** Whether `buf` ends before `at + expected.length` with what it has matching `expected`. */
function isStartOf(expected: string, buf: string, at: number): boolean {
  return buf.length - at < expected.length && expected.startsWith(buf.slice(at))
}

/** The closing quote of a JSON string body starting at `start`, skipping escapes; -1: not yet. */
function closingQuote(buf: string, start: number): number {
  for (let i = start; i < buf.length; i++) {
    const c = buf.charCodeAt(i)
    if (c === 0x5c) i++
    else if (c === 0x22) return i
  }
  return -1
}

/**
 * After a `data:` line's last character at `at`: the end of its terminator and of the blank
 * line that ends the event, for the three line endings SSE allows used consistently (`\n\n`,
 * `\r\n\r\n`, `\r\r`). NEED_MORE when the text stops before that can be told, NOT_PLAIN otherwise.
 */
function blankLineEnd(buf: string, at: number): number {
  const first = buf.charCodeAt(at)
  if (Number.isNaN(first)) return NEED_MORE
  const ending = first === 0x0a ? '\n\n' : first === 0x0d ? (buf.charCodeAt(at + 1) === 0x0d ? '\r\r' : '\r\n\r\n') : ''
  if (ending === '') return NOT_PLAIN
  if (hasAt(buf, at, ending)) return at + ending.length
  return isStartOf(ending, buf, at) ? NEED_MORE : NOT_PLAIN
}

/** The index of the first CR or LF in `text`, or -1. */
function firstTerminator(text: string): number {
  const lf = text.indexOf('\n')
  const cr = text.indexOf('\r')
  return cr < 0 ? lf : lf < 0 ? cr : Math.min(cr, lf)
}
