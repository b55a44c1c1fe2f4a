// The footer's rows under the transcript: the activity row (spinner, verb, elapsed time, token
// counts, or a retry countdown), prompts queued for the next request, dividers and the status
// line. Every row is cut to the width: a row xterm wraps behind the engine's back would break
// the next redraw.

import { ByteBuf, stringBytes } from '../util/byte-buf'
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
  line.str(CYAN + SPINNER[max(0, frame)] + ' ' + what + RESET + DIM + detail + RESET)
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

export function divider(live: Rows, cols: i32): void {
  const line = new ByteBuf(cols * 3 + 16) // cols is at most 1000 (clampCols)
  line.str(GRAY)
  line.repeat('─', cols)
  line.str(RESET)
  live.add(line, cols)
}

/** One gray row of text (the status line), cut to the width. */
export function grayRow(live: Rows, cols: i32, text: string, style: string = GRAY): void {
  const bytes = stringBytes(text)
  const rows = new Rows()
  wrapInto(rows, bytes, 0, bytes.length, cols - 1, '', 0, '', 0, style)
  if (rows.count > 0) live.add(rows.lines[0], rows.widths[0])
}
