// Word-wrapping text into terminal rows. The engine wraps everything itself (rows end with an
// explicit CRLF) so that it always knows how many rows the live region occupies.

import { ByteBuf, decodeAt, byteAt } from '../util/byte-buf'
import { cellWidth } from './width'
import { RESET } from './ansi'
import { Rows } from './rows'

export { Rows } from './rows'

const lenBox = new StaticArray<i32>(1)
const firstScratch = new ByteBuf(64)
const restScratch = new ByteBuf(64)

/**
 * Wraps sanitized UTF-8 `text[start, end)` (may contain '\n') into `rows`. The first row starts
 * with `firstPrefix`, later rows with `restPrefix` (both already styled; widths given). `style`
 * is applied to the text of every row. Breaks at the last space that fits, else mid-word.
 */
export function wrapInto(
  rows: Rows,
  text: Uint8Array,
  start: i32,
  end: i32,
  cols: i32,
  firstPrefix: string,
  firstWidth: i32,
  restPrefix: string,
  restWidth: i32,
  style: string,
): void {
  firstScratch.reset()
  firstScratch.str(firstPrefix)
  restScratch.reset()
  restScratch.str(restPrefix)
  wrapBytes(rows, text, start, end, cols, firstScratch, firstWidth, restScratch, restWidth, style)
}

/**
 * `wrapInto` with the prefixes as UTF-8: the Markdown renderer builds them in buffers of its
 * own, where as strings they were a concatenation or two per line (per delta, for the preview).
 */
export function wrapBytes(
  rows: Rows,
  text: Uint8Array,
  start: i32,
  end: i32,
  cols: i32,
  firstPrefix: ByteBuf,
  firstWidth: i32,
  restPrefix: ByteBuf,
  restWidth: i32,
  style: string,
): void {
  let lineStart = start
  let first = true
  for (let i = start; i <= end; i++) {
    if (i == end || byteAt(text, i) == 0x0a) {
      wrapLine(rows, text, lineStart, i, cols, first ? firstPrefix : restPrefix, first ? firstWidth : restWidth, restPrefix, restWidth, style)
      first = false
      lineStart = i + 1
    }
  }
}

function wrapLine(
  rows: Rows,
  text: Uint8Array,
  start: i32,
  end: i32,
  cols: i32,
  prefix: ByteBuf,
  prefixWidth: i32,
  restPrefix: ByteBuf,
  restWidth: i32,
  style: string,
): void {
  let rowStart = start
  let pw = prefixWidth
  let pre = prefix
  // The engine's own SGR sequences may be embedded in the text (sanitized text has no ESC of its
  // own): they take no cells, are never split, and the one in force is carried to the next row.
  // So are its OSC 8 hyperlinks: a link open at a row break is closed at the row's end and
  // reopened on the next row, so no prefix or later row is ever part of the link.
  let carryStart = -1
  let carryEnd = -1
  let carryLinkStart = -1
  let carryLinkEnd = -1
  while (true) {
    const avail = max(1, cols - pw)
    let i = rowStart
    let width = 0
    let lastSpace = -1
    let widthAtSpace = 0
    let sgrStart = carryStart
    let sgrEnd = carryEnd
    let sgrAtSpaceStart = carryStart
    let sgrAtSpaceEnd = carryEnd
    let linkStart = carryLinkStart
    let linkEnd = carryLinkEnd
    let linkAtSpaceStart = carryLinkStart
    let linkAtSpaceEnd = carryLinkEnd
    while (i < end) {
      if (byteAt(text, i) == 0x1b) {
        const seqEnd = sgrEnd_(text, i, end)
        if (i + 1 < end && byteAt(text, i + 1) == 0x5d) {
          // OSC 8 ; params ; URI — an empty URI closes the link
          const open = isLinkOpen(text, i, seqEnd)
          linkStart = open ? i : -1
          linkEnd = open ? seqEnd : -1
          i = seqEnd
          continue
        }
        const isReset = seqEnd - i == 4 && byteAt(text, i + 2) == 0x30
        sgrStart = isReset ? -1 : i
        sgrEnd = isReset ? -1 : seqEnd
        i = seqEnd
        continue
      }
      // ASCII (most text) is one byte and one cell: no decoding, no width lookup.
      const b = byteAt(text, i)
      const ascii = b >= 0x20 && b < 0x7f
      const cp = ascii ? b : decodeAt(text, i, end, lenBox)
      const w = ascii ? 1 : cellWidth(cp)
      if (width + w > avail) break
      if (cp == 0x20) {
        lastSpace = i
        widthAtSpace = width
        sgrAtSpaceStart = sgrStart
        sgrAtSpaceEnd = sgrEnd
        linkAtSpaceStart = linkStart
        linkAtSpaceEnd = linkEnd
      }
      width += w
      i += ascii ? 1 : unchecked(lenBox[0])
    }
    // A row that is exactly full before a space breaks at that space.
    if (i < end && byteAt(text, i) == 0x20) {
      lastSpace = i
      widthAtSpace = width
      sgrAtSpaceStart = sgrStart
      sgrAtSpaceEnd = sgrEnd
      linkAtSpaceStart = linkStart
      linkAtSpaceEnd = linkEnd
    }
    let cut = i
    let next = i
    let rowWidth = width
    if (i < end && lastSpace > rowStart) {
      cut = lastSpace
      next = lastSpace + 1
      rowWidth = widthAtSpace
      sgrStart = sgrAtSpaceStart
      sgrEnd = sgrAtSpaceEnd
      linkStart = linkAtSpaceStart
      linkEnd = linkAtSpaceEnd
    }
    if (i == rowStart && i < end) {
      // a single character wider than the row: take it anyway so the loop always advances
      decodeAt(text, i, end, lenBox)
      cut = i + lenBox[0]
      next = cut
      rowWidth = avail
    }
    const line = rows.fresh(cut - rowStart + 24)
    line.append(pre)
    if (style.length > 0) line.str(style)
    if (carryStart >= 0) line.slice(text, carryStart, carryEnd)
    if (carryLinkStart >= 0) line.slice(text, carryLinkStart, carryLinkEnd)
    line.slice(text, rowStart, cut)
    if (linkStart >= 0) line.str(LINK_CLOSE)
    if (style.length > 0 || sgrStart >= 0 || carryStart >= 0 || hasEsc(text, rowStart, cut)) line.str(RESET)
    rows.add(line, pw + rowWidth)
    if (next >= end) return
    rowStart = next
    carryStart = sgrStart
    carryEnd = sgrEnd
    carryLinkStart = linkStart
    carryLinkEnd = linkEnd
    pre = restPrefix
    pw = restWidth
  }
}

