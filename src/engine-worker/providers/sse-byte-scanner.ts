/**
 * The body's bytes in front of the text scanner (sse-delta-scanner.ts). A megabyte reply in
 * 4-character deltas is ~45 MB of SSE: decoding all of it to text and then reading ~250,000
 * events back out of the text (a string compare and a slice per event) was still most of the
 * engine worker's time on it. Here a plain text delta in the stream's learnt envelope is
 * recognised on the bytes (the envelope compared four bytes at a time), its content bytes are
 * copied out, and only those (~1 MB) are decoded, once per network read.
 *
 * Every other event is decoded whole and given to the text scanner, which handles it as before
 * (and learns the envelope from the first plain delta). Events split only at `\n\n`, which never
 * falls inside a UTF-8 sequence, so decoding them one at a time reads what decoding the stream
 * would. A piece with a CR (CR or CRLF line endings), or an unfinished event longer than
 * HOLD_LIMIT, switches the rest of the body to streamed decoding into the text scanner.
 */
import { createSseDeltaScanner, type SseDeltaHandlers, type Shape } from './sse-delta-scanner.ts'

/** Above this, an unfinished event is not held back but streamed to the text scanner. */
const HOLD_LIMIT = 64 * 1024
const LF = 0x0a
const CR = 0x0d
const QUOTE = 0x22
const BACKSLASH = 0x5c
const BOM = [0xef, 0xbb, 0xbf]
/** What JSON's one-character escapes stand for, by the byte after the backslash (0: not one). */
const UNESCAPE = new Uint8Array(128)
for (const [escape, byte] of [['"', 0x22], ['\\', 0x5c], ['/', 0x2f], ['b', 0x08], ['f', 0x0c], ['n', 0x0a], ['r', 0x0d], ['t', 0x09]] as const) {
  UNESCAPE[escape.charCodeAt(0)] = byte
}

export type SseByteScanner = {
  /** Any piece of the body (split anywhere, even inside a character). */
  feed(bytes: Uint8Array): void
  /** The body ended: anything held back is read as text. */
  end(): void
}

/** An envelope part as bytes, and its first bytes as little-endian 32-bit words. */
type Pattern = { bytes: Uint8Array; words: Int32Array }

function pattern(text: string): Pattern {
  const bytes = new TextEncoder().encode(text)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length)
  const words = new Int32Array(bytes.length >> 2)
  for (let i = 0; i < words.length; i++) words[i] = view.getInt32(i * 4, true)
  return { bytes, words }
}

/** Whether `p` is at `at` in `src` (`view` over the same bytes); the caller checked the length. */
function matches(src: Uint8Array, view: DataView, at: number, p: Pattern): boolean {
  const { bytes, words } = p
  for (let i = 0; i < words.length; i++) if (view.getInt32(at + i * 4, true) !== words[i]) return false
  for (let i = words.length * 4; i < bytes.length; i++) if (src[at + i] !== bytes[i]) return false
  return true
}

/**
 * True when the content `src[from, to)` may end inside a UTF-8 sequence (a lead byte whose
 * sequence would run past `to`): joined with the next content it could decode differently, so
 * such an event takes the text path.
 */
function endsOpen(src: Uint8Array, from: number, to: number): boolean {
  for (let i = to - 1; i >= from && i >= to - 3; i--) {
    const b = src[i]!
    if (b < 0x80) return false
    if (b >= 0xc0) return i + (b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2) > to
  }
  return false
}

function indexOfBlank(src: Uint8Array, from: number): number {
  for (let i = src.indexOf(LF, from); i >= 0; i = src.indexOf(LF, i + 1)) if (src[i + 1] === LF) return i
  return -1
}

function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

