// Lays the composer's draft out into rows under the prompt, the selection in inverse video, and
// finds the cell the cursor is drawn in.

import { ByteBuf } from '../util/byte-buf'
import { cellWidth } from './width'
import { Rows } from './layout'
import { BOLD, GRAY, RESET } from './ansi'
import { PROMPT_WIDTH, endsLine, rowCells } from './composer-motion'

export const PROMPT = '❯ '
const INVERSE = '\x1b[7m'
const INVERSE_OFF = '\x1b[27m'

function promptRow(rows: Rows): ByteBuf {
  const line = rows.fresh(64)
  line.str(BOLD)
  line.str(PROMPT)
  line.str(RESET)
  return line
}

function continuationRow(rows: Rows): ByteBuf {
  const line = rows.fresh(64)
  line.str('  ')
  return line
}

/**
 * Adds the draft's rows to `rows`; `cursorAt` gets [row, column] of the cursor. Code points
 * in [selStart, selEnd) are drawn inverted. The cursor at the end of a full row is drawn at the
 * start of the next one, unless a line break follows: then it sits in the row's spare column
 * (composer-motion's vertical moves follow the same rules).
 */
export function layoutDraft(
  rows: Rows,
  text: Array<i32>,
  cursor: i32,
  selStart: i32,
  selEnd: i32,
  cols: i32,
  placeholder: string,
  cursorAt: StaticArray<i32>,
): void {
  const cells = rowCells(cols)
  let line = promptRow(rows)
  let width = 0
  let row = 0
  cursorAt[0] = 0
  cursorAt[1] = PROMPT_WIDTH
  if (text.length == 0 && placeholder.length > 0) {
    line.str(GRAY)
    line.str(placeholder)
    line.str(RESET)
    rows.add(line, PROMPT_WIDTH + placeholder.length)
    return
  }
  let inverse = false
  for (let i = 0; i <= text.length; i++) {
    if (i == cursor) {
      if (width >= cells && !endsLine(text, i)) {
        if (inverse) line.str(INVERSE_OFF)
        inverse = false
        rows.add(line, PROMPT_WIDTH + width)
        line = continuationRow(rows)
        width = 0
        row++
      }
      cursorAt[0] = row
      cursorAt[1] = PROMPT_WIDTH + width
    }
    if (i == text.length) break
    const cp = unchecked(text[i])
    const w = cp == 0x0a ? 0 : cellWidth(cp)
    if (cp == 0x0a || width + w > cells) {
      if (inverse) line.str(INVERSE_OFF)
      inverse = false
      rows.add(line, PROMPT_WIDTH + width)
      line = continuationRow(rows)
      width = 0
      row++
      if (cp == 0x0a) continue
    }
    const selected = i >= selStart && i < selEnd
    if (selected != inverse) {
      line.str(selected ? INVERSE : INVERSE_OFF)
      inverse = selected
    }
    line.codepoint(cp)
    width += w
  }
  if (inverse) line.str(INVERSE_OFF)
  rows.add(line, PROMPT_WIDTH + width)
}
