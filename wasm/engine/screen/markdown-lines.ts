// What one line of Markdown is (markdown.ts renders it): blank, paragraph, ATX heading, rule,
// block quote, list item (with its marker and task box) or code fence, and where its content is.

import { byteAt } from '../util/byte-buf'

export const L_BLANK = 0
export const L_PARA = 1
export const L_HEADING = 2
export const L_HR = 3
export const L_QUOTE = 4
export const L_ITEM = 5
export const L_FENCE = 6

/** What one line is. Positions are absolute in the line's buffer. */
export class LineInfo {
  kind: i32 = L_BLANK
  ind: i32 = 0 // leading spaces
  cs: i32 = 0 // content
  ce: i32 = 0
  level: i32 = 0 // heading level, quote depth
  ordered: bool = false
  ms: i32 = 0 // ordered marker (digits and . or ))
  me: i32 = 0
  task: i32 = 0 // 1 unchecked, 2 checked
  fenceChar: i32 = 0
  fenceLen: i32 = 0
}

@inline function isSpaceByte(c: i32): bool {
  return c == 0x20
}

/**
 * Classifies `src[s, e)`. `top` allows fences and quotes (a quote's content is classified
 * without). `trim` drops trailing spaces (committed lines; the live preview keeps them).
 */
export function classify(src: Uint8Array, s: i32, e: i32, info: LineInfo, top: bool, trim: bool): void {
  let i = s
  while (i < e && isSpaceByte(byteAt(src, i))) i++
  let end = e
  if (trim) while (end > i && isSpaceByte(byteAt(src, end - 1))) end--
  info.ind = i - s
  info.cs = i
  info.ce = end
  info.level = 0
  info.ordered = false
  info.task = 0
  if (i == end) {
    info.kind = L_BLANK
    return
  }
  const c = byteAt(src, i)
  // fence
  if (top && (c == 0x60 || c == 0x7e)) {
    let n = 0
    while (i + n < end && byteAt(src, i + n) == c) n++
    if (n >= 3) {
      let ok = true
      if (c == 0x60) for (let k = i + n; k < end; k++) if (byteAt(src, k) == 0x60) ok = false
      if (ok) {
        info.kind = L_FENCE
        info.fenceChar = c
        info.fenceLen = n
        let a = i + n
        while (a < end && byteAt(src, a) == 0x20) a++
        info.cs = a
        info.ce = end
        return
      }
    }
  }
  // ATX heading
  if (c == 0x23 && info.ind <= 3) {
    let n = 0
    while (i + n < end && byteAt(src, i + n) == 0x23) n++
    if (n <= 6 && (i + n == end || byteAt(src, i + n) == 0x20)) {
      info.kind = L_HEADING
      info.level = n
      let a = i + n
      while (a < end && byteAt(src, a) == 0x20) a++
      // an optional closing run of # after a space
      let b = end
      let h = b
      while (h > a && byteAt(src, h - 1) == 0x23) h--
      if (h < b && (h == a || byteAt(src, h - 1) == 0x20)) {
        b = h
        while (b > a && byteAt(src, b - 1) == 0x20) b--
      }
      info.cs = a
      info.ce = b
      return
    }
  }
  // thematic break: three or more of one of - * _ and nothing else but spaces
  if ((c == 0x2d || c == 0x2a || c == 0x5f) && info.ind <= 3) {
    let n = 0
    let ok = true
    for (let k = i; k < end; k++) {
      const d = byteAt(src, k)
      if (d == c) n++
      else if (d != 0x20) {
        ok = false
        break
      }
    }
    if (ok && n >= 3) {
      info.kind = L_HR
      return
    }
  }
  // block quote
  if (top && c == 0x3e) {
    let depth = 0
    let a = i
    while (a < end && byteAt(src, a) == 0x3e) {
      depth++
      a++
      if (a < end && byteAt(src, a) == 0x20) a++
      // "> > x": nested markers separated by one space
      let b = a
      while (b < end && byteAt(src, b) == 0x20) b++
      if (b < end && byteAt(src, b) == 0x3e && b - a <= 1) a = b
    }
    info.kind = L_QUOTE
    info.level = depth
    info.cs = a
    info.ce = end
    return
  }
  // list item: - * + or 1-9 digits and . or ), then a space (or nothing)
  if (c == 0x2d || c == 0x2a || c == 0x2b) {
    if (i + 1 == end || byteAt(src, i + 1) == 0x20) {
      info.kind = L_ITEM
      info.ms = i
      info.me = i + 1
      listContent(src, i + 1, end, info)
      return
    }
  } else if (c >= 0x30 && c <= 0x39) {
    let n = 0
    while (i + n < end && n < 10 && byteAt(src, i + n) >= 0x30 && byteAt(src, i + n) <= 0x39) n++
    if (n <= 9 && i + n < end) {
      const d = byteAt(src, i + n)
      if ((d == 0x2e || d == 0x29) && (i + n + 1 == end || byteAt(src, i + n + 1) == 0x20)) {
        info.kind = L_ITEM
        info.ordered = true
        info.ms = i
        info.me = i + n + 1
        listContent(src, i + n + 1, end, info)
        return
      }
    }
  }
  info.kind = L_PARA
}

function listContent(src: Uint8Array, from: i32, end: i32, info: LineInfo): void {
  let a = from
  while (a < end && byteAt(src, a) == 0x20) a++
  info.cs = a
  info.ce = end
  // task list item: [ ] or [x] then a space
  if (!info.ordered && a + 2 < end && byteAt(src, a) == 0x5b && byteAt(src, a + 2) == 0x5d && (a + 3 == end || byteAt(src, a + 3) == 0x20)) {
    const m = byteAt(src, a + 1)
    if (m == 0x20 || m == 0x78 || m == 0x58) {
      info.task = m == 0x20 ? 1 : 2
      a += 3
      while (a < end && byteAt(src, a) == 0x20) a++
      info.cs = a
    }
  }
}

/** Whether `src[s, e)` closes a fence of `len` × `ch`. */
export function isFenceClose(src: Uint8Array, s: i32, e: i32, ch: i32, len: i32): bool {
  let i = s
  while (i < e && byteAt(src, i) == 0x20) i++
  let n = 0
  while (i < e && byteAt(src, i) == ch) {
    n++
    i++
  }
  if (n < len) return false
  while (i < e && byteAt(src, i) == 0x20) i++
  return i == e
}
