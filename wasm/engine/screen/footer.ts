// The footer's rows under the transcript: the activity row (spinner, verb, elapsed time, token
// counts, or a retry countdown), prompts queued for the next request, dividers and the status
// line. Every row is cut to the width: a row xterm wraps behind the engine's back would break
// the next redraw.

import { ByteBuf } from '../util/byte-buf'
import { Rows, wrapInto, fitRow } from './layout'
import { sanitizeInto } from './sanitize'
import { CYAN, DIM, GRAY, RESET, YELLOW } from './ansi'

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']
export const SPINNER_INTERVAL_MS: f64 = 100

/** `⠋ Thinking… (5s · ↑1.2k ↓456 · esc to interrupt)`. */
export function activityRow(live: Rows, cols: i32, nowMs: f64, what: string, detail: string): void {
  const frame = <i32>(nowMs / SPINNER_INTERVAL_MS) % SPINNER.length
  const room = cols - 1 - 2 - what.length
  if (detail.length > room) detail = room > 2 ? detail.substring(0, room - 1) + '…' : ''
  const line = new ByteBuf(128)
  // piece by piece: a concatenation is a new string per piece, and this row is drawn every frame
  line.str(CYAN)
  line.str(SPINNER[max(0, frame)])
  line.byte(0x20)
  line.str(what)
  line.str(RESET)
  line.str(DIM)
  line.str(detail)
  line.str(RESET)
  live.add(line, 2 + what.length + detail.length)
}

/** `⚠ Rate limited · retrying in 4s · attempt 2/6`, cut to the width. */
export function retryRow(live: Rows, cols: i32, text: string): void {
  let shown = '⚠ ' + text
  if (shown.length > cols - 1) shown = shown.substring(0, max(1, cols - 2)) + '…'
  const line = new ByteBuf(shown.length + 16)
  line.str(YELLOW + shown + RESET)
  live.add(line, shown.length)
}

/** Prompts waiting to be sent with the next model request, then `N queued · ↑ to edit`. */
export function queuedRows(live: Rows, cols: i32, steers: Array<ByteBuf>): void {
  const n = steers.length
  if (n == 0) return
  for (let i = 0; i < n; i++) {
    const text = steers[i]
    const line = new ByteBuf(text.length + 16)
    line.str(GRAY + '❯ ')
    const clean = new ByteBuf(text.length)
    sanitizeInto(text.data, 0, text.length, clean)
    const w = fitRow(clean.data, 0, clean.length, max(4, cols - 3), line)
    line.str(RESET)
    live.add(line, 2 + w)
  }
  const note = new ByteBuf(48)
  const text = '  ' + n.toString() + ' queued · ↑ to edit'
  note.str(DIM + text + RESET)
  live.add(note, text.length)
}

// The divider and the gray rows are drawn every frame and rarely change: the last ones are kept
// and added again (rows are only read once added, so one buffer may be in many frames).
let dividerRow: ByteBuf | null = null
let dividerCols: i32 = -1

export function divider(live: Rows, cols: i32): void {
  let line = dividerRow
  if (line == null || cols != dividerCols) {
    line = new ByteBuf(cols * 3 + 16) // cols is at most 1000 (clampCols)
    line.str(GRAY)
    line.repeat('─', cols)
    line.str(RESET)
    dividerRow = line
    dividerCols = cols
  }
  live.add(line, cols)
}

const grayText = new ByteBuf(256)
const grayWrapped = new Rows()
const grayLastText = new ByteBuf(256)
let grayLastCols: i32 = -1
let grayLastStyle: string = ''
let grayLastRow: ByteBuf | null = null
let grayLastWidth: i32 = 0

/** One gray row of text (the status line), cut to the width. */
export function grayRow(live: Rows, cols: i32, text: string, style: string = GRAY): void {
  grayText.reset()
  grayText.str(text)
  grayRowOf(live, cols, grayText, style)
}

/** `grayRow` of UTF-8 text. */
export function grayRowOf(live: Rows, cols: i32, text: ByteBuf, style: string = GRAY): void {
  const last = grayLastRow
  if (last != null && cols == grayLastCols && style == grayLastStyle && sameBytes(text, grayLastText)) {
    live.add(last, grayLastWidth)
    return
  }
  const rows = grayWrapped
  rows.clear()
  wrapInto(rows, text.data, 0, text.length, cols - 1, '', 0, '', 0, style)
  grayLastRow = null
  if (rows.count == 0) return
  // a new buffer each time (not a recycled one): the row may be in this frame twice
  const row = unchecked(rows.lines[0])
  const width = unchecked(rows.widths[0])
  live.add(row, width)
  grayLastRow = row
  grayLastWidth = width
  grayLastCols = cols
  grayLastStyle = style
  grayLastText.reset()
  grayLastText.append(text)
}

function sameBytes(a: ByteBuf, b: ByteBuf): bool {
  return a.length == b.length && memory.compare(a.dataStart, b.dataStart, <usize>a.length) == 0
}
