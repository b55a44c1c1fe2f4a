// GFM pipe tables: the rows are kept raw while the table streams and drawn boxed once it ends,
// with column widths from the cells' display widths, shrunk (cells wrap inside their column) so
// the table never overflows the terminal. A table too wide even at the narrowest columns is drawn
// as one record per row instead ("• Header: value").

import { ByteBuf, decodeAt, byteAt } from '../util/byte-buf'
import { Rows, wrapInto, textWidth } from './layout'
import { cellWidth } from './width'
import { InlineRenderer } from './markdown-inline'
import { F_BOLD } from './markdown-style'

const BORDER = '\x1b[90m'
const RESET = '\x1b[0m'
const MIN_COL: i32 = 2 // holds any one character, wide ones included

export const ALIGN_LEFT: i32 = 0
export const ALIGN_CENTER: i32 = 1
export const ALIGN_RIGHT: i32 = 2

/** Whether `src[s, e)` has a `|` that is not backslash-escaped. */
export function hasPipe(src: Uint8Array, s: i32, e: i32): bool {
  for (let i = s; i < e; i++) {
    const c = byteAt(src, i)
    if (c == 0x5c) i++
    else if (c == 0x7c) return true
  }
  return false
}

/**
 * Splits a table row into trimmed cells (an optional leading and trailing `|` dropped). A `|` is
 * not a separator when escaped or inside a code span.
 */
export function splitCells(src: Uint8Array, s: i32, e: i32, starts: Array<i32>, ends: Array<i32>): void {
  starts.length = 0
  ends.length = 0
  let i = s
  let end = e
  while (i < end && byteAt(src, i) == 0x20) i++
  while (end > i && byteAt(src, end - 1) == 0x20) end--
  if (i < end && byteAt(src, i) == 0x7c) i++
  if (end > i && byteAt(src, end - 1) == 0x7c && !(end - 2 >= i && byteAt(src, end - 2) == 0x5c)) end--
  let cellStart = i
  let noCloserFrom = i32.MAX_VALUE // no closing run of the last failed length at or after this
  let noCloserLen = -1
  while (i < end) {
    const c = byteAt(src, i)
    if (c == 0x5c) {
      i += 2
      continue
    }
    if (c == 0x60) {
      let n = 1
      while (i + n < end && byteAt(src, i + n) == 0x60) n++
      let close = -1
      if (!(n == noCloserLen && i + n >= noCloserFrom)) {
        let j = i + n
        while (j < end) {
          if (byteAt(src, j) == 0x60) {
            let m = 1
            while (j + m < end && byteAt(src, j + m) == 0x60) m++
            if (m == n) {
              close = j
              break
            }
            j += m
          } else j++
        }
        if (close < 0) {
          noCloserLen = n
          noCloserFrom = i + n
        }
      }
      i = close >= 0 ? close + n : i + n
      continue
    }
    if (c == 0x7c) {
      pushTrimmed(src, cellStart, i, starts, ends)
      cellStart = i + 1
    }
    i++
  }
  pushTrimmed(src, cellStart, min(i, end), starts, ends)
}

function pushTrimmed(src: Uint8Array, s: i32, e: i32, starts: Array<i32>, ends: Array<i32>): void {
  while (s < e && byteAt(src, s) == 0x20) s++
  while (e > s && byteAt(src, e - 1) == 0x20) e--
  starts.push(s)
  ends.push(e)
}

/**
 * If `src[s, e)` is a delimiter row (`| --- | :-: | --: |`, with at least one `|`), its number of
 * columns, their alignments written to `aligns`; else -1.
 */
export function delimiterCells(src: Uint8Array, s: i32, e: i32, aligns: Array<i32>): i32 {
  if (!hasPipe(src, s, e)) return -1
  const starts = splitStarts
  const ends = splitEnds
  splitCells(src, s, e, starts, ends)
  aligns.length = 0
  for (let k = 0; k < starts.length; k++) {
    let a = unchecked(starts[k])
    let b = unchecked(ends[k])
    if (b <= a) return -1
    const left = byteAt(src, a) == 0x3a
    const right = b - 1 > a && byteAt(src, b - 1) == 0x3a
    if (left) a++
    if (right) b--
    if (b <= a) return -1
    for (let i = a; i < b; i++) if (byteAt(src, i) != 0x2d) return -1
    aligns.push(left && right ? ALIGN_CENTER : right ? ALIGN_RIGHT : ALIGN_LEFT)
  }
  return starts.length
}

/** The number of cells in a row. */
export function cellCount(src: Uint8Array, s: i32, e: i32): i32 {
  const starts = splitStarts
  const ends = splitEnds
  splitCells(src, s, e, starts, ends)
  return starts.length
}

