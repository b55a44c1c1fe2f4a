// A small JSON reader (for boot options, tool-call arguments, usage and error events) and the
// escaping writer used to build model requests and events. Inputs are untrusted: a malformed
// document yields null, never a trap.

import { ByteBuf } from './byte-buf'

export const J_NULL = 0
export const J_BOOL = 1
export const J_NUM = 2
export const J_STR = 3
export const J_ARR = 4
export const J_OBJ = 5

export class JsonValue {
  kind: i32 = J_NULL
  bool: bool = false
  num: f64 = 0
  str: string = ''
  items: Array<JsonValue> = []
  keys: Array<string> = []

  get(key: string): JsonValue | null {
    if (this.kind != J_OBJ) return null
    for (let i = this.keys.length - 1; i >= 0; i--) {
      if (unchecked(this.keys[i]) == key) return unchecked(this.items[i])
    }
    return null
  }

  getString(key: string, fallback: string): string {
    const v = this.get(key)
    return v != null && v.kind == J_STR ? v.str : fallback
  }

  getNumber(key: string, fallback: f64): f64 {
    const v = this.get(key)
    return v != null && v.kind == J_NUM ? v.num : fallback
  }

  getBool(key: string, fallback: bool): bool {
    const v = this.get(key)
    return v != null && v.kind == J_BOOL ? v.bool : fallback
  }
}

const MAX_DEPTH = 64

/** A cursor over a JSON document, for readers that stream a large one (see session/snapshot.ts). */
export class JsonReader {
  pos: i32 = 0
  failed: bool = false
  constructor(public src: Uint8Array, public end: i32) {}

  peek(): i32 {
    return this.pos < this.end ? <i32>unchecked(this.src[this.pos]) : -1
  }

  skipWs(): void {
    while (this.pos < this.end) {
      const c = unchecked(this.src[this.pos])
      if (c == 0x20 || c == 0x0a || c == 0x0d || c == 0x09) this.pos++
      else break
    }
  }

  fail(): JsonValue {
    this.failed = true
    return new JsonValue()
  }

  value(depth: i32): JsonValue {
    if (depth > MAX_DEPTH) return this.fail()
    this.skipWs()
    const c = this.peek()
    if (c == 0x7b) return this.object(depth)
    if (c == 0x5b) return this.array(depth)
    if (c == 0x22) {
      const v = new JsonValue()
      v.kind = J_STR
      v.str = this.string()
      return v
    }
    if (c == 0x74) return this.literal('true', J_BOOL, true)
    if (c == 0x66) return this.literal('false', J_BOOL, false)
    if (c == 0x6e) return this.literal('null', J_NULL, false)
    if (c == 0x2d || (c >= 0x30 && c <= 0x39)) return this.number()
    return this.fail()
  }

  literal(word: string, kind: i32, b: bool): JsonValue {
    for (let i = 0; i < word.length; i++) {
      if (this.peek() != word.charCodeAt(i)) return this.fail()
      this.pos++
    }
    const v = new JsonValue()
    v.kind = kind
    v.bool = b
    return v
  }

  number(): JsonValue {
    const start = this.pos
    while (this.pos < this.end) {
      const c = unchecked(this.src[this.pos])
      if ((c >= 0x30 && c <= 0x39) || c == 0x2d || c == 0x2b || c == 0x2e || c == 0x65 || c == 0x45) this.pos++
      else break
    }
    const v = new JsonValue()
    v.kind = J_NUM
    v.num = parseFloat(String.UTF8.decodeUnsafe(this.src.dataStart + <usize>start, this.pos - start))
    if (isNaN(v.num)) return this.fail()
    return v
  }

  hex4(): i32 {
    let n = 0
    for (let i = 0; i < 4; i++) {
      const c = this.peek()
      this.pos++
      let d = -1
      if (c >= 0x30 && c <= 0x39) d = c - 0x30
      else if (c >= 0x61 && c <= 0x66) d = c - 0x57
      else if (c >= 0x41 && c <= 0x46) d = c - 0x37
      if (d < 0) {
        this.failed = true
        return 0
      }
      n = (n << 4) | d
    }
    return n
  }

