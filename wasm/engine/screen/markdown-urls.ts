// Character classes and URL rules of inline Markdown (markdown-inline.ts): which bytes are
// punctuation, where a bare URL ends, and which URLs may become OSC 8 links.

import { byteAt } from '../util/byte-buf'

const MAX_URL: i32 = 2048

@inline export function isSpace(c: i32): bool {
  return c == 0x20 || c == 0x09
}

export function isAsciiPunct(c: i32): bool {
  return (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e)
}

@inline export function isAlnum(c: i32): bool {
  return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a)
}

@inline export function lower(c: i32): i32 {
  return c >= 0x41 && c <= 0x5a ? c | 0x20 : c
}

/** Whether `src[s, e)` starts with the lowercase ASCII `word`, ignoring case. */
export function startsWithCI(src: Uint8Array, s: i32, e: i32, word: string): bool {
  const n = word.length
  if (e - s < n) return false
  for (let k = 0; k < n; k++) if (lower(byteAt(src, s + k)) != word.charCodeAt(k)) return false
  return true
}

/** Length of the `http://` or `https://` scheme `src[s, e)` starts with, or 0. */
export function httpScheme(src: Uint8Array, s: i32, e: i32): i32 {
  if (startsWithCI(src, s, e, 'https://')) return 8
  if (startsWithCI(src, s, e, 'http://')) return 7
  return 0
}

/**
 * Whether `src[s, e)` may become an OSC 8 link: an http or https URL with a host, made only of
 * printable ASCII (no space, no control, no ESC or BEL that could end the sequence), not too long.
 */
export function isSafeHttpUrl(src: Uint8Array, s: i32, e: i32): bool {
  const scheme = httpScheme(src, s, e)
  if (scheme == 0 || e - s <= scheme || e - s > MAX_URL) return false
  for (let i = s; i < e; i++) {
    const c = byteAt(src, i)
    if (c < 0x21 || c > 0x7e) return false
  }
  return true
}

export function allSpaces(src: Uint8Array, s: i32, e: i32): bool {
  for (let i = s; i < e; i++) if (byteAt(src, i) != 0x20) return false
  return true
}

/**
 * The end of a bare URL whose scheme ends at `from`: up to whitespace or `<`, without trailing
 * punctuation and without a closing parenthesis that has no opening one in the URL.
 */
export function bareUrlEnd(src: Uint8Array, start: i32, from: i32, end: i32): i32 {
  let j = from
  let opens = 0
  let closes = 0
  while (j < end) {
    const c = byteAt(src, j)
    if (c <= 0x20 || c == 0x3c || c >= 0x7f) break
    if (c == 0x28) opens++
    else if (c == 0x29) closes++
    j++
  }
  while (j > from) {
    const c = byteAt(src, j - 1)
    if (c == 0x3f || c == 0x21 || c == 0x2e || c == 0x2c || c == 0x3a || c == 0x2a || c == 0x5f || c == 0x7e || c == 0x27 || c == 0x22 || c == 0x3b) {
      j--
      continue
    }
    if (c == 0x29 && closes > opens) {
      closes--
      j--
      continue
    }
    break
  }
  return j
}
