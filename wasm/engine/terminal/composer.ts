// The composer: the line editor under the transcript. Holds the draft as code points so that
// cursor moves and deletions never split a character.

import { ByteBuf, decodeAt } from '../util/byte-buf'
import { cellWidth } from './width'
import { Rows } from './layout'
import { BOLD, GRAY, RESET } from './ansi'

export const PROMPT = '❯ '
const PROMPT_WIDTH = 2

function isWordChar(cp: i32): bool {
  return cp != 0x20 && cp != 0x0a && cp != 0x09
}

export class Composer {
  text: Array<i32> = []
  cursor: i32 = 0
  // Where layout() put the cursor, relative to the composer's first row.
  cursorRow: i32 = 0
  cursorCol: i32 = 0

  get isEmpty(): bool {
    return this.text.length == 0
  }

  insert(cp: i32): void {
    this.text.push(0)
    for (let i = this.text.length - 1; i > this.cursor; i--) unchecked((this.text[i] = this.text[i - 1]))
    unchecked((this.text[this.cursor] = cp))
    this.cursor++
  }

  insertBytes(bytes: ByteBuf): void {
    // Paste: splice in one go (a 1 MiB paste must not be quadratic).
    const cps = new Array<i32>()
    const lenBox = new StaticArray<i32>(1)
    let i = 0
    while (i < bytes.length) {
      const c = <i32>bytes.u8At(i)
      if (c == 0x0d) {
        // CRLF or lone CR in pasted text → newline
        cps.push(0x0a)
        if (i + 1 < bytes.length && bytes.u8At(i + 1) == 0x0a) i++
        i++
        continue
      }
      if (c < 0x80) {
        if (c >= 0x20 || c == 0x0a) cps.push(c)
        else if (c == 0x09) cps.push(0x20)
        i++
        continue
      }
      const cp = decodeAt(bytes.data, i, bytes.length, lenBox)
      if (cp >= 0xa0) cps.push(cp)
      i += lenBox[0]
    }
    const tail = this.text.slice(this.cursor)
    this.text.length = this.cursor
    for (let k = 0; k < cps.length; k++) this.text.push(unchecked(cps[k]))
    for (let k = 0; k < tail.length; k++) this.text.push(unchecked(tail[k]))
    this.cursor += cps.length
  }

  backspace(): void {
    if (this.cursor == 0) return
    this.text.splice(this.cursor - 1, 1)
    this.cursor--
  }

  deleteForward(): void {
    if (this.cursor >= this.text.length) return
    this.text.splice(this.cursor, 1)
  }

  left(): void {
    if (this.cursor > 0) this.cursor--
  }

  right(): void {
    if (this.cursor < this.text.length) this.cursor++
  }

  home(): void {
    this.cursor = 0
  }

  end(): void {
    this.cursor = this.text.length
  }

  wordLeft(): void {
    let i = this.cursor
    while (i > 0 && !isWordChar(this.text[i - 1])) i--
    while (i > 0 && isWordChar(this.text[i - 1])) i--
    this.cursor = i
  }

  wordRight(): void {
    let i = this.cursor
    const n = this.text.length
    while (i < n && !isWordChar(this.text[i])) i++
    while (i < n && isWordChar(this.text[i])) i++
    this.cursor = i
  }

  deleteWordBack(): void {
    const end = this.cursor
    this.wordLeft()
    this.text.splice(this.cursor, end - this.cursor)
  }

  killToStart(): void {
    this.text.splice(0, this.cursor)
    this.cursor = 0
  }

  killToEnd(): void {
    this.text.length = this.cursor
  }

  clear(): void {
    this.text = []
    this.cursor = 0
  }

  /** The draft as UTF-8. */
  toBuf(): ByteBuf {
    const out = new ByteBuf(this.text.length + 8)
    for (let i = 0; i < this.text.length; i++) out.codepoint(unchecked(this.text[i]))
    return out
  }

  setText(buf: ByteBuf): void {
    this.clear()
    this.insertBytes(buf)
  }

  /** Lays the draft out into rows under the prompt and records where the cursor sits. */
  layout(rows: Rows, cols: i32, placeholder: string): void {
    const avail = max(1, cols - PROMPT_WIDTH - 1)
    let line = new ByteBuf(64)
    line.str(BOLD)
    line.str(PROMPT)
    line.str(RESET)
    let width = 0
    let row = 0
    this.cursorRow = 0
    this.cursorCol = PROMPT_WIDTH
    if (this.text.length == 0 && placeholder.length > 0) {
      line.str(GRAY)
      line.str(placeholder)
      line.str(RESET)
      rows.add(line, PROMPT_WIDTH + placeholder.length)
      return
    }
    for (let i = 0; i <= this.text.length; i++) {
      if (i == this.cursor) {
        if (width >= avail) {
          rows.add(line, PROMPT_WIDTH + width)
          line = new ByteBuf(64)
          line.str('  ')
          width = 0
          row++
        }
        this.cursorRow = row
        this.cursorCol = PROMPT_WIDTH + width
      }
      if (i == this.text.length) break
      const cp = unchecked(this.text[i])
      const w = cp == 0x0a ? 0 : cellWidth(cp)
      if (cp == 0x0a || width + w > avail) {
        rows.add(line, PROMPT_WIDTH + width)
        line = new ByteBuf(64)
        line.str('  ')
        width = 0
        row++
        if (cp == 0x0a) continue
      }
      line.codepoint(cp)
      width += w
    }
    rows.add(line, PROMPT_WIDTH + width)
  }
}
