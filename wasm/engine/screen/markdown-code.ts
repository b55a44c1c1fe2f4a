// Fenced code blocks: a small generic highlighter (keywords, strings, comments, numbers) for the
// common languages, and a hard wrap that keeps every character where it is (indentation is never
// reflowed; a long line continues on the next row at the block's indent).

import { ByteBuf, decodeAt, byteAt } from '../util/byte-buf'
import { Rows } from './layout'
import { cellWidth } from './width'
import { C_CODE, writeStyle } from './markdown-style'
import { WordSet } from './word-set'

const C_KEYWORD: i32 = 35
const C_STRING: i32 = 32
const C_COMMENT: i32 = 90
const C_NUMBER: i32 = 33
const C_KEY: i32 = 94 // JSON keys, shell variables
const C_ADDED: i32 = 32
const C_REMOVED: i32 = 31

export const LANG_NONE: i32 = 0
const LANG_JS: i32 = 1
const LANG_JSON: i32 = 2
const LANG_SH: i32 = 3
const LANG_PY: i32 = 4
const LANG_RUST: i32 = 5
const LANG_GO: i32 = 6
const LANG_C: i32 = 7 // c, c++, java, c#, kotlin, swift…: C-like with a generic keyword set
const LANG_HASH: i32 = 8 // yaml, toml, ini, dockerfile, makefile: # comments, strings, numbers
const LANG_DIFF: i32 = 9

function wordSet(words: string): WordSet {
  return new WordSet(words)
}

const JS_KEYWORDS = wordSet(
  'break case catch class const continue debugger default delete do else enum export extends finally for function if import in instanceof let new of return static super switch this throw try typeof var void while with yield async await interface type implements private protected public readonly declare namespace abstract as from get set keyof satisfies',
)
const JS_LITERALS = wordSet('true false null undefined NaN Infinity')
const PY_KEYWORDS = wordSet(
  'and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case self',
)
const PY_LITERALS = wordSet('True False None')
const RUST_KEYWORDS = wordSet(
  'as async await break const continue crate dyn else enum extern fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait type unsafe use where while',
)
const GO_KEYWORDS = wordSet(
  'break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var',
)
const RUST_LITERALS = wordSet('true false')
const GO_LITERALS = wordSet('true false nil iota')
const SH_KEYWORDS = wordSet('if then else elif fi for while until do done case esac function in return export local readonly declare select time set unset source alias')
const C_KEYWORDS = wordSet(
  'auto break case char const continue default do double else enum extern float for goto if int long register return short signed sizeof static struct switch typedef union unsigned void volatile while class public private protected new delete this try catch throw namespace using template typename virtual override final import package extends implements interface boolean byte throws var val fun let func bool string include define',
)
const C_LITERALS = wordSet('true false null nullptr NULL nil')
const BOOL_LITERALS = wordSet('true false null yes no on off')

/** The highlighter language for a fence's info string (its first word, any case). */
export function langOf(name: string): i32 {
  const n = name.toLowerCase()
  if (n == 'js' || n == 'javascript' || n == 'jsx' || n == 'ts' || n == 'typescript' || n == 'tsx' || n == 'mjs' || n == 'cjs' || n == 'node')
    return LANG_JS
  if (n == 'json' || n == 'jsonc' || n == 'json5' || n == 'jsonl') return LANG_JSON
  if (n == 'sh' || n == 'bash' || n == 'shell' || n == 'zsh' || n == 'console' || n == 'shellsession' || n == 'fish') return LANG_SH
  if (n == 'py' || n == 'python' || n == 'python3') return LANG_PY
  if (n == 'rs' || n == 'rust') return LANG_RUST
  if (n == 'go' || n == 'golang') return LANG_GO
  if (n == 'c' || n == 'h' || n == 'cpp' || n == 'c++' || n == 'cc' || n == 'hpp' || n == 'java' || n == 'cs' || n == 'csharp' || n == 'kotlin' || n == 'kt' || n == 'swift' || n == 'scala' || n == 'dart' || n == 'php')
    return LANG_C
  if (n == 'yaml' || n == 'yml' || n == 'toml' || n == 'ini' || n == 'dockerfile' || n == 'makefile' || n == 'make' || n == 'conf' || n == 'r' || n == 'ruby' || n == 'rb' || n == 'perl')
    return LANG_HASH
  if (n == 'diff' || n == 'patch') return LANG_DIFF
  return LANG_NONE
}

