// Key bytes from the terminal (xterm.js onData) → key events. xterm sends each key's whole
// sequence in one chunk, so a lone ESC at the end of a chunk is the Escape key.

import { ByteBuf, decodeAt } from '../util/byte-buf'

export const K_CHAR = 1
export const K_ENTER = 2
export const K_NEWLINE = 3
export const K_BACKSPACE = 4
export const K_DELETE = 5
export const K_LEFT = 6
export const K_RIGHT = 7
export const K_UP = 8
export const K_DOWN = 9
export const K_HOME = 10
export const K_END = 11
export const K_WORD_LEFT = 12
export const K_WORD_RIGHT = 13
export const K_ESCAPE = 14
export const K_CTRL = 15 // cp holds the letter, 'a'..'z'
export const K_PASTE = 16
export const K_ALT = 17 // cp holds the key
export const K_WORD_BACKSPACE = 18

export class Key {
  constructor(public kind: i32, public cp: i32 = 0, public text: ByteBuf | null = null) {}
}

const lenBox = new StaticArray<i32>(1)
const PASTE_END = '\x1b[201~'

export function parseKeys(src: Uint8Array, start: i32, end: i32): Array<Key> {
  const keys = new Array<Key>()
  let i = start
  while (i < end) {
    const c = <i32>unchecked(src[i])
    if (c == 0x1b) {
      i = parseEscape(src, i, end, keys)
      continue
    }
    if (c == 0x0d) keys.push(new Key(K_ENTER))
    else if (c == 0x0a) keys.push(new Key(K_NEWLINE))
    else if (c == 0x7f || c == 0x08) keys.push(new Key(K_BACKSPACE))
    else if (c == 0x09) keys.push(new Key(K_CHAR, 0x20))
    else if (c == 0x1f) keys.push(new Key(K_CTRL, 0x5f)) // Ctrl+_ (undo)
    else if (c < 0x20) keys.push(new Key(K_CTRL, c + 0x60))
    else {
      const cp = decodeAt(src, i, end, lenBox)
      keys.push(new Key(K_CHAR, cp))
      i += lenBox[0]
      continue
    }
    i++
  }
  return keys
}

function parseEscape(src: Uint8Array, i: i32, end: i32, keys: Array<Key>): i32 {
  if (i + 1 >= end) {
    keys.push(new Key(K_ESCAPE))
    return end
  }
  const c1 = <i32>unchecked(src[i + 1])
  if (c1 == 0x5b || c1 == 0x4f) return parseCsi(src, i, end, keys, c1 == 0x4f)
  if (c1 == 0x0d) keys.push(new Key(K_NEWLINE))
  else if (c1 == 0x7f || c1 == 0x08) keys.push(new Key(K_WORD_BACKSPACE))
  else if (c1 == 0x62) keys.push(new Key(K_WORD_LEFT))
  else if (c1 == 0x66) keys.push(new Key(K_WORD_RIGHT))
  else if (c1 == 0x1b) {
    keys.push(new Key(K_ESCAPE))
    return i + 1
  } else {
    const cp = decodeAt(src, i + 1, end, lenBox)
    keys.push(new Key(K_ALT, cp))
    return i + 1 + lenBox[0]
  }
  return i + 2
}

function parseCsi(src: Uint8Array, i: i32, end: i32, keys: Array<Key>, ss3: bool): i32 {
  // ESC [ params final   or   ESC O final
  let j = i + 2
  let p1 = 0
  let p2 = 0
  let which = 0
  while (j < end) {
    const c = <i32>unchecked(src[j])
    if (c >= 0x30 && c <= 0x39) {
      if (which == 0) p1 = p1 * 10 + (c - 0x30)
      else p2 = p2 * 10 + (c - 0x30)
    } else if (c == 0x3b) which++
    else break
    j++
  }
  if (j >= end) return end
  const fin = <i32>unchecked(src[j])
  j++
  const mod = p2 // 3 = Alt, 5 = Ctrl, 2 = Shift
  if (fin == 0x7e && p1 == 200 && !ss3) return readPaste(src, j, end, keys)
  if (fin == 0x44) keys.push(new Key(mod == 3 || mod == 5 || mod == 9 ? K_WORD_LEFT : K_LEFT))
  else if (fin == 0x43) keys.push(new Key(mod == 3 || mod == 5 || mod == 9 ? K_WORD_RIGHT : K_RIGHT))
  else if (fin == 0x41) keys.push(new Key(K_UP))
  else if (fin == 0x42) keys.push(new Key(K_DOWN))
  else if (fin == 0x48) keys.push(new Key(K_HOME))
  else if (fin == 0x46) keys.push(new Key(K_END))
  else if (fin == 0x7e) {
    if (p1 == 3) keys.push(new Key(K_DELETE))
    else if (p1 == 1 || p1 == 7) keys.push(new Key(K_HOME))
    else if (p1 == 4 || p1 == 8) keys.push(new Key(K_END))
  } else if (fin == 0x75 && p1 == 13) keys.push(new Key(K_NEWLINE)) // CSI 13;2u = Shift+Enter
  return j
}

function readPaste(src: Uint8Array, j: i32, end: i32, keys: Array<Key>): i32 {
  const text = new ByteBuf(end - j + 1)
  let k = j
  while (k < end) {
    if (unchecked(src[k]) == 0x1b && matchesAt(src, k, end, PASTE_END)) {
      keys.push(new Key(K_PASTE, 0, text))
      return k + PASTE_END.length
    }
    text.byte(unchecked(src[k]))
    k++
  }
  keys.push(new Key(K_PASTE, 0, text))
  return end
}

function matchesAt(src: Uint8Array, at: i32, end: i32, s: string): bool {
  if (at + s.length > end) return false
  for (let i = 0; i < s.length; i++) if (<i32>unchecked(src[at + i]) != s.charCodeAt(i)) return false
  return true
}
