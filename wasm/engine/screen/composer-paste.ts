// Large pastes: a paste over PASTE_COLLAPSE_OVER characters is kept here and stands in the draft
// as a short placeholder, `[Pasted text #N, M lines]`, so that editing after a 1 MiB paste stays
// cheap. Submitting expands every intact placeholder back to the full text; one the person
// edited is no longer a placeholder and is sent as typed.

import { ByteBuf, decodeAt } from '../util/byte-buf'

export const PASTE_COLLAPSE_OVER = 1000

const lenBox = new StaticArray<i32>(1)
const HASH_BASE: u64 = 1000003

/**
 * Pasted bytes → the text the draft may hold, as UTF-8: CR and CRLF become LF; other control
 * characters (C0 but LF and TAB, DEL, C1) are dropped. `counts` gets [code points, newlines].
 */
export function normalizePaste(src: ByteBuf, out: ByteBuf, counts: StaticArray<i32>): void {
  let cps = 0
  let newlines = 0
  out.reserve(src.length)
  const n = src.length
  const data = src.data
  let i = 0
  while (i < n) {
    const c = <i32>unchecked(data[i])
    if (c < 0x80) {
      if (c == 0x0d || c == 0x0a) {
        out.byte(0x0a)
        newlines++
        cps++
        if (c == 0x0d && i + 1 < n && unchecked(data[i + 1]) == 0x0a) i++
      } else if ((c >= 0x20 && c != 0x7f) || c == 0x09) {
        out.byte(c)
        cps++
      }
      i++
      continue
    }
    const cp = decodeAt(data, i, n, lenBox)
    if (cp >= 0xa0) {
      out.codepoint(cp)
      cps++
    }
    i += lenBox[0]
  }
  counts[0] = cps
  counts[1] = newlines
}

/** `[Pasted text #N, M lines]` (`1 line` for one line). */
export function placeholderText(n: i32, lines: i32): string {
  return '[Pasted text #' + n.toString() + ', ' + lines.toString() + (lines == 1 ? ' line]' : ' lines]')
}

/** The session's collapsed pastes, numbered from 1. */
export class PasteStore {
  private texts: Array<ByteBuf> = []
  private lines: Array<i32> = []
  private hashes: Array<u64> = []

  /** Keeps `text` (normalized, `lines` lines) and returns its placeholder. */
  add(text: ByteBuf, lines: i32): string {
    this.texts.push(text)
    this.lines.push(lines)
    this.hashes.push(hashOf(text.data, 0, text.length))
    return placeholderText(this.texts.length, lines)
  }

  /** `draft[from, to)` as UTF-8 with every intact placeholder replaced by its paste. */
  expand(draft: Array<i32>, from: i32, to: i32): ByteBuf {
    const out = new ByteBuf(to - from + 16)
    let i = from
    while (i < to) {
      const cp = unchecked(draft[i])
      if (cp == 0x5b && this.texts.length > 0) {
        const n = this.placeholderAt(draft, i, to)
        if (n > 0) {
          out.append(this.texts[n - 1])
          i += placeholderText(n, this.lines[n - 1]).length
          continue
        }
      }
      out.codepoint(cp)
      i++
    }
    return out
  }

  /** The paste number whose exact placeholder starts at `draft[i]`, else 0. */
  private placeholderAt(draft: Array<i32>, i: i32, to: i32): i32 {
    const prefix = '[Pasted text #'
    let k = i + prefix.length
    if (k >= to) return 0
    for (let p = 0; p < prefix.length; p++) if (unchecked(draft[i + p]) != prefix.charCodeAt(p)) return 0
    let n = 0
    while (k < to && n <= this.texts.length) {
      const d = unchecked(draft[k])
      if (d < 0x30 || d > 0x39) break
      n = n * 10 + (d - 0x30)
      k++
    }
    if (n < 1 || n > this.texts.length) return 0
    const whole = placeholderText(n, this.lines[n - 1])
    if (i + whole.length > to) return 0
    for (let p = prefix.length; p < whole.length; p++) if (unchecked(draft[i + p]) != whole.charCodeAt(p)) return 0
    return n
  }

  /**
   * Text coming back into the draft (a queued prompt taken back, history) with the full text of
   * a kept paste in it: each occurrence becomes its placeholder again. Linear per kept paste
   * (a rolling hash finds the candidates; a compare confirms them).
   */
  collapse(src: ByteBuf): ByteBuf {
    let cur = src
    for (let k = 0; k < this.texts.length; k++) {
      const p = this.texts[k]
      if (p.length > cur.length) continue
      const found = findAll(cur, p, this.hashes[k])
      if (found.length == 0) continue
      const holder = placeholderText(k + 1, this.lines[k])
      const next = new ByteBuf(cur.length - found.length * (p.length - holder.length) + 16)
      let at = 0
      for (let f = 0; f < found.length; f++) {
        next.slice(cur.data, at, found[f])
        next.str(holder)
        at = found[f] + p.length
      }
      next.slice(cur.data, at, cur.length)
      cur = next
    }
    return cur
  }
}

function hashOf(data: Uint8Array, start: i32, end: i32): u64 {
  let h: u64 = 0
  for (let i = start; i < end; i++) h = h * HASH_BASE + <u64>unchecked(data[i])
  return h
}

/** Non-overlapping occurrences of `needle` in `hay`, left to right (Rabin–Karp). */
function findAll(hay: ByteBuf, needle: ByteBuf, needleHash: u64): Array<i32> {
  const found = new Array<i32>()
  const m = needle.length
  const n = hay.length
  if (m == 0 || m > n) return found
  let top: u64 = 1 // HASH_BASE^(m-1)
  for (let i = 1; i < m; i++) top *= HASH_BASE
  const data = hay.data
  let h = hashOf(data, 0, m)
  let i = 0
  while (true) {
    if (h == needleHash && memory.compare(data.dataStart + <usize>i, needle.dataStart, m) == 0) {
      found.push(i)
      if (i + 2 * m > n) break
      i += m
      h = hashOf(data, i, i + m)
      continue
    }
    if (i + m >= n) break
    h = (h - <u64>unchecked(data[i]) * top) * HASH_BASE + <u64>unchecked(data[i + m])
    i++
  }
  return found
}

/** Normalized UTF-8 → draft code points (a tab becomes a space). */
export function draftCodepoints(norm: ByteBuf): Array<i32> {
  const out = new Array<i32>()
  let i = 0
  while (i < norm.length) {
    const cp = decodeAt(norm.data, i, norm.length, lenBox)
    out.push(cp == 0x09 ? 0x20 : cp)
    i += lenBox[0]
  }
  return out
}

export function asciiCodepoints(s: string): Array<i32> {
  const out = new Array<i32>(s.length)
  for (let i = 0; i < s.length; i++) unchecked((out[i] = s.charCodeAt(i)))
  return out
}