@inline function isIdentStart(c: i32): bool {
  return ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) || c == 0x5f || c == 0x24 || c >= 0x80
}

@inline function isIdentChar(c: i32): bool {
  return isIdentStart(c) || (c >= 0x30 && c <= 0x39)
}

@inline function isDigit(c: i32): bool {
  return c >= 0x30 && c <= 0x39
}

/** Highlights code lines of one block; carries block comments and triple-quoted strings across lines. */
export class CodeHighlighter {
  lang: i32 = LANG_NONE
  private inBlockComment: bool = false
  private inTriple: i32 = 0 // the quote of an open Python triple-quoted string
  private colour: i32 = 0 // the colour last written on the current line

  /**
   * Writes `src[s, e)` highlighted into `out` (ending plain). With `commit` false (the live
   * preview of an unfinished line) the state carried to the next line is left as it was.
   */
  line(src: Uint8Array, s: i32, e: i32, out: ByteBuf, commit: bool): void {
    const savedBlock = this.inBlockComment
    const savedTriple = this.inTriple
    this.colour = 0
    if (this.lang == LANG_NONE) this.plain(src, s, e, out, C_CODE)
    else if (this.lang == LANG_DIFF) this.diff(src, s, e, out)
    else this.tokens(src, s, e, out)
    if (this.colour != 0) out.str('\x1b[0m')
    if (!commit) {
      this.inBlockComment = savedBlock
      this.inTriple = savedTriple
    }
  }

  private put(src: Uint8Array, s: i32, e: i32, out: ByteBuf, colour: i32): void {
    if (e <= s) return
    if (colour != this.colour) {
      writeStyle(out, 0, colour)
      this.colour = colour
    }
    out.slice(src, s, e)
  }

  private plain(src: Uint8Array, s: i32, e: i32, out: ByteBuf, colour: i32): void {
    this.put(src, s, e, out, colour)
  }

  private diff(src: Uint8Array, s: i32, e: i32, out: ByteBuf): void {
    let colour = C_CODE
    if (e > s) {
      const c = byteAt(src, s)
      if (c == 0x2b) colour = C_ADDED
      else if (c == 0x2d) colour = C_REMOVED
      else if (c == 0x40) colour = C_COMMENT
    }
    this.put(src, s, e, out, colour)
  }

