// Rows for the agent's file changes: the row of a write or edit (its path, +N −M and the first
// lines of its unified diff), the approval of a change in ask mode, and /diff. The diff text comes
// from the host and is untrusted: each line is sanitized before it is styled.

import { ByteBuf } from '../util/byte-buf'
import { Rows, fitRow } from './layout'
import { sanitizeInto } from './sanitize'
import { BOLD, CYAN, GRAY, GREEN, RED, RESET, YELLOW } from './ansi'

/** Diff lines a file row shows before "… K more lines" (the Ctrl+O view has them all). */
export const DIFF_PREVIEW_LINES = 8

/** A change the host described: the verb (Edit, Write, Create, Read), the path, counts and diff. */
export class FileChange {
  verb: string = ''
  path: ByteBuf = new ByteBuf(0)
  added: i32 = 0
  removed: i32 = 0
  diff: ByteBuf = new ByteBuf(0)
}

/** The colour of a unified diff line, by how it starts. */
function lineStyle(data: Uint8Array, start: i32, end: i32): string {
  if (start >= end) return ''
  const c = data[start]
  const next = start + 1 < end ? data[start + 1] : 0
  if ((c == 0x2b && next == 0x2b) || (c == 0x2d && next == 0x2d)) return BOLD // +++ / --- headers
  if (c == 0x2b) return GREEN
  if (c == 0x2d) return RED
  if (c == 0x40 && next == 0x40) return CYAN
  return ''
}

/** Whether the line is a `---`/`+++` file header (left out of previews: the row names the file). */
function isHeader(data: Uint8Array, start: i32, end: i32): bool {
  if (end - start < 4) return false
  const c = data[start]
  return (c == 0x2b || c == 0x2d) && data[start + 1] == c && data[start + 2] == c && data[start + 3] == 0x20
}

/**
 * Adds the lines of `diff` as coloured rows under `indent` (its width `indentWidth`), at most `max`
 * of them (`limit` -1: all), headers left out unless `headers`. Returns how many lines were left out.
 */
export function diffRows(rows: Rows, diff: ByteBuf, cols: i32, indent: string, indentWidth: i32, limit: i32, headers: bool): i32 {
  const data = diff.data
  let lineStart = 0
  let shown = 0
  let left = 0
  const clean = new ByteBuf(256)
  for (let i = 0; i <= diff.length; i++) {
    if (i < diff.length && data[i] != 0x0a) continue
    const from = lineStart
    lineStart = i + 1
    if (i == from && i == diff.length) break
    if (!headers && isHeader(data, from, i)) continue
    if (limit >= 0 && shown >= limit) {
      left++
      continue
    }
    clean.reset()
    sanitizeInto(data, from, i, clean)
    const line = new ByteBuf(clean.length + 32)
    line.str(shown == 0 && indentWidth == 5 ? GRAY + '  └  ' + RESET : indent)
    const style = lineStyle(clean.data, 0, clean.length)
    line.str(style)
    const w = fitRow(clean.data, 0, clean.length, max(4, cols - indentWidth), line)
    if (style.length > 0) line.str(RESET)
    rows.add(line, indentWidth + w)
    shown++
  }
  return left
}

/** `● Edit src/a.js +3 −1`: the head row of a change (the bullet green, or yellow while asked). */
export function changeHead(rows: Rows, change: FileChange, cols: i32, bullet: string): void {
  const head = new ByteBuf(change.path.length + 64)
  head.str(bullet + '● ' + RESET + BOLD + change.verb + ' ' + RESET)
  const clean = new ByteBuf(change.path.length)
  sanitizeInto(change.path.data, 0, change.path.length, clean)
  const counts = change.verb == 'Read' ? '' : ' +' + change.added.toString() + ' −' + change.removed.toString()
  const w = fitRow(clean.data, 0, clean.length, max(4, cols - 3 - change.verb.length - counts.length), head)
  if (counts.length > 0) {
    head.str(' ' + GREEN + '+' + change.added.toString() + RESET + ' ' + RED + '−' + change.removed.toString() + RESET)
  }
  rows.add(head, 3 + change.verb.length + w + counts.length)
}

/** The committed rows of a change, and the whole diff for the Ctrl+O view. */
export function changeRows(change: FileChange, cols: i32, rows: Rows, full: Rows): void {
  changeHead(rows, change, cols, GREEN)
  changeHead(full, change, cols, GREEN)
  if (change.diff.length == 0) return
  const left = diffRows(rows, change.diff, cols, '     ', 5, DIFF_PREVIEW_LINES, false)
  if (left > 0) moreRow(rows, left)
  diffRows(full, change.diff, cols, '     ', 5, -1, true)
}

/** The approval of a change in ask mode: its diff (cut to fit the screen), then the answers. */
export function changeApprovalRows(rows: Rows, change: FileChange, cols: i32, screenRows: i32, selected: i32): void {
  rows.add(new ByteBuf(0), 0)
  changeHead(rows, change, cols, YELLOW)
  // Leaves room for the question, the answers and the footer below the diff.
  const left = diffRows(rows, change.diff, cols, '     ', 5, max(3, screenRows - 14), false)
  if (left > 0) moreRow(rows, left)
  const question = new ByteBuf(64)
  question.str(YELLOW + '● ' + RESET + BOLD + 'Make this change?' + RESET)
  rows.add(question, 19)
  const labels = ['Yes', 'Yes, and allow file changes for this session', 'No, tell the model']
  for (let i = 0; i < 3; i++) {
    const line = new ByteBuf(80)
    const on = i + 1 == selected
    line.str(on ? CYAN + '  ❯ ' : '    ')
    line.str((i + 1).toString() + '. ' + labels[i])
    if (on) line.str(RESET)
    rows.add(line, 7 + labels[i].length)
  }
}

/** `… K more lines`. */
export function moreRow(rows: Rows, left: i32): void {
  const text = '… ' + left.toString() + ' more line' + (left == 1 ? '' : 's') + ' · Ctrl+O shows all'
  const line = new ByteBuf(text.length + 16)
  line.str('     ' + GRAY + text + RESET)
  rows.add(line, 5 + text.length)
}
