// Key bytes from the terminal (xterm.js onData) → key events. xterm sends each key's whole
// sequence in one chunk, so a lone ESC at the end of a chunk is the Escape key.
//
// Key encodings the engine reads. Most are what xterm.js sends by itself; the chords marked
// "adapter" are lost by xterm in a browser and are encoded by encodeXtermKeyEvent
// (src/page/terminal/xterm-adapter.ts). CSI u forms follow the kitty/xterm convention
// CSI <code point> ; <1 + modifier bits> u with Shift = 1, Alt = 2, Ctrl = 4, Cmd/Super = 8.
//
//   bytes                       key                                  engine action
//   CR                          Enter                                submit
//   LF (Ctrl+J), ESC CR         Ctrl+J, Alt+Enter                    new line
//   CSI 13;2u                   Shift+Enter (adapter)                new line
//   DEL, BS                     Backspace, Ctrl+H                    delete back (or the selection)
//   ESC DEL, ESC BS             Alt+Backspace, Ctrl+Backspace (adapter sends ESC DEL)
//                                                                    kill word back
//   CSI 3~                      Delete                               delete forward
//   CSI 3;3~, CSI 3;5~          Alt/Ctrl+Delete                      kill word forward
//   CSI D / CSI C               Left / Right                         move
//   CSI 1;3D, CSI 1;5D, ESC b   Alt/Ctrl+Left, Alt+B (adapter on macOS) word left
//   CSI 1;3C, CSI 1;5C, ESC f   Alt/Ctrl+Right, Alt+F (adapter on macOS) word right
//   ESC d                       Alt+D (adapter on macOS)             kill word forward
//   CSI H, CSI 1~, CSI 7~       Home, Cmd+Left (adapter)             start of the line
//   CSI F, CSI 4~, CSI 8~       End, Cmd+Right (adapter)             end of the line
//   CSI 1;5H / CSI 1;5F         Ctrl+Home/End, Cmd+Up/Down (adapter) start / end of the draft
//   CSI A / CSI B               Up / Down                            line up/down, history at the edges
//   CSI 5~ / CSI 6~             PageUp / PageDown                    transcript view
//   0x01..0x1a                  Ctrl+A..Ctrl+Z                       K_CTRL (see Engine.ctrl)
//   0x15                        Ctrl+U, Cmd+Backspace (adapter)      kill to the start of the line
//   0x1f                        Ctrl+_, Cmd/Ctrl+Z (adapter)         undo
//   CSI 122;6u (any Shift with Ctrl or Cmd)
//                               Cmd/Ctrl+Shift+Z (adapter)           redo
//   CSI 97;9u                   Cmd+A (adapter)                      select the whole draft
//   CSI 99;9u                   Cmd+C (adapter; only when xterm has no selection of its own)
//                                                                    copy the selection
//   CSI 120;9u                  Cmd+X (adapter)                      cut the selection
//   CSI 200~ … CSI 201~         bracketed paste                      K_PASTE with the text

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
export const K_CTRL = 15 // cp holds the letter, 'a'..'z' (or '_')
export const K_PASTE = 16
export const K_ALT = 17 // cp holds the key
export const K_WORD_BACKSPACE = 18
export const K_WORD_DELETE = 19
export const K_UNDO = 20
export const K_REDO = 21
export const K_SELECT_ALL = 22
export const K_COPY = 23
export const K_CUT = 24
export const K_TOP = 25
export const K_BOTTOM = 26
export const K_PAGE_UP = 30
export const K_PAGE_DOWN = 31
export const K_TAB = 32

