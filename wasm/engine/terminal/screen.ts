// The screen is a Unix-shell-like layout: the transcript scrolls in the normal buffer and the
// live region (streaming line, running tool, spinner, composer, status) is redrawn in place
// under it. To redraw, the cursor returns to the live region's first row, erases down, writes
// newly committed transcript rows (which scroll up and stay), then writes the live region again.

import { ByteBuf } from '../util/byte-buf'
import { Rows } from './layout'
import { ERASE_DOWN, SYNC_END, SYNC_START } from './ansi'

export class Screen {
  cols: i32 = 80
  rows: i32 = 24
  // Rows the live region occupies now, the row the cursor is on (relative to its top), and
  // each row's width (to follow xterm's reflow when the terminal narrows).
  liveHeight: i32 = 0
  cursorRow: i32 = 0
  cursorCol: i32 = 0
  rowWidths: Array<i32> = []

  /** Erases the live region, writes `commit` (whole rows ending in CRLF), redraws `live`. */
  present(out: ByteBuf, commit: ByteBuf, live: Rows, curRow: i32, curCol: i32): void {
    out.str(SYNC_START)
    out.byte(0x0d)
    if (this.cursorRow > 0) csi(out, this.cursorRow, 'A')
    out.str(ERASE_DOWN)
    out.append(commit)
    live.writeTo(out, false)
    const up = live.count - 1 - curRow
    if (up > 0) csi(out, up, 'A')
    csi(out, curCol + 1, 'G')
    out.str(SYNC_END)
    this.liveHeight = live.count
    this.cursorRow = curRow
    this.cursorCol = curCol
    this.rowWidths = live.widths
  }

  /**
   * The terminal changed size. When it narrows, xterm reflows the rows we drew, so the cursor's
   * row within the live region moves down by the extra rows the reflow created above it.
   */
  resize(cols: i32, rows: i32): void {
    if (cols < this.cols && this.cols > 0) {
      let row = 0
      for (let i = 0; i < this.cursorRow && i < this.rowWidths.length; i++) {
        const w = unchecked(this.rowWidths[i])
        row += w <= cols ? 1 : (w + cols - 1) / cols
      }
      row += this.cursorCol / max(1, cols)
      this.cursorRow = row
    }
    this.cols = max(cols, 8)
    this.rows = max(rows, 2)
  }

  /** Forgets the live region (after the screen was cleared). */
  forget(): void {
    this.liveHeight = 0
    this.cursorRow = 0
  }
}

export function csi(out: ByteBuf, n: i32, final: string): void {
  out.str('\x1b[')
  out.int(n)
  out.str(final)
}