/** A streaming table: its raw lines (header, delimiter, body rows). */
export class Table {
  buf: ByteBuf = new ByteBuf(1024)
  starts: Array<i32> = []
  ends: Array<i32> = []
  aligns: Array<i32> = []
  ncols: i32 = 0

  begin(header: Uint8Array, hs: i32, he: i32, delim: Uint8Array, ds: i32, de: i32): void {
    this.buf.reset()
    this.starts.length = 0
    this.ends.length = 0
    this.ncols = delimiterCells(delim, ds, de, this.aligns)
    this.addRow(header, hs, he)
    this.addRow(delim, ds, de)
  }

  addRow(src: Uint8Array, s: i32, e: i32): void {
    this.starts.push(this.buf.length)
    this.buf.slice(src, s, e)
    this.ends.push(this.buf.length)
  }

  get bodyCount(): i32 {
    return this.starts.length - 2
  }

  /** Keeps the header and delimiter (a long table goes on in a new box). */
  clearBody(): void {
    const keep = this.ends[1]
    this.buf.length = keep
    this.starts.length = 2
    this.ends.length = 2
  }
}

const lenBox = new StaticArray<i32>(1)

/** One raw line cut to `cols` cells (with … when cut); reads at most what fits. Returns the width. */
export function rawFit(src: Uint8Array, s: i32, e: i32, cols: i32, out: ByteBuf): i32 {
  let i = s
  let width = 0
  let cutAt = -1
  let cutWidth = 0
  while (i < e) {
    const cp = decodeAt(src, i, e, lenBox)
    const w = cellWidth(cp)
    if (cutAt < 0 && width + w > cols - 1) {
      cutAt = i
      cutWidth = width
    }
    if (width + w > cols) {
      out.slice(src, s, cutAt)
      out.str('…')
      return cutWidth + 1
    }
    width += w
    i += lenBox[0]
  }
  out.slice(src, s, e)
  return width
}

/** Column widths that fit `budget` cells: natural widths, the widest shrunk first. False if even MIN_COL is too wide. */
function fitWidths(nat: Array<i32>, budget: i32, out: Array<i32>): bool {
  const n = nat.length
  out.length = 0
  let total = 0
  let maxNat = 0
  let minTotal = 0
  for (let c = 0; c < n; c++) {
    total += nat[c]
    maxNat = max(maxNat, nat[c])
    minTotal += min(nat[c], MIN_COL)
  }
  if (total <= budget) {
    for (let c = 0; c < n; c++) out.push(nat[c])
    return true
  }
  if (minTotal > budget) return false
  // the largest cap C with sum(min(nat, C)) <= budget
  let lo = MIN_COL
  let hi = maxNat
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    let sum = 0
    for (let c = 0; c < n; c++) sum += min(nat[c], mid)
    if (sum <= budget) lo = mid
    else hi = mid - 1
  }
  let sum = 0
  for (let c = 0; c < n; c++) {
    const w = min(nat[c], lo)
    out.push(w)
    sum += w
  }
  // hand the cells left over (fewer than the columns cut) to the cut columns with the most text
  while (sum < budget) {
    let best = -1
    for (let c = 0; c < n; c++) {
      if (nat[c] > out[c] && out[c] == lo && (best < 0 || nat[c] > nat[best])) best = c
    }
    if (best < 0) break
    out[best] = out[best] + 1
    sum++
  }
  return true
}

function border(out: ByteBuf, left: string, mid: string, right: string, widths: Array<i32>): void {
  out.str(BORDER)
  out.str(left)
  for (let c = 0; c < widths.length; c++) {
    if (c > 0) out.str(mid)
    out.repeat('─', widths[c] + 2)
  }
  out.str(right)
  out.str(RESET)
}

// Scratch for drawing a table, reused from table to table (a reply may draw hundreds): the
// rendered cells, their split positions, and the natural and fitted column widths.
const tableCells = new Array<ByteBuf>()
const cellPool = new Array<ByteBuf>()
const splitStarts = new Array<i32>()
const splitEnds = new Array<i32>()
const natural = new Array<i32>()
const columnWidths = new Array<i32>()

/** The k-th cell buffer of this table, empty. */
function cellBuf(k: i32): ByteBuf {
  if (k == cellPool.length) cellPool.push(new ByteBuf(64))
  const cell = unchecked(cellPool[k])
  cell.reset()
  return cell
}

/**
 * Draws the table into `rows`, each row starting with a two-cell margin (`firstMargin` on the
 * first row), within `cols` cells.
 */