// CSI u modifier bits (the parameter is 1 + these)
const MOD_SHIFT = 1
const MOD_ALT = 2
const MOD_CTRL = 4
const MOD_SUPER = 8

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
    else if (c == 0x09) keys.push(new Key(K_TAB))
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
  else if (c1 == 0x64) keys.push(new Key(K_WORD_DELETE))
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
      else if (which == 1) p2 = p2 * 10 + (c - 0x30)
    } else if (c == 0x3b || c == 0x3a) which++
    else break
    j++
  }
  if (j >= end) return end
  const fin = <i32>unchecked(src[j])
  j++
  const mods = p2 > 0 ? p2 - 1 : 0 // Shift 1, Alt 2, Ctrl 4, Cmd/Super 8
  const wordMod = (mods & (MOD_ALT | MOD_CTRL | MOD_SUPER)) != 0
  if (fin == 0x7e && p1 == 200 && !ss3) return readPaste(src, j, end, keys)
  if (fin == 0x44) keys.push(new Key(wordMod ? K_WORD_LEFT : K_LEFT))
  else if (fin == 0x43) keys.push(new Key(wordMod ? K_WORD_RIGHT : K_RIGHT))
  else if (fin == 0x41) keys.push(new Key(K_UP))
  else if (fin == 0x42) keys.push(new Key(K_DOWN))
  else if (fin == 0x48) keys.push(new Key((mods & (MOD_CTRL | MOD_SUPER)) != 0 ? K_TOP : K_HOME))
  else if (fin == 0x46) keys.push(new Key((mods & (MOD_CTRL | MOD_SUPER)) != 0 ? K_BOTTOM : K_END))
  else if (fin == 0x7e) {
    if (p1 == 3) keys.push(new Key(wordMod ? K_WORD_DELETE : K_DELETE))
    else if (p1 == 1 || p1 == 7) keys.push(new Key(K_HOME))
    else if (p1 == 4 || p1 == 8) keys.push(new Key(K_END))
    else if (p1 == 5) keys.push(new Key(K_PAGE_UP))
    else if (p1 == 6) keys.push(new Key(K_PAGE_DOWN))
  } else if (fin == 0x75 && !ss3) csiU(p1, mods, keys)
  return j
}

/** CSI <code point> ; <1 + modifiers> u: the chords the adapter encodes (see the table above). */
function csiU(cp: i32, mods: i32, keys: Array<Key>): void {
  const command = (mods & (MOD_CTRL | MOD_SUPER)) != 0
  const letter = cp >= 0x41 && cp <= 0x5a ? cp + 0x20 : cp
  if (cp == 13) keys.push(new Key(mods == 0 ? K_ENTER : K_NEWLINE)) // CSI 13;2u = Shift+Enter
  else if (letter == 0x7a && command) keys.push(new Key((mods & MOD_SHIFT) != 0 ? K_REDO : K_UNDO))
  else if (letter == 0x61 && (mods & MOD_SUPER) != 0) keys.push(new Key(K_SELECT_ALL))
  else if (letter == 0x63 && (mods & MOD_SUPER) != 0) keys.push(new Key(K_COPY))
  else if (letter == 0x78 && (mods & MOD_SUPER) != 0) keys.push(new Key(K_CUT))
  else if (mods == MOD_CTRL && letter >= 0x61 && letter <= 0x7a) keys.push(new Key(K_CTRL, letter))
}

function readPaste(src: Uint8Array, j: i32, end: i32, keys: Array<Key>): i32 {
  // One pass, one copy: a 1 MiB paste is linear. The end marker is found by its ESC byte.
  let k = j
  while (k < end) {
    if (unchecked(src[k]) == 0x1b && matchesAt(src, k, end, PASTE_END)) break
    k++
  }
  const text = new ByteBuf(k - j + 1)
  text.slice(src, j, k)
  keys.push(new Key(K_PASTE, 0, text))
  return k < end ? k + PASTE_END.length : end
}

function matchesAt(src: Uint8Array, at: i32, end: i32, s: string): bool {
  if (at + s.length > end) return false
  for (let i = 0; i < s.length; i++) if (<i32>unchecked(src[at + i]) != s.charCodeAt(i)) return false
  return true
}