/** Creates the byte scanner for one response body. */
export function createSseByteScanner(handlers: SseDeltaHandlers): SseByteScanner {
  const text = createSseDeltaScanner(handlers)
  // BOMs: the stream's first is dropped below (as a streamed TextDecoder would); any later one is text.
  const whole = new TextDecoder('utf-8', { ignoreBOM: true })
  const streamed = new TextDecoder('utf-8', { ignoreBOM: true })
  let head: Pattern | undefined
  let tail: Pattern | undefined
  let learnt: Shape | undefined
  let content: Uint8Array = new Uint8Array(16 * 1024)
  /** The start of an unfinished event (or of the body, while it may still be a BOM). */
  let held: Uint8Array | undefined
  let started = false
  let streaming = false

  const syncShape = (): void => {
    const shape = text.shape
    if (shape === learnt) return
    learnt = shape
    head = shape && pattern(shape.head)
    tail = shape && pattern(shape.tail)
  }

  /**
   * Reads consecutive plain deltas in the learnt envelope from `at`; passes their text on and
   * returns where they end (`at` when the event there is not one). A content's one-character
   * escapes (`\"`, `\n`, …: code in a reply is full of them) are undone here; a `\u` escape
   * sends its event to the text path.
   */
  const readDeltas = (src: Uint8Array, view: DataView, at: number): number => {
    if (head === undefined || tail === undefined) return at
    const headLength = head.bytes.length
    const tailLength = tail.bytes.length
    let length = 0
    let end = at
    while (end + headLength + tailLength <= src.length && matches(src, view, end, head)) {
      const start = length
      let i = end + headLength
      for (; i < src.length; i++) {
        let b = src[i]!
        if (b === QUOTE || b < 0x20) break
        if (b === BACKSLASH) {
          b = i + 1 < src.length && src[i + 1]! < 0x80 ? UNESCAPE[src[i + 1]!]! : 0
          if (b === 0) break
          i++
        }
        if (length === content.length) content = join(content, new Uint8Array(content.length))
        content[length++] = b
      }
      if (i + tailLength > src.length || src[i] !== QUOTE || !matches(src, view, i, tail) || endsOpen(content, start, length)) {
        length = start
        break
      }
      end = i + tailLength
    }
    if (end > at) handlers.text(whole.decode(content.subarray(0, length)))
    return end
  }

  /** Reads whole events of `src` from `at`; returns where the unfinished rest starts. */
  const read = (src: Uint8Array, at: number): number => {
    const view = new DataView(src.buffer, src.byteOffset, src.length)
    while (at < src.length && !handlers.done()) {
      syncShape()
      const end = readDeltas(src, view, at)
      if (end > at) {
        at = end
        continue
      }
      const blank = indexOfBlank(src, at)
      if (blank < 0) break
      text.feed(whole.decode(src.subarray(at, blank + 2)))
      at = blank + 2
    }
    return at
  }

  /** The rest of the body goes through a streamed decoder into the text scanner. */
  const stream = (rest: Uint8Array): void => {
    streaming = true
    text.feed(streamed.decode(rest, { stream: true }))
  }

  return {
    feed(bytes) {
      if (streaming) return stream(bytes)
      let src = bytes
      if (held !== undefined && started) {
        // Only the held event is completed from this piece (copying the whole piece after it
        // was most of this scanner's time); the rest is read where it lies.
        // Where the held event's blank line ends in this piece (-1: not in it).
        const found = indexOfBlank(bytes, 0)
        const last = held[held.length - 1] === LF && bytes[0] === LF ? 0 : found < 0 ? -1 : found + 1
        if (last >= 0) {
          const first = join(held, bytes.subarray(0, last + 1))
          held = undefined
          read(first, 0)
          if (handlers.done()) return
          src = bytes.subarray(last + 1)
        }
      }
      if (held !== undefined) src = join(held, src)
      held = undefined
      let at = 0
      if (!started) {
        const prefix = Math.min(src.length, BOM.length)
        const bom = BOM.slice(0, prefix).every((b, i) => src[i] === b)
        if (bom && src.length < BOM.length) {
          held = src.slice()
          return
        }
        started = true
        if (bom) at = BOM.length
      }
      at = read(src, at)
      if (at >= src.length || handlers.done()) return
      src = src.subarray(at)
      if (src.includes(CR) || src.length > HOLD_LIMIT) return stream(src)
      held = src.slice()
    },
    end() {
      if (streaming) {
        const rest = streamed.decode()
        if (rest !== '') text.feed(rest)
      } else if (held !== undefined && !handlers.done()) {
        text.feed(whole.decode(held))
      }
      held = undefined
      text.end()
    },
  }
}