  private tokens(src: Uint8Array, s: i32, e: i32, out: ByteBuf): void {
    const lang = this.lang
    const cLike = lang == LANG_JS || lang == LANG_RUST || lang == LANG_GO || lang == LANG_C || lang == LANG_JSON
    const hashComments = lang == LANG_SH || lang == LANG_PY || lang == LANG_HASH
    let i = s
    if (this.inBlockComment) {
      const close = find2(src, i, e, 0x2a, 0x2f)
      if (close < 0) {
        this.put(src, i, e, out, C_COMMENT)
        return
      }
      this.put(src, i, close + 2, out, C_COMMENT)
      this.inBlockComment = false
      i = close + 2
    }
    if (this.inTriple != 0) {
      const q = this.inTriple
      const close = findTriple(src, i, e, q)
      if (close < 0) {
        this.put(src, i, e, out, C_STRING)
        return
      }
      this.put(src, i, close + 3, out, C_STRING)
      this.inTriple = 0
      i = close + 3
    }
    let plainStart = i
    while (i < e) {
      const c = byteAt(src, i)
      const next = i + 1 < e ? byteAt(src, i + 1) : 0
      const prev = i > s ? byteAt(src, i - 1) : 0x20
      // comments
      if ((cLike && lang != LANG_JSON && c == 0x2f && next == 0x2f) || (hashComments && c == 0x23 && (prev == 0x20 || prev == 0x09 || i == s))) {
        this.put(src, plainStart, i, out, C_CODE)
        this.put(src, i, e, out, C_COMMENT)
        return
      }
      if (cLike && c == 0x2f && next == 0x2a) {
        this.put(src, plainStart, i, out, C_CODE)
        const close = find2(src, i + 2, e, 0x2a, 0x2f)
        if (close < 0) {
          this.put(src, i, e, out, C_COMMENT)
          this.inBlockComment = true
          return
        }
        this.put(src, i, close + 2, out, C_COMMENT)
        i = close + 2
        plainStart = i
        continue
      }
      // strings
      if (c == 0x22 || c == 0x27 || (c == 0x60 && (lang == LANG_JS || lang == LANG_GO || lang == LANG_SH))) {
        if (c == 0x27 && lang == LANG_RUST && !rustCharLiteral(src, i, e)) {
          i++ // a lifetime
          continue
        }
        if (c == 0x27 && (lang == LANG_HASH || lang == LANG_C) && isIdentChar(prev)) {
          i++ // an apostrophe in a word
          continue
        }
        this.put(src, plainStart, i, out, C_CODE)
        if (lang == LANG_PY && next == c && i + 2 < e && byteAt(src, i + 2) == c) {
          const close = findTriple(src, i + 3, e, c)
          if (close < 0) {
            this.put(src, i, e, out, C_STRING)
            this.inTriple = c
            return
          }
          this.put(src, i, close + 3, out, C_STRING)
          i = close + 3
          plainStart = i
          continue
        }
        let j = i + 1
        while (j < e) {
          const d = byteAt(src, j)
          if (d == 0x5c && lang != LANG_SH) j += 2
          else if (d == c) {
            j++
            break
          } else j++
        }
        if (j > e) j = e
        let colour = C_STRING
        if (lang == LANG_JSON) {
          let k = j
          while (k < e && byteAt(src, k) == 0x20) k++
          if (k < e && byteAt(src, k) == 0x3a) colour = C_KEY
        }
        this.put(src, i, j, out, colour)
        i = j
        plainStart = i
        continue
      }
      // shell variables
      if (lang == LANG_SH && c == 0x24 && (isIdentStart(next) || next == 0x7b || isDigit(next) || next == 0x40 || next == 0x3f)) {
        this.put(src, plainStart, i, out, C_CODE)
        let j = i + 1
        if (next == 0x7b) {
          while (j < e && byteAt(src, j) != 0x7d) j++
          if (j < e) j++
        } else if (isIdentStart(next) && next != 0x24) {
          while (j < e && isIdentChar(byteAt(src, j)) && byteAt(src, j) != 0x24) j++
        } else j++
        this.put(src, i, j, out, C_KEY)
        i = j
        plainStart = i
        continue
      }
      // numbers
      if (isDigit(c) && !isIdentChar(prev)) {
        this.put(src, plainStart, i, out, C_CODE)
        let j = i + 1
        while (j < e) {
          const d = byteAt(src, j)
          if (isIdentChar(d) && d < 0x80) j++
          else if (d == 0x2e && j + 1 < e && isDigit(byteAt(src, j + 1))) j++
          else break
        }
        this.put(src, i, j, out, C_NUMBER)
        i = j
        plainStart = i
        continue
      }
      // identifiers and keywords
      if (isIdentStart(c) && !(lang == LANG_SH && c == 0x24)) {
        let j = i + 1
        while (j < e && isIdentChar(byteAt(src, j)) && !(lang == LANG_SH && byteAt(src, j) == 0x24)) j++
        const colour = this.wordColour(src, i, j, lang)
        if (colour != 0) {
          this.put(src, plainStart, i, out, C_CODE)
          this.put(src, i, j, out, colour)
          plainStart = j
        }
        i = j
        continue
      }
      i++
    }
    this.put(src, plainStart, e, out, C_CODE)
  }

