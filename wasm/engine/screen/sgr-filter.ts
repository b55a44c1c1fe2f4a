// A command's own colours, let through the sanitizer only as a whitelist: `git diff` on the
// person's terminal shows red, green, cyan and bold as git draws them, and nothing else of what a
// command writes ever reaches the terminal. Runs in the engine (wasm), inside Sanitizer.
//
// Whitelisted SGR parameters: 0 (reset), 1 (bold), 22 (not bold), 39 (default colour), and the
// foreground colours 31..36 and 91..96. A sequence with any other parameter (8 = conceal, 5 =
// blink, 7 = reverse, backgrounds, 256-colour and RGB forms, black and white, which can be
// invisible on the page's background), a colon, a private marker or an intermediate byte is
// dropped whole. What passes is never the command's bytes: the filter keeps a state (bold, one
// colour) and writes it in one canonical form (`ESC[0;1;31m`, `ESC[0m`) right before the next
// printable character. Every line ends reset, and the next one starts plain, so a colour never
// outlives its line (nor its row, see layout.ts, which carries the last form across a wrap).

import { ByteBuf } from '../util/byte-buf'

/** The longest parameter string kept ("1;31" is 4 bytes); a longer one is dropped. */
const PARAMS_CAP = 32

export class SgrFilter {
  private bold: bool = false
  private fg: i32 = 0
  /** What was last written to the output (the terminal's state at that point). */
  private shownBold: bool = false
  private shownFg: i32 = 0
  private params: ByteBuf = new ByteBuf(PARAMS_CAP)
  private valid: bool = true

  /** A CSI begins: its parameters come next. */
  begin(): void {
    this.params.reset()
    this.valid = true
  }

  /** One byte of a CSI before its final byte. */
  param(c: i32): void {
    if (this.params.length >= PARAMS_CAP || !((c >= 0x30 && c <= 0x39) || c == 0x3b)) this.valid = false
    else this.params.byte(c)
  }

  /** The CSI's final byte: an SGR whose every parameter is whitelisted changes the state. */
  end(final: i32): void {
    if (final != 0x6d || !this.valid) return
    let bold = this.bold
    let fg = this.fg
    let n = 0
    const p = this.params
    for (let i = 0; i <= p.length; i++) {
      if (i < p.length && p.u8At(i) != 0x3b) {
        n = n * 10 + (<i32>p.u8At(i) - 0x30)
        if (n > 999) return
        continue
      }
      if (n == 0) {
        bold = false
        fg = 0
      } else if (n == 1) bold = true
      else if (n == 22) bold = false
      else if (n == 39) fg = 0
      else if ((n >= 31 && n <= 36) || (n >= 91 && n <= 96)) fg = n
      else return // one parameter off the list: the whole sequence goes
      n = 0
    }
    this.bold = bold
    this.fg = fg
  }

  /** Before printable text: the state, if it changed since it was last written. */
  show(out: ByteBuf): void {
    if (this.bold == this.shownBold && this.fg == this.shownFg) return
    this.shownBold = this.bold
    this.shownFg = this.fg
    if (!this.bold && this.fg == 0) {
      out.str('\x1b[0m')
      return
    }
    out.str('\x1b[0')
    if (this.bold) out.str(';1')
    if (this.fg != 0) out.str(';' + this.fg.toString())
    out.byte(0x6d)
  }

  /** A line ends (or the text does): reset if anything is shown; the next line starts plain. */
  lineEnd(out: ByteBuf): void {
    this.bold = false
    this.fg = 0
    this.show(out)
  }
}
