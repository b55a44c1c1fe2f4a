// Untrusted text (model output, command output) → printable text. Strips every control and
// escape sequence (CSI, OSC, DCS, APC, PM, SOS, C0 and C1 controls) except newline; expands tabs;
// drops carriage returns. Stateful, so a sequence split across two stream deltas is still
// removed whole. Only the engine's own styling ever reaches the terminal.
//
// A string sequence (OSC, DCS, APC, PM, SOS) that is never terminated must not swallow the rest
// of the reply: it ends at the end of its line, at CAN or SUB (which abort any sequence in a
// real terminal), at an ESC (which starts the next escape, ESC \ being the ST), or after
// STRING_CAP bytes, and what follows is text again. The 8-bit C1 introducers (U+0090, U+0098,
// U+009B, U+009D, U+009E, U+009F, as UTF-8) start the same sequences their 7-bit forms do, so
// their parameters are stripped with them. A non-ASCII character ends an escape or CSI and
// shows, as xterm.js recovers from such an error.
//
// `keepColour`: a command's output on the person's terminal keeps its colours, through the
// whitelist of sgr-filter.ts (and only those); `expandTabs` off keeps tabs as tabs (the plain
// text a model reads).

import { ByteBuf, byteAt } from '../util/byte-buf'
import { SgrFilter } from './sgr-filter'

const S_TEXT = 0
const S_ESC = 1 // saw ESC
const S_CSI = 2 // inside ESC [ ... until a final byte
const S_STRING = 3 // inside OSC/DCS/APC/PM/SOS until BEL or ST
const S_C2 = 4 // saw 0xC2, the lead byte of U+0080..U+00BF
const S_ESC_INTER = 5 // ESC followed by intermediate bytes (e.g. ESC ( B)
const S_STRING_C2 = 6 // saw 0xC2 inside a string (maybe U+009C, the 8-bit ST)

/** The longest string sequence kept hidden; past it the rest shows as text (an OSC 8 URL fits). */
const STRING_CAP = 4096
const CAN = 0x18
const SUB = 0x1a

export class Sanitizer {
  state: i32 = S_TEXT
  column: i32 = 0
  /** Bytes of the current string sequence so far. */
  stringBytes: i32 = 0
  /** The whitelisted colours of the text, or null when every escape is stripped. */
  colours: SgrFilter | null = null
  expandTabs: bool = true

  constructor(keepColour: bool = false) {
    if (keepColour) this.colours = new SgrFilter()
  }

  /** Appends the printable part of `src[start, end)` to `out`. */
  feed(src: Uint8Array, start: i32, end: i32, out: ByteBuf): void {
    for (let i = start; i < end; i++) {
      if (this.state == S_TEXT) {
        // Printable bytes (ASCII, and UTF-8 other than the C1 lead 0xC2) are copied as one run.
        const run = i
        let columns = 0
        while (i < end) {
          const b = byteAt(src, i)
          if (b < 0x20 || b == 0x7f || b == 0xc2) break
          if ((b & 0xc0) != 0x80) columns++
          i++
        }
        if (i > run) {
          if (this.colours != null) this.colours!.show(out)
          out.slice(src, run, i)
          this.column += columns
          if (i == end) break
        }
      }
      const c = byteAt(src, i)
      switch (this.state) {
        case S_TEXT:
          this.text(c, out)
          break
        case S_ESC:
          if (c == 0x5b) this.startCsi()
          else if (c == 0x5d || c == 0x50 || c == 0x5f || c == 0x5e || c == 0x58) this.startString()
          else if (c >= 0x20 && c <= 0x2f) this.state = S_ESC_INTER
          else if (c == 0x1b) this.state = S_ESC
          else if (c < 0x20 || c >= 0x80) {
            // A bare ESC before a control or a non-ASCII character: drop the ESC, keep the
            // newline or tab, and the character whole (never a stray UTF-8 continuation byte).
            this.state = S_TEXT
            this.text(c, out)
          } else this.state = S_TEXT // a two-byte escape: drop both bytes
          break
        case S_ESC_INTER:
          if (c < 0x20 || c >= 0x80) {
            this.state = S_TEXT
            this.text(c, out)
          } else if (c > 0x2f) this.state = S_TEXT
          break
        case S_CSI:
          if (c >= 0x40 && c <= 0x7e) {
            this.state = S_TEXT
            if (this.colours != null) this.colours!.end(c)
          } else if (c == 0x1b) this.state = S_ESC
          else if (c < 0x20 || c >= 0x80) {
            // A control or a non-ASCII character cannot be part of a CSI: it ends the sequence
            // and is text (so "ESC[1€abc" keeps "€abc", as xterm.js recovers), a newline too.
            this.state = S_TEXT
            this.text(c, out)
          } else if (this.colours != null) this.colours!.param(c)
          break
        case S_STRING:
          this.inString(c, out)
          break
        case S_STRING_C2:
          // U+009C is the 8-bit ST; any other character is part of the string.
          if (c == 0x9c) this.state = S_TEXT
          else {
            this.state = S_STRING
            this.inString(c, out)
          }
          break
        case S_C2:
          this.state = S_TEXT
          if (c < 0x80 || c >= 0xc0) {
            // Not UTF-8 (0xC2 needs a continuation byte): the lone lead byte is dropped.
            this.text(c, out)
          } else if (c >= 0xa0) {
            // U+00A0..U+00BF are printable.
            if (this.colours != null) this.colours!.show(out)
            out.byte(0xc2)
            out.byte(c)
            this.column++
          } else if (c == 0x9b) this.startCsi()
          else if (c == 0x90 || c == 0x98 || c == 0x9d || c == 0x9e || c == 0x9f) this.startString()
          // Any other C1 control (U+0080..U+009F) is dropped.
          break
      }
    }
  }