export function renderTable(t: Table, cols: i32, md: InlineRenderer, rows: Rows, firstMargin: string): void {
  const n = max(1, t.ncols)
  const cells = tableCells
  cells.length = 0
  const cs = splitStarts
  const ce = splitEnds
  const nat = natural
  nat.length = n
  for (let c = 0; c < n; c++) nat[c] = 1
  let lines = 0
  for (let r = 0; r < t.starts.length; r++) {
    if (r == 1) continue // the delimiter row
    splitCells(t.buf.data, t.starts[r], t.ends[r], cs, ce)
    for (let c = 0; c < n; c++) {
      const cell = cellBuf(cells.length)
      if (c < cs.length) md.render(t.buf.data, cs[c], ce[c], cell, r == 0 ? F_BOLD : 0, 0)
      const w = textWidth(cell.data, 0, cell.length)
      cells.push(cell)
      if (w > nat[c]) nat[c] = w
    }
    lines++
  }
  const colW = columnWidths
  if (!fitWidths(nat, cols - 2 - (3 * n + 1), colW)) {
    records(cells, n, lines, cols, rows, firstMargin)
    return
  }
  let tableWidth = 3 * n + 1
  for (let c = 0; c < n; c++) tableWidth += colW[c]
  let margin = firstMargin
  const top = rows.fresh(tableWidth * 3 + 32)
  top.str(margin)
  border(top, '┌', '┬', '┐', colW)
  rows.add(top, 2 + tableWidth)
  margin = '  '
  for (let r = 0; r < lines; r++) {
    if (r == 1) {
      const sep = rows.fresh(tableWidth * 3 + 32)
      sep.str(margin)
      border(sep, '├', '┼', '┤', colW)
      rows.add(sep, 2 + tableWidth)
    }
    tableRow(cells, r * n, n, colW, t.aligns, rows, tableWidth)
  }
  const bottom = rows.fresh(tableWidth * 3 + 32)
  bottom.str(margin)
  border(bottom, '└', '┴', '┘', colW)
  rows.add(bottom, 2 + tableWidth)
}

// Built once: AssemblyScript does not fold a concatenation of constants, so written inline these
// allocated a string per row and per cell.
const ROW_START = '  ' + BORDER + '│' + RESET
const CELL_END = ' ' + BORDER + '│' + RESET

/** One Rows per column, reused from row to row (their rows are copied into the table's line). */
const cellRows = new Array<Rows>()

function tableRow(cells: Array<ByteBuf>, at: i32, n: i32, colW: Array<i32>, aligns: Array<i32>, rows: Rows, tableWidth: i32): void {
  while (cellRows.length < n) cellRows.push(new Rows(true))
  const wrapped = cellRows
  let height = 1
  for (let c = 0; c < n; c++) {
    const cell = cells[at + c]
    const r = wrapped[c]
    r.clear()
    if (cell.length > 0) wrapInto(r, cell.data, 0, cell.length, colW[c], '', 0, '', 0, '')
    height = max(height, r.count)
  }
  for (let k = 0; k < height; k++) {
    const line = rows.fresh(tableWidth * 2 + 32)
    line.str(ROW_START)
    for (let c = 0; c < n; c++) {
      const r = wrapped[c]
      let w = 0
      if (k < r.count) w = r.widths[k]
      const pad = max(0, colW[c] - w)
      const align = c < aligns.length ? aligns[c] : ALIGN_LEFT
      const left = align == ALIGN_RIGHT ? pad : align == ALIGN_CENTER ? pad >> 1 : 0
      line.byte(0x20)
      for (let p = 0; p < left; p++) line.byte(0x20)
      if (k < r.count) line.append(r.lines[k])
      for (let p = 0; p < pad - left; p++) line.byte(0x20)
      line.str(CELL_END)
    }
    rows.add(line, 2 + tableWidth)
  }
}

/** A table too wide for the terminal: one record per row, `Header: value` on its own row. */
function records(cells: Array<ByteBuf>, n: i32, lines: i32, cols: i32, rows: Rows, firstMargin: string): void {
  let margin = firstMargin
  if (lines <= 1) {
    const text = new ByteBuf(256)
    for (let c = 0; c < n; c++) {
      if (c > 0) text.str(' · ')
      text.append(cells[c])
    }
    wrapInto(rows, text.data, 0, text.length, cols, margin + '• ', 4, '    ', 4, '')
    return
  }
  for (let r = 1; r < lines; r++) {
    for (let c = 0; c < n; c++) {
      const text = new ByteBuf(cells[c].length + cells[r * n + c].length + 8)
      text.append(cells[c])
      text.str(': ')
      text.append(cells[r * n + c])
      wrapInto(rows, text.data, 0, text.length, cols, c == 0 ? margin + '• ' : '    ', 4, '      ', 6, '')
      margin = '  '
    }
  }
}
