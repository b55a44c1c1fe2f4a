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
  // Rows the live region occupies now, and the row the cursor is on (relative to its top).
  liveHeight: i32 = 0
  cursorRow: i32 = 0
  cursorCol: i32 = 0
  /**
   * The next frame starts from a clean terminal (screen and scrollback): after a resize the
   * whole transcript is written again, laid out for the new width (Transcript.reflow).
   */
  clearFirst: bool = false

  /** Erases the live region, writes `commit` (whole rows ending in CRLF), redraws `live`. */
  present(out: ByteBuf, commit: ByteBuf, live: Rows, curRow: i32, curCol: i32): void {
    out.str(SYNC_START)
    if (this.clearFirst) {
      // home, erase the screen, then the scrollback: nothing xterm reflowed is left behind
      out.str('\x1b[H\x1b[2J\x1b[3J')
      this.clearFirst = false
    } else {
      out.byte(0x0d)
      if (this.cursorRow > 0) csi(out, this.cursorRow, 'A')
      out.str(ERASE_DOWN)
    }
    out.append(commit)
    live.writeTo(out, false)
    const up = live.count - 1 - curRow
    if (up > 0) csi(out, up, 'A')
    csi(out, curCol + 1, 'G')
    out.str(SYNC_END)
    this.liveHeight = live.count
    this.cursorRow = curRow
    this.cursorCol = curCol
  }

  /**
   * The terminal changed size. The engine then clears it and draws everything again for the
   * new size (Engine.resize), so nothing here follows xterm's own reflow of the rows drawn.
   */
  resize(cols: i32, rows: i32): void {
    this.cols = clampCols(cols)
    this.rows = min(max(rows, 2), 1000)
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

/** Terminal widths the engine lays out for: at least 8 columns, at most 1000. */
export function clampCols(cols: i32): i32 {
  return min(max(cols, 8), 1000)
}

