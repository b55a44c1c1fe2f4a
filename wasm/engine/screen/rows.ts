// Rows of styled text as the layout produces them and the screen draws them. A list that is
// filled again and again can recycle its row buffers (see `fresh`).

import { ByteBuf } from '../util/byte-buf'

/** Rows of styled text, each with its display width. */
export class Rows {
  lines: Array<ByteBuf> = []
  widths: Array<i32> = []
  // A list that is cleared and filled again (one per streamed line, per table column, per live
  // preview) hands out the row buffers of its last fill again (see `fresh`): a megabyte reply
  // lays out tens of thousands of rows, and a buffer per row was most of its allocations.
  private pool: Array<ByteBuf> | null = null
  private used: i32 = 0

  /** `recycle`: the buffers from `fresh` are reused after `clear`, so nothing may keep them. */
  constructor(recycle: bool = false) {
    if (recycle) this.pool = new Array<ByteBuf>()
  }

  /**
   * An empty buffer for a row about to be added. On a recycling list it is one of the buffers
   * handed out before the last `clear`, reset: valid only until the next `clear`.
   */
  fresh(capacity: i32): ByteBuf {
    const pool = this.pool
    if (pool == null) return new ByteBuf(capacity)
    // a buffer of no capacity never grows (ByteBuf doubles it), and this one will be reused
    capacity = max(capacity, 32)
    if (this.used < pool.length) {
      const buf = unchecked(pool[this.used++])
      buf.reset()
      return buf
    }
    const buf = new ByteBuf(capacity)
    pool.push(buf)
    this.used++
    return buf
  }

  add(line: ByteBuf, width: i32): void {
    this.lines.push(line)
    this.widths.push(width)
  }

  get count(): i32 {
    return this.lines.length
  }

  /** Empties the list for reuse; a recycling list's buffers from `fresh` are reused from now on. */
  clear(): void {
    this.lines.length = 0
    this.widths.length = 0
    this.used = 0
  }

  addAll(other: Rows): void {
    for (let i = 0; i < other.lines.length; i++) this.add(unchecked(other.lines[i]), unchecked(other.widths[i]))
  }

  /** Writes the rows joined by CRLF, each followed by CRLF when `trailing` is set. */
  writeTo(out: ByteBuf, trailing: bool): void {
    for (let i = 0; i < this.lines.length; i++) {
      if (i > 0) crlf(out)
      out.append(unchecked(this.lines[i]))
    }
    if (trailing && this.lines.length > 0) crlf(out)
  }
}

@inline function crlf(out: ByteBuf): void {
  out.byte(0x0d)
  out.byte(0x0a)
}