  string(): string {
    const out = new ByteBuf(32)
    this.stringInto(out)
    return this.failed ? '' : out.toString()
  }

  /** The first quote or backslash at or after `at`, or `end`: plain bytes are checked eight at a time. */
  @inline plainUntil(at: i32): i32 {
    const base = this.src.dataStart
    while (at + 8 <= this.end) {
      const w = load<u64>(base + <usize>at)
      if (hasByte(w, 0x22) || hasByte(w, 0x5c)) break
      at += 8
    }
    while (at < this.end) {
      const b = unchecked(this.src[at])
      if (b == 0x22 || b == 0x5c) break
      at++
    }
    return at
  }

  /**
   * How many bytes the string literal at `pos` (its opening quote) spans between its quotes, or
   * -1 when it does not end. Its text is at most that long: a reader sizes its buffer once
   * (a 4 KB message grew through seven buffers, each one zero-filled by the allocator).
   */
  stringSpan(): i32 {
    let at = this.pos + 1
    while (true) {
      at = this.plainUntil(at)
      if (at >= this.end) return -1
      if (unchecked(this.src[at]) == 0x22) break
      at += 2 // an escape: the byte after the backslash is never the end
    }
    return at - this.pos - 1
  }

  /**
   * Reads a string literal (at its opening quote) as UTF-8 into `out`. Runs of plain bytes are
   * copied at once: snapshot bodies are megabytes of message text, and a byte at a time was most
   * of a resume.
   */
  stringInto(out: ByteBuf): void {
    this.pos++ // opening quote
    while (true) {
      const run = this.pos
      this.pos = this.plainUntil(run)
      if (this.pos > run) out.slice(this.src, run, this.pos)
      if (this.pos >= this.end) {
        this.failed = true
        return
      }
      if (unchecked(this.src[this.pos++]) == 0x22) return
      const cp = this.escape()
      if (cp < 0) return
      out.codepoint(cp)
    }
  }

  /**
   * Skips the string literal at `pos` (its opening quote) and answers how many bytes stringInto
   * would write for it, without writing them (a resumed message's text is read when first used);
   * -1 when it is damaged.
   */
  stringLength(): i32 {
    this.pos++ // opening quote
    let n = 0
    while (true) {
      const run = this.pos
      this.pos = this.plainUntil(run)
      n += this.pos - run
      if (this.pos >= this.end) {
        this.failed = true
        return -1
      }
      if (unchecked(this.src[this.pos++]) == 0x22) return n
      const cp = this.escape()
      if (cp < 0) return -1
      n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4
    }
  }

  /**
   * The code point of the escape after a backslash (a surrogate pair joined, a lone surrogate
   * U+FFFD); -1, and the reader failed, when it is not one.
   */
  escape(): i32 {
    const e = this.peek()
    this.pos++
    if (e == 0x6e) return 0x0a
    if (e == 0x74) return 0x09
    if (e == 0x72) return 0x0d
    if (e == 0x62) return 0x08
    if (e == 0x66) return 0x0c
    if (e == 0x22 || e == 0x5c || e == 0x2f) return e
    if (e != 0x75) {
      this.failed = true
      return -1
    }
    let cp = this.hex4()
    if (cp >= 0xd800 && cp < 0xdc00 && this.peek() == 0x5c) {
      this.pos++
      if (this.peek() == 0x75) {
        this.pos++
        const lo = this.hex4()
        if (lo >= 0xdc00 && lo < 0xe000) cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00)
        else cp = 0xfffd
      } else cp = 0xfffd
    } else if (cp >= 0xd800 && cp < 0xe000) cp = 0xfffd
    return cp
  }

  array(depth: i32): JsonValue {
    this.pos++
    const v = new JsonValue()
    v.kind = J_ARR
    this.skipWs()
    if (this.peek() == 0x5d) {
      this.pos++
      return v
    }
    while (!this.failed) {
      v.items.push(this.value(depth + 1))
      this.skipWs()
      const c = this.peek()
      this.pos++
      if (c == 0x5d) return v
      if (c != 0x2c) return this.fail()
    }
    return v
  }

  object(depth: i32): JsonValue {
    this.pos++
    const v = new JsonValue()
    v.kind = J_OBJ
    this.skipWs()
    if (this.peek() == 0x7d) {
      this.pos++
      return v
    }
    while (!this.failed) {
      this.skipWs()
      if (this.peek() != 0x22) return this.fail()
      const key = this.string()
      this.skipWs()
      if (this.peek() != 0x3a) return this.fail()
      this.pos++
      v.keys.push(key)
      v.items.push(this.value(depth + 1))
      this.skipWs()
      const c = this.peek()
      this.pos++
      if (c == 0x7d) return v
      if (c != 0x2c) return this.fail()
    }
    return v
  }
}