  private startCsi(): void {
    this.state = S_CSI
    if (this.colours != null) this.colours!.begin()
  }

  /** The end of the text: a colour still shown is reset, so it never reaches what follows. */
  finish(out: ByteBuf): void {
    if (this.colours != null) this.colours!.lineEnd(out)
  }

  private startString(): void {
    this.state = S_STRING
    this.stringBytes = 0
  }

  /**
   * One byte of a string sequence: BEL or ST ends it, and so do a newline, CAN, SUB or the cap.
   * An ESC ends it too and starts the next escape, as in xterm.js's parser (so `ESC \` is an ST
   * and `ESC [1m` after a string that never ended is a CSI, with the text after it shown).
   */
  private inString(c: i32, out: ByteBuf): void {
    if (c == 0x07 || c == CAN || c == SUB) this.state = S_TEXT
    else if (c == 0x1b) this.state = S_ESC
    else if (c == 0xc2) this.state = S_STRING_C2
    else if (c == 0x0a) {
      this.state = S_TEXT
      this.text(c, out)
    } else if (++this.stringBytes > STRING_CAP) this.state = S_TEXT
  }

  private text(c: i32, out: ByteBuf): void {
    if (c == 0x1b) {
      this.state = S_ESC
    } else if (c == 0x0a) {
      if (this.colours != null) this.colours!.lineEnd(out)
      out.byte(c)
      this.column = 0
    } else if (c == 0x09 && !this.expandTabs) {
      out.byte(c)
      this.column += 8 - (this.column & 7)
    } else if (c == 0x09) {
      if (this.colours != null) this.colours!.show(out)
      const spaces = 8 - (this.column & 7)
      for (let k = 0; k < spaces; k++) out.byte(0x20)
      this.column += spaces
    } else if (c < 0x20 || c == 0x7f) {
      // other C0 controls (BEL, BS, CR, ...) are dropped
    } else if (c == 0xc2) {
      this.state = S_C2
    } else {
      if (this.colours != null) this.colours!.show(out)
      out.byte(c)
      if ((c & 0xc0) != 0x80) this.column++
    }
  }
}

/** One-shot sanitization of a whole text. */
export function sanitizeInto(src: Uint8Array, start: i32, end: i32, out: ByteBuf): void {
  const s = new Sanitizer()
  s.feed(src, start, end, out)
}

/** `sanitizeInto`, keeping the whitelisted colours (sgr-filter.ts); ends with nothing shown. */
export function sanitizeColouredInto(src: Uint8Array, start: i32, end: i32, out: ByteBuf): void {
  const s = new Sanitizer(true)
  s.feed(src, start, end, out)
  s.finish(out)
}

/** Command output as plain text for the model: every escape and control gone, tabs kept. */
export function plainText(src: Uint8Array): Uint8Array {
  const out = new ByteBuf(src.length)
  const s = new Sanitizer()
  s.expandTabs = false
  s.feed(src, 0, src.length, out)
  return out.data.subarray(0, out.length)
}
