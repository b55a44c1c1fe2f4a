// Where the composer's cursor goes: word and line boundaries in the draft (an array of code
// points), and the vertical moves over the rows the draft is laid out in.

import { cellWidth } from './width'

export const PROMPT_WIDTH = 2

/** Cells a composer row holds for text in a terminal `cols` wide (one column is kept free). */
export function rowCells(cols: i32): i32 {
  return max(1, cols - PROMPT_WIDTH - 1)
}

function isSpace(cp: i32): bool {
  return cp == 0x20 || cp == 0x0a || cp == 0x09
}

/** Alt+B/F/D and Alt/Ctrl+Backspace words: letters, digits and '_' (any non-ASCII non-space too). */
function isWordChar(cp: i32): bool {
  if (cp >= 0x80) return cp != 0xa0 && cp != 0x3000
  return (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || cp == 0x5f
}

/** The start of the word before `i` (skips non-word characters first). */
export function wordStartBefore(text: Array<i32>, i: i32): i32 {
  while (i > 0 && !isWordChar(unchecked(text[i - 1]))) i--
  while (i > 0 && isWordChar(unchecked(text[i - 1]))) i--
  return i
}

/** The end of the word after `i` (skips non-word characters first). */
export function wordEndAfter(text: Array<i32>, i: i32): i32 {
  const n = text.length
  while (i < n && !isWordChar(unchecked(text[i]))) i++
  while (i < n && isWordChar(unchecked(text[i]))) i++
  return i
}

/** Ctrl+W: back over spaces, then over everything up to the previous space (as in a shell). */
export function spaceWordStartBefore(text: Array<i32>, i: i32): i32 {
  while (i > 0 && isSpace(unchecked(text[i - 1]))) i--
  while (i > 0 && !isSpace(unchecked(text[i - 1]))) i--
  return i
}

/** A line break follows index `i` (the cursor there stays at the end of a full row). */
export function endsLine(text: Array<i32>, i: i32): bool {
  return i < text.length && unchecked(text[i]) == 0x0a
}

export function lineStart(text: Array<i32>, i: i32): i32 {
  while (i > 0 && unchecked(text[i - 1]) != 0x0a) i--
  return i
}

export function lineEnd(text: Array<i32>, i: i32): i32 {
  const n = text.length
  while (i < n && unchecked(text[i]) != 0x0a) i++
  return i
}

/**
 * The index one laid-out row up (`dir` -1) or down (+1) from `cursor`, at the cell nearest `goal`
 * without passing it (`goal` < 0: the cursor's own column). Returns -1 when the cursor is on the
 * first (or last) row. `out[0]` gets the cursor's column, to remember as the goal. Rows follow
 * composer-layout's rules exactly, including where the cursor at the end of a full row is drawn.
 */
export function verticalTarget(text: Array<i32>, cursor: i32, cells: i32, dir: i32, goal: i32, out: StaticArray<i32>): i32 {
  const n = text.length
  // Pass 1: the cursor's row and column, and the last row.
  let row = 0
  let width = 0
  let curRow = 0
  let curCol = 0
  for (let i = 0; i <= n; i++) {
    if (i == cursor) {
      if (width >= cells && !endsLine(text, i)) {
        row++
        width = 0
      }
      curRow = row
      curCol = width
    }
    if (i == n) break
    const cp = unchecked(text[i])
    const w = cp == 0x0a ? 0 : cellWidth(cp)
    if (cp == 0x0a || width + w > cells) {
      row++
      width = 0
      if (cp == 0x0a) continue
    }
    width += w
  }
  out[0] = curCol
  const target = curRow + dir
  if (target < 0 || target > row) return -1
  const want = goal >= 0 ? goal : curCol
  // Pass 2: the last index on the target row whose column is within the goal.
  row = 0
  width = 0
  let best = -1
  let first = -1
  for (let i = 0; i <= n; i++) {
    let r = row
    let col = width
    if (i == cursor) {
      if (width >= cells && !endsLine(text, i)) {
        row++
        width = 0
      }
      r = row
      col = width
    } else if (i < n) {
      const next = unchecked(text[i])
      if (next != 0x0a && width + cellWidth(next) > cells) {
        r = row + 1
        col = 0
      }
    }
    if (r > target) break
    if (r == target) {
      if (first < 0) first = i
      if (col <= want) best = i
    }
    if (i == n) break
    const cp = unchecked(text[i])
    const w = cp == 0x0a ? 0 : cellWidth(cp)
    if (cp == 0x0a || width + w > cells) {
      row++
      width = 0
      if (cp == 0x0a) continue
    }
    width += w
  }
  return best >= 0 ? best : first
}
