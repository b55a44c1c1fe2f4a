// Inline Markdown for one line of the assistant's (already sanitized) reply: **bold**, *italic*,
// _italic_, ~~strike~~, `code`, [links](url), <autolinks> and bare http(s) URLs, backslash
// escapes. The output is the text plus the engine's own styling, which the layout treats as
// zero-width:
//   - SGR: every style change is written as one complete `ESC[0;…m`, so the single sequence the
//     layout carries to a wrapped row is the whole style in force;
//   - OSC 8 hyperlinks, only for http(s) URLs made of printable ASCII (so nothing in a URL can end
//     the sequence early or smuggle a control). Any other link shows its text and URL as text.
// Linear in the line's length: delimiters are paired with one stack per delimiter character,
// brackets are matched in one pass, code-span closers are searched with a failure cache.

import { ByteBuf, byteAt } from '../util/byte-buf'
import { InlineItems, F_KIND, F_E, F_U1, F_U2, F_REM, F_OPENS, F_CLOSES, K_TEXT, K_CODE, K_DELIM, K_LINK_OPEN, K_LINK_CLOSE, K_URL } from './inline-items'
import { InlineEmitter } from './markdown-inline-emit'
import { isSpace, isAsciiPunct, isAlnum, lower, httpScheme, isSafeHttpUrl, allSpaces, bareUrlEnd } from './markdown-urls'

// per-style counters packed in one i32: bold in bits 0-7, italic 8-15, strike 16-23
const U_BOLD = 1
const U_ITALIC = 1 << 8
const U_STRIKE = 1 << 16

/** The bytes `scan` acts on: \\ ` * _ ~ ! [ < and h H (a bare URL); it steps over any other. */
const STARTS = startBytes()

function startBytes(): StaticArray<u8> {
  const t = new StaticArray<u8>(256)
  const list = '\\`*_~![<hH'
  for (let k = 0; k < list.length; k++) t[list.charCodeAt(k)] = 1
  return t
}

/** Renders inline Markdown. One instance is reused; its arrays are scratch space. */
export class InlineRenderer {
  private items: InlineItems = new InlineItems()
  private emitter: InlineEmitter = new InlineEmitter()
  // delimiter pairing
  private stackStar: Array<i32> = []
  private stackUnder: Array<i32> = []
  private stackTilde: Array<i32> = []
  // bracket matching: for a '[' at p, the matching ']' is bracket[p - start] (or -1)
  private bracket: Int32Array = new Int32Array(256)
  private openStack: Array<i32> = []
  // code spans: no closing run of length n (n < 32) exists at or after noCloser[n]
  private noCloser: Int32Array = new Int32Array(32)

  /**
   * Renders `src[start, end)` into `out`. `baseFlags`/`baseColour` style the whole text (a
   * heading). The text must be sanitized: it has no ESC of its own. With `links` false (the live
   * preview, where a URL may still be arriving) links are styled but not made hyperlinks.
   */
  render(src: Uint8Array, start: i32, end: i32, out: ByteBuf, baseFlags: i32, baseColour: i32, links: bool = true): void {
    this.scan(src, start, end)
    this.pair()
    this.emitter.emit(this.items, src, out, baseFlags, baseColour, links)
  }

  private add(kind: i32, s: i32, e: i32, u1: i32, u2: i32, safe: bool): void {
    this.items.add(kind, s, e, u1, u2, safe)
  }

  private text(s: i32, e: i32): void {
    if (e > s) this.add(K_TEXT, s, e, 0, 0, false)
  }

  private reset(): void {
    this.items.count = 0
  }

  /** Matches brackets in one pass, skipping backslash escapes. */
  private matchBrackets(src: Uint8Array, start: i32, end: i32): void {
    const n = end - start
    if (this.bracket.length < n) this.bracket = new Int32Array(max(n, this.bracket.length << 1))
    const b = this.bracket
    b.fill(-1, 0, n)
    const st = this.openStack
    st.length = 0
    for (let i = start; i < end; i++) {
      const c = byteAt(src, i)
      if (c == 0x5c && i + 1 < end && isAsciiPunct(byteAt(src, i + 1))) {
        i++
        continue
      }
      if (c == 0x5b) {
        st.push(i)
      } else if (c == 0x5d && st.length > 0) {
        const o = st.pop()
        b[o - start] = i
      }
    }
  }

