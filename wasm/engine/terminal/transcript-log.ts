// The whole transcript as rows, kept for the Ctrl+O view: what scrolled by, plus every command's
// complete output (the transcript itself shows only the first lines). Bounded, oldest first out.

import { ByteBuf } from '../util/byte-buf'
import { Rows } from './layout'

const MAX_ROWS = 100000

export class TranscriptLog {
  rows: Array<ByteBuf> = []
  private dropped: i32 = 0

  add(row: ByteBuf): void {
    this.rows.push(row)
    // Trim in chunks so a long session does not shift the array on every row.
    if (this.rows.length > MAX_ROWS + MAX_ROWS / 10) {
      const extra = this.rows.length - MAX_ROWS
      this.rows = this.rows.slice(extra)
      this.dropped += extra
    }
  }

  addRows(rows: Rows): void {
    for (let i = 0; i < rows.count; i++) this.add(rows.lines[i])
  }

  get count(): i32 {
    return this.rows.length
  }

  /** Rows that no longer fit and were dropped from the start. */
  get droppedRows(): i32 {
    return this.dropped
  }

  clear(): void {
    this.rows = []
    this.dropped = 0
  }
}
