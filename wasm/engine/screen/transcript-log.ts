// The whole transcript as rows, kept for the Ctrl+O view: what scrolled by, plus every command's
// complete output (the transcript itself shows only the first lines). Bounded, oldest first out.
//
// The rows' bytes are copied into one buffer, their ends kept in an Int32Array: a megabyte reply
// commits some twenty thousand rows, and as objects of their own (a ByteBuf and its array each)
// they were allocations, and work for the collector on every one of its passes while they lived.

import { ByteBuf } from '../util/byte-buf'
import { Rows } from './layout'

const MAX_ROWS = 100000

export class TranscriptLog {
  private bytes: ByteBuf = new ByteBuf(64 * 1024)
  /** The end of row i in `bytes`; row i starts where row i - 1 ends (row 0 at 0). */
  private ends: Int32Array = new Int32Array(1024)
  private n: i32 = 0
  private dropped: i32 = 0

  add(row: ByteBuf): void {
    this.push(row.dataStart, row.length)
  }

  addRows(rows: Rows): void {
    for (let i = 0; i < rows.count; i++) {
      const row = unchecked(rows.lines[i])
      this.push(row.dataStart, row.length)
    }
  }

  /** A row of no bytes (the blank row between blocks). */
  addBlank(): void {
    this.push(0, 0)
  }

  private push(ptr: usize, len: i32): void {
    if (this.n == this.ends.length) {
      const next = new Int32Array(this.n << 1)
      memory.copy(next.dataStart, this.ends.dataStart, <usize>this.n << 2)
      this.ends = next
    }
    this.bytes.rawCopy(ptr, len)
    unchecked((this.ends[this.n] = this.bytes.length))
    this.n++
    // Trim in chunks so a long session does not shift the rows on every one.
    if (this.n > MAX_ROWS + MAX_ROWS / 10) this.drop(this.n - MAX_ROWS)
  }

  /** Forgets the oldest `extra` rows. */
  private drop(extra: i32): void {
    const cut = unchecked(this.ends[extra - 1])
    const keep = this.n - extra
    const data = this.bytes.dataStart
    memory.copy(data, data + <usize>cut, <usize>(this.bytes.length - cut))
    this.bytes.length -= cut
    for (let i = 0; i < keep; i++) unchecked((this.ends[i] = this.ends[i + extra] - cut))
    this.n = keep
    this.dropped += extra
  }

  /** Appends row `at` to `out`. */
  rowInto(at: i32, out: ByteBuf): void {
    const start = at > 0 ? this.ends[at - 1] : 0
    out.rawCopy(this.bytes.dataStart + <usize>start, this.ends[at] - start)
  }

  get count(): i32 {
    return this.n
  }

  /** Rows that no longer fit and were dropped from the start. */
  get droppedRows(): i32 {
    return this.dropped
  }

  clear(): void {
    this.bytes = new ByteBuf(64 * 1024)
    this.ends = new Int32Array(1024)
    this.n = 0
    this.dropped = 0
  }
}