  /** First pass: the line as a list of items. */
  private scan(src: Uint8Array, start: i32, end: i32): void {
    this.reset()
    let hasBracket = false
    for (let i = start; i < end; i++) {
      if (byteAt(src, i) == 0x5b) {
        hasBracket = true
        break
      }
    }
    if (hasBracket) this.matchBrackets(src, start, end)
    for (let k = 0; k < 32; k++) this.noCloser[k] = i32.MAX_VALUE
    let textStart = start
    let linkCloseAt = -1 // the ']' of the link whose text we are in
    let linkResume = -1 // just after its ')'
    let i = start
    while (i < end) {
      // bytes that start nothing (most of a line) are passed over in a tight loop
      const stop = linkCloseAt >= 0 ? min(end, linkCloseAt) : end
      while (i < stop && unchecked(STARTS[byteAt(src, i)]) == 0) i++
      if (i >= end) break
      const c = byteAt(src, i)
      if (linkCloseAt >= 0 && i >= linkCloseAt) {
        this.text(textStart, min(i, linkCloseAt))
        this.add(K_LINK_CLOSE, 0, 0, 0, 0, false)
        i = max(i, linkResume)
        textStart = i
        linkCloseAt = -1
        continue
      }
      // backslash escape
      if (c == 0x5c && i + 1 < end && isAsciiPunct(byteAt(src, i + 1))) {
        this.text(textStart, i)
        this.text(i + 1, i + 2)
        i += 2
        textStart = i
        continue
      }
      // code span
      if (c == 0x60) {
        let n = 1
        while (i + n < end && byteAt(src, i + n) == 0x60) n++
        const close = this.findCodeClose(src, i + n, end, n)
        if (close >= 0 && (linkCloseAt < 0 || close + n <= linkCloseAt)) {
          this.text(textStart, i)
          let cs = i + n
          let ce = close
          // one space is stripped from both sides when both have one and the content is not all spaces
          if (ce - cs >= 2 && byteAt(src, cs) == 0x20 && byteAt(src, ce - 1) == 0x20 && !allSpaces(src, cs, ce)) {
            cs++
            ce--
          }
          this.add(K_CODE, cs, ce, 0, 0, false)
          i = close + n
          textStart = i
        } else {
          i += n
        }
        continue
      }
      // emphasis delimiters
      if (c == 0x2a || c == 0x5f || c == 0x7e) {
        let n = 1
        while (i + n < end && byteAt(src, i + n) == c) n++
        if (c == 0x7e && n != 2) {
          i += n
          continue
        }
        const prev = i > start ? byteAt(src, i - 1) : 0x20
        const next = i + n < end ? byteAt(src, i + n) : 0x20
        const prevSpace = isSpace(prev)
        const nextSpace = isSpace(next)
        const prevPunct = isAsciiPunct(prev)
        const nextPunct = isAsciiPunct(next)
        const left = !nextSpace && (!nextPunct || prevSpace || prevPunct)
        const right = !prevSpace && (!prevPunct || nextSpace || nextPunct)
        let canOpen = left
        let canClose = right
        if (c == 0x5f) {
          canOpen = left && (!right || prevPunct)
          canClose = right && (!left || nextPunct)
        }
        if (canOpen || canClose) {
          this.text(textStart, i)
          this.add(K_DELIM, i, c, n, (canOpen ? 1 : 0) | (canClose ? 2 : 0), false)
          i += n
          textStart = i
        } else {
          i += n
        }
        continue
      }
      // [text](url) and ![alt](url)
      const isImage = c == 0x21 && i + 1 < end && byteAt(src, i + 1) == 0x5b
      if ((c == 0x5b || isImage) && linkCloseAt < 0 && hasBracket) {
        const open = isImage ? i + 1 : i
        const close = unchecked(this.bracket[open - start])
        if (close > open && this.parseDestination(src, close, end)) {
          this.text(textStart, i)
          this.add(K_LINK_OPEN, 0, 0, this.lastUrlStart, this.lastUrlEnd, isSafeHttpUrl(src, this.lastUrlStart, this.lastUrlEnd))
          linkCloseAt = close
          linkResume = this.lastResume
          i = open + 1
          textStart = i
          // empty text: the URL itself is the text
          if (close == open + 1) this.add(K_TEXT, this.lastUrlStart, this.lastUrlEnd, 0, 0, false)
          continue
        }
        i++
        continue
      }
      // <scheme:...> autolink
      if (c == 0x3c && linkCloseAt < 0) {
        const close = this.autolinkEnd(src, i + 1, end)
        if (close > 0) {
          this.text(textStart, i)
          this.add(K_URL, i + 1, close, 0, 0, isSafeHttpUrl(src, i + 1, close))
          i = close + 1
          textStart = i
          continue
        }
        i++
        continue
      }
      // bare http(s) URL at a word start
      if ((c == 0x68 || c == 0x48) && linkCloseAt < 0 && (i == start || !isAlnum(byteAt(src, i - 1)))) {
        const scheme = httpScheme(src, i, end)
        if (scheme > 0) {
          const urlEnd = bareUrlEnd(src, i, i + scheme, end)
          if (urlEnd > i + scheme) {
            this.text(textStart, i)
            this.add(K_URL, i, urlEnd, 0, 0, isSafeHttpUrl(src, i, urlEnd))
            i = urlEnd
            textStart = i
            continue
          }
        }
      }
      i++
    }
    this.text(textStart, end)
    if (linkCloseAt >= 0) this.add(K_LINK_CLOSE, 0, 0, 0, 0, false) // cannot happen: the ']' is before end
  }