const LINK_CLOSE = '\x1b]8;;\x1b\\'

/**
 * The end of the escape sequence starting at `i`: ESC [ params final, or the engine's own
 * OSC 8 link, ESC ] … ended by ESC \ or BEL.
 */
function sgrEnd_(text: Uint8Array, i: i32, end: i32): i32 {
  let j = i + 1
  if (j < end && byteAt(text, j) == 0x5d) {
    j++
    while (j < end) {
      const c = byteAt(text, j)
      j++
      if (c == 0x07) break
      if (c == 0x1b) {
        if (j < end && byteAt(text, j) == 0x5c) j++
        break
      }
    }
    return j
  }
  if (j < end && byteAt(text, j) == 0x5b) j++
  while (j < end) {
    const c = byteAt(text, j)
    j++
    if (c >= 0x40 && c <= 0x7e) break
  }
  return j
}

/** Whether the OSC `text[i, seqEnd)` opens a link (`ESC ] 8 ; params ; URI` with a URI). */
function isLinkOpen(text: Uint8Array, i: i32, seqEnd: i32): bool {
  let j = i + 2
  let semis = 0
  while (j < seqEnd && semis < 2) {
    if (byteAt(text, j) == 0x3b) semis++
    j++
  }
  // the URI runs to the terminator (ESC \ or BEL); it is empty when the terminator comes next
  return semis == 2 && j < seqEnd && byteAt(text, j) != 0x1b && byteAt(text, j) != 0x07
}

function hasEsc(text: Uint8Array, start: i32, end: i32): bool {
  for (let i = start; i < end; i++) if (byteAt(text, i) == 0x1b) return true
  return false
}

/** Display width of UTF-8 `text[start, end)`. */
export function textWidth(text: Uint8Array, start: i32, end: i32): i32 {
  let w = 0
  let i = start
  while (i < end) {
    const b = byteAt(text, i)
    if (b == 0x1b) {
      i = sgrEnd_(text, i, end)
      continue
    }
    // printable ASCII: one byte, one cell
    if (b >= 0x20 && b < 0x7f) {
      w++
      i++
      continue
    }
    w += cellWidth(decodeAt(text, i, end, lenBox))
    i += lenBox[0]
  }
  return w
}

/** A single row of `text` cut to fit `cols` cells (first line only), with an ellipsis when cut. */
export function fitRow(text: Uint8Array, start: i32, end: i32, cols: i32, out: ByteBuf): i32 {
  let lineEnd = start
  while (lineEnd < end && byteAt(text, lineEnd) != 0x0a) lineEnd++
  const whole = textWidth(text, start, lineEnd)
  if (lineEnd == end && whole <= cols) {
    out.slice(text, start, end)
    return whole
  }
  let i = start
  let width = 0
  let styled = false
  while (i < lineEnd) {
    if (byteAt(text, i) == 0x1b) {
      // an SGR of the text (a command's colours, sgr-filter.ts): no cells, copied whole
      const seqEnd = sgrEnd_(text, i, lineEnd)
      out.slice(text, i, seqEnd)
      styled = true
      i = seqEnd
      continue
    }
    const w = cellWidth(decodeAt(text, i, lineEnd, lenBox))
    if (width + w > cols - 1) break
    out.slice(text, i, i + lenBox[0])
    width += w
    i += lenBox[0]
  }
  // the colour in force is not cut off with the text: the row ends reset
  if (styled) out.str(RESET)
  out.str('…')
  return width + 1
}
