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
  // How many terminal rows each drawn row occupies now (more than 1 after xterm reflowed it).
  rowHeights: Array<i32> = []

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
    // copied into arrays of its own: the caller reuses its rows for the next frame
    const n = live.count
    const widths = this.rowWidths
    const heights = this.rowHeights
    widths.length = n
    heights.length = n
    for (let i = 0; i < n; i++) {
      unchecked((widths[i] = live.widths[i]))
      unchecked((heights[i] = 1))
    }
  }

  /**
   * The terminal changed size. xterm reflows the rows we drew (narrowing wraps a long row onto
   * several, widening joins them back) and then moves the cursor by the total number of rows the
   * reflow added or removed — including rows below the cursor (measured against xterm.js 6). So
   * the distance from the cursor up to the live region's top changes by that same total.
   */
  resize(cols: i32, rows: i32): void {
    const next = clampCols(cols)
    if (next != this.cols) {
      let delta = 0
      for (let i = 0; i < this.rowWidths.length; i++) {
        const was = i < this.rowHeights.length ? unchecked(this.rowHeights[i]) : 1
        const now = heightAt(unchecked(this.rowWidths[i]), next)
        delta += now - was
        if (i < this.rowHeights.length) unchecked((this.rowHeights[i] = now))
      }
      this.cursorRow = max(0, this.cursorRow + delta)
    }
    this.cols = next
    this.rows = min(max(rows, 2), 1000)
  }

  /** Forgets the live region (after the screen was cleared). */
  forget(): void {
    this.liveHeight = 0
    this.cursorRow = 0
    this.rowWidths = []
    this.rowHeights = []
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

/** Rows a row of `width` cells takes in a terminal `cols` wide (a full row takes one). */
function heightAt(width: i32, cols: i32): i32 {
  return width <= cols ? 1 : (width + cols - 1) / cols
}