  private wordColour(src: Uint8Array, s: i32, e: i32, lang: i32): i32 {
    const n = e - s
    if (n < 2 || n > 12) return 0
    for (let k = s; k < e; k++) if (byteAt(src, k) >= 0x80) return 0
    // a property or method name (`x.type`, `obj.new`) is not a keyword
    if (s > 0 && byteAt(src, s - 1) == 0x2e && lang != LANG_SH) return 0
    if (lang == LANG_JS) return JS_KEYWORDS.has(src, s, n) ? C_KEYWORD : JS_LITERALS.has(src, s, n) ? C_NUMBER : 0
    if (lang == LANG_PY) return PY_KEYWORDS.has(src, s, n) ? C_KEYWORD : PY_LITERALS.has(src, s, n) ? C_NUMBER : 0
    if (lang == LANG_RUST) return RUST_KEYWORDS.has(src, s, n) ? C_KEYWORD : RUST_LITERALS.has(src, s, n) ? C_NUMBER : 0
    if (lang == LANG_GO) return GO_KEYWORDS.has(src, s, n) ? C_KEYWORD : GO_LITERALS.has(src, s, n) ? C_NUMBER : 0
    if (lang == LANG_SH) return SH_KEYWORDS.has(src, s, n) ? C_KEYWORD : 0
    if (lang == LANG_C) return C_KEYWORDS.has(src, s, n) ? C_KEYWORD : C_LITERALS.has(src, s, n) ? C_NUMBER : 0
    if (lang == LANG_JSON || lang == LANG_HASH) return BOOL_LITERALS.has(src, s, n) ? C_NUMBER : 0
    return 0
  }
}

/** Whether the `'` at `i` starts a Rust char literal ('a', '\n', '\u{1F600}') rather than a lifetime. */
function rustCharLiteral(src: Uint8Array, i: i32, e: i32): bool {
  if (i + 1 >= e) return false
  if (byteAt(src, i + 1) == 0x5c) return true
  // one code point, then the closing quote
  let j = i + 1
  const lead = byteAt(src, j)
  j += lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4
  return j < e && byteAt(src, j) == 0x27
}

/** The position of the two-byte sequence `a b` at or after `from`, or -1. */
function find2(src: Uint8Array, from: i32, e: i32, a: i32, b: i32): i32 {
  for (let i = from; i + 1 < e; i++) if (byteAt(src, i) == a && byteAt(src, i + 1) == b) return i
  return -1
}

function findTriple(src: Uint8Array, from: i32, e: i32, q: i32): i32 {
  for (let i = from; i + 2 < e; i++) {
    if (byteAt(src, i) == 0x5c) {
      i++
      continue
    }
    if (byteAt(src, i) == q && byteAt(src, i + 1) == q && byteAt(src, i + 2) == q) return i
  }
  return -1
}

const lenBox = new StaticArray<i32>(1)

/**
 * Hard-wraps styled `text[start, end)` (no newline; the engine's SGR only) at exactly `cols`
 * cells: no character moves, spaces included. The first row starts with `prefix`, the rest with
 * `restPrefix`; the SGR in force is carried to the next row. An empty text gives one row.
 */
export function hardWrap(rows: Rows, text: Uint8Array, start: i32, end: i32, cols: i32, prefix: ByteBuf, pw: i32, restPrefix: ByteBuf, rw: i32): void {
  let line = rows.fresh(min(end - start, cols * 4) + pw + 16)
  line.append(prefix)
  let lw = pw
  let width = 0
  let avail = max(1, cols - pw)
  let sgrStart = -1
  let sgrEnd = -1
  let styled = false
  let i = start
  while (i < end) {
    const c = byteAt(text, i)
    if (c == 0x1b) {
      let j = i + 1
      if (j < end && byteAt(text, j) == 0x5b) j++
      while (j < end) {
        const d = byteAt(text, j)
        j++
        if (d >= 0x40 && d <= 0x7e) break
      }
      const isReset = j - i == 4 && byteAt(text, i + 2) == 0x30
      sgrStart = isReset ? -1 : i
      sgrEnd = isReset ? -1 : j
      line.slice(text, i, j)
      styled = true
      i = j
      continue
    }
    // printable ASCII is one byte and one cell: no decoding, no width lookup
    let n = 1
    let w = 1
    if (c < 0x20 || c >= 0x7f) {
      w = cellWidth(decodeAt(text, i, end, lenBox))
      n = lenBox[0]
    }
    if (width + w > avail && width > 0) {
      if (styled) line.str('\x1b[0m')
      rows.add(line, lw + width)
      line = rows.fresh(min(end - i, cols * 4) + rw + 16)
      line.append(restPrefix)
      lw = rw
      avail = max(1, cols - rw)
      width = 0
      styled = sgrStart >= 0
      if (styled) line.slice(text, sgrStart, sgrEnd)
    }
    if (n == 1) line.byte(c)
    else line.slice(text, i, i + n)
    width += w
    i += n
  }
  if (styled) line.str('\x1b[0m')
  rows.add(line, lw + width)
}
