// Ctrl+O: the whole transcript in the alternate screen, scrollable with arrows, PgUp/PgDn and
// Home/End; q, Esc or Ctrl+O returns. The normal buffer (and the footer in it) is untouched
// while the view is open, so returning needs no redraw of the transcript.

import { ByteBuf } from '../util/byte-buf'
import * as K from './keys'
import { TranscriptLog } from './transcript-log'
import { DIM, ERASE_LINE, RESET, SYNC_END, SYNC_START } from './ansi'

const ALT_ON = '\x1b[?1049h'
const ALT_OFF = '\x1b[?1049l'

export class TranscriptView {
  open: bool = false
  private top: i32 = 0

  /** Opens the view at the end of the transcript; returns the bytes that switch screens. */
  show(out: ByteBuf, log: TranscriptLog, rows: i32): void {
    this.open = true
    this.top = max(0, log.count - (rows - 1))
    out.str(ALT_ON)
  }

  /** Opens the view with row `top` of the log at the top of the screen (a long /diff). */
  showAt(out: ByteBuf, log: TranscriptLog, rows: i32, top: i32): void {
    this.open = true
    this.top = min(max(0, top), max(0, log.count - (rows - 1)))
    out.str(ALT_ON)
  }

  hide(out: ByteBuf): void {
    this.open = false
    out.str(ALT_OFF)
  }

  /** Handles a key while open; returns false when the key closes the view. */
  key(k: K.Key, log: TranscriptLog, rows: i32): bool {
    const page = max(1, rows - 2)
    const last = max(0, log.count - (rows - 1))
    if (k.kind == K.K_ESCAPE || (k.kind == K.K_CHAR && k.cp == 0x71) || (k.kind == K.K_CTRL && k.cp == 0x6f)) return false
    if (k.kind == K.K_UP || (k.kind == K.K_CHAR && k.cp == 0x6b)) this.top--
    else if (k.kind == K.K_DOWN || (k.kind == K.K_CHAR && k.cp == 0x6a)) this.top++
    else if (k.kind == K.K_PAGE_UP) this.top -= page
    else if (k.kind == K.K_PAGE_DOWN || (k.kind == K.K_CHAR && k.cp == 0x20)) this.top += page
    else if (k.kind == K.K_HOME) this.top = 0
    else if (k.kind == K.K_END) this.top = last
    this.top = min(max(0, this.top), last)
    return true
  }

  /** Draws the visible part: rows - 1 transcript rows and a help line. */
  render(out: ByteBuf, log: TranscriptLog, rows: i32, cols: i32): void {
    out.str(SYNC_START)
    out.str('\x1b[H')
    const shown = rows - 1
    for (let i = 0; i < shown; i++) {
      const at = this.top + i
      if (at < log.count) log.rowInto(at, out)
      out.str(RESET + ERASE_LINE + '\r\n')
    }
    const end = min(log.count, this.top + shown)
    let help = ' Transcript ' + end.toString() + '/' + log.count.toString() + ' · ↑↓ PgUp PgDn Home End · q or Ctrl+O to return'
    if (help.length > cols - 1) help = help.substring(0, max(1, cols - 1))
    out.str(DIM + help + RESET + ERASE_LINE)
    out.str(SYNC_END)
  }
}