  private lastUrlStart: i32 = 0
  private lastUrlEnd: i32 = 0
  private lastResume: i32 = 0

  /** After the `]` at `close`: `(` destination [title] `)`. Sets lastUrl*, lastResume. */
  private parseDestination(src: Uint8Array, close: i32, end: i32): bool {
    let j = close + 1
    if (j >= end || byteAt(src, j) != 0x28) return false
    j++
    while (j < end && byteAt(src, j) == 0x20) j++
    let us = j
    let ue = j
    if (j < end && byteAt(src, j) == 0x3c) {
      us = j + 1
      j = us
      while (j < end && byteAt(src, j) != 0x3e && byteAt(src, j) != 0x3c) j++
      if (j >= end || byteAt(src, j) != 0x3e) return false
      ue = j
      j++
    } else {
      let depth = 0
      while (j < end) {
        const c = byteAt(src, j)
        if (c == 0x20) break
        if (c == 0x5c && j + 1 < end) {
          j += 2
          continue
        }
        if (c == 0x28) depth++
        else if (c == 0x29) {
          if (depth == 0) break
          depth--
        }
        j++
      }
      if (j > end) j = end
      ue = j
    }
    while (j < end && byteAt(src, j) == 0x20) j++
    if (j < end) {
      const q = byteAt(src, j)
      if (q == 0x22 || q == 0x27 || q == 0x28) {
        const closeQ = q == 0x28 ? 0x29 : q
        j++
        while (j < end && byteAt(src, j) != closeQ) j++
        if (j >= end) return false
        j++
        while (j < end && byteAt(src, j) == 0x20) j++
      }
    }
    if (j >= end || byteAt(src, j) != 0x29) return false
    this.lastUrlStart = us
    this.lastUrlEnd = ue
    this.lastResume = j + 1
    return true
  }

  /** `<` was at from-1: the position of `>` ending an absolute URI, or -1. */
  private autolinkEnd(src: Uint8Array, from: i32, end: i32): i32 {
    let j = from
    // scheme: a letter, then 1-31 of letter, digit, + . -, then ':'
    if (j >= end || (lower(byteAt(src, j)) < 0x61 || lower(byteAt(src, j)) > 0x7a)) return -1
    j++
    while (j < end && j - from < 33) {
      const c = byteAt(src, j)
      if (isAlnum(c) || c == 0x2b || c == 0x2e || c == 0x2d) j++
      else break
    }
    if (j - from < 2 || j >= end || byteAt(src, j) != 0x3a) return -1
    j++
    while (j < end) {
      const c = byteAt(src, j)
      if (c == 0x3e) return j
      if (c <= 0x20 || c == 0x3c) return -1
      j++
    }
    return -1
  }

  /** The start of the next run of exactly `n` backticks at or after `from`, or -1. */
  private findCodeClose(src: Uint8Array, from: i32, end: i32, n: i32): i32 {
    const slot = min(n, 31)
    if (from >= unchecked(this.noCloser[slot]) && n < 31) return -1
    let j = from
    while (j < end) {
      if (byteAt(src, j) == 0x60) {
        let m = 1
        while (j + m < end && byteAt(src, j + m) == 0x60) m++
        if (m == n) return j
        j += m
      } else j++
    }
    if (n < 31) this.noCloser[slot] = from
    return -1
  }

  /** Second pass: pairs emphasis delimiters (nearest opener of the same character first). */
  private pair(): void {
    this.stackStar.length = 0
    this.stackUnder.length = 0
    this.stackTilde.length = 0
    const it = this.items
    const count = it.count
    for (let k = 0; k < count; k++) {
      if (it.get(k, F_KIND) != K_DELIM) continue
      const c = it.get(k, F_E)
      const flags = it.get(k, F_U2)
      let r = it.get(k, F_U1)
      const st = c == 0x2a ? this.stackStar : c == 0x5f ? this.stackUnder : this.stackTilde
      if (flags & 2) {
        while (r > 0 && st.length > 0) {
          const o = st[st.length - 1]
          let orem = it.get(o, F_REM)
          let use = 2
          let unit = U_STRIKE
          if (c != 0x7e) {
            use = r >= 2 && orem >= 2 ? 2 : 1
            unit = use == 2 ? U_BOLD : U_ITALIC
          }
          it.set(o, F_OPENS, it.get(o, F_OPENS) + unit)
          it.set(k, F_CLOSES, it.get(k, F_CLOSES) + unit)
          orem -= use
          r -= use
          it.set(o, F_REM, orem)
          if (orem <= 0) st.pop()
        }
      }
      it.set(k, F_REM, r)
      if (r > 0 && flags & 1) st.push(k)
    }
  }
}