/** Parses a whole JSON document; null when it is malformed or has trailing garbage. */
export function parseJson(src: Uint8Array, start: i32 = 0, end: i32 = -1): JsonValue | null {
  const r = new JsonReader(src, end < 0 ? src.length : end)
  r.pos = start
  const v = r.value(0)
  r.skipWs()
  if (r.failed || r.pos != r.end) return null
  return v
}

const HEX = '0123456789abcdef'

// Word-at-a-time byte tests (Bit Twiddling Hacks): each is exact about whether any byte matches.
const ONES: u64 = 0x0101010101010101
const HIGHS: u64 = 0x8080808080808080

@inline function hasZeroByte(w: u64): bool {
  return ((w - ONES) & ~w & HIGHS) != 0
}

@inline function hasByte(w: u64, b: u64): bool {
  return hasZeroByte(w ^ (ONES * b))
}

/** Any byte below `n` (n ≤ 128). */
@inline function hasByteBelow(w: u64, n: u64): bool {
  return ((w - ONES * n) & ~w & HIGHS) != 0
}

/** True when one of the 8 bytes at `p` needs escaping in a JSON string. */
@inline function needsEscape8(p: usize): bool {
  const w = load<u64>(p)
  return hasByteBelow(w, 0x20) || hasByte(w, 0x22) || hasByte(w, 0x5c) || hasByte(w, 0x7f)
}

/** Writes `bytes[start, end)` (UTF-8) as a JSON string literal, quotes included. */
export function writeJsonBytes(out: ByteBuf, bytes: Uint8Array, start: i32, end: i32): void {
  out.byte(0x22)
  const base = bytes.dataStart
  let run = start
  let i = start
  while (i < end) {
    // Whole words of plain text are skipped eight bytes at a time.
    if (i + 8 <= end && !needsEscape8(base + <usize>i)) {
      i += 8
      continue
    }
    const c = <i32>unchecked(bytes[i++])
    // Most bytes need no escape: they are copied as one run (a byte at a time was the cost of
    // every model request and session commit).
    if (c >= 0x20 && c != 0x22 && c != 0x5c && c != 0x7f) continue
    if (i - 1 > run) out.slice(bytes, run, i - 1)
    run = i
    if (c == 0x22 || c == 0x5c) {
      out.byte(0x5c)
      out.byte(c)
    } else if (c == 0x0a) out.str('\\n')
    else if (c == 0x0d) out.str('\\r')
    else if (c == 0x09) out.str('\\t')
    else {
      out.str('\\u00')
      out.byte(HEX.charCodeAt(c >> 4))
      out.byte(HEX.charCodeAt(c & 15))
    }
  }
  if (end > run) out.slice(bytes, run, end)
  out.byte(0x22)
}

export function writeJsonBuf(out: ByteBuf, b: ByteBuf): void {
  writeJsonBytes(out, b.data, 0, b.length)
}

export function writeJsonString(out: ByteBuf, s: string): void {
  const bytes = Uint8Array.wrap(String.UTF8.encode(s))
  writeJsonBytes(out, bytes, 0, bytes.length)
}
