/**
 * One file's change as a unified diff, for the transcript's file rows, /diff and the approval in
 * ask mode. The line diff is the `diff` package's (jsdiff's Myers diff); this file only shapes its
 * hunks into text and counts the lines added and removed. Runs on the page, where the change
 * history keeps the contents before each turn.
 */

import { structuredPatch } from 'diff'

/** A file's content as the snapshot holds it (null: the file does not exist). */
export type FileContent = string | Uint8Array | null

/** One file's diff: `text` is the unified diff (headers and hunks, lines joined by \n). */
export type FileDiff = { path: string; added: number; removed: number; text: string; binary: boolean }

const decoder = new TextDecoder('utf-8', { fatal: true })

/** The text of `content`, or null when it is binary (not UTF-8, or holding a NUL). */
export function textOf(content: string | Uint8Array): string | null {
  let text: string
  if (typeof content === 'string') text = content
  else {
    try {
      text = decoder.decode(content)
    } catch {
      return null
    }
  }
  return text.includes('\0') ? null : text
}

function sizeOf(content: FileContent): number {
  if (content === null) return 0
  return typeof content === 'string' ? new TextEncoder().encode(content).byteLength : content.byteLength
}

/**
 * The diff from `before` to `after` of the file at `path` (relative to the root). A binary side
 * gives one line, `binary, N bytes`, instead of hunks.
 */
export function diffFile(path: string, before: FileContent, after: FileContent): FileDiff {
  const oldName = before === null ? '/dev/null' : `a/${path}`
  const newName = after === null ? '/dev/null' : `b/${path}`
  const oldText = before === null ? '' : textOf(before)
  const newText = after === null ? '' : textOf(after)
  if (oldText === null || newText === null) {
    const size = after === null ? sizeOf(before) : sizeOf(after)
    return { path, added: 0, removed: 0, binary: true, text: `--- ${oldName}\n+++ ${newName}\nbinary, ${size} bytes` }
  }
  // jsdiff tokenizes and compares every line: 35-55 ms for a one-line edit of a 1 MB file. The
  // lines both sides share at the start and the end cannot be in a hunk beyond its context, so only
  // the middle (with CONTEXT lines either side) is diffed, and the hunks are moved back in place.
  const middle = changedMiddle(oldText, newText)
  const patch = structuredPatch(oldName, newName, middle.oldText, middle.newText, undefined, undefined, { context: CONTEXT })
  const lines = [`--- ${oldName}`, `+++ ${newName}`]
  let added = 0
  let removed = 0
  for (const hunk of patch.hunks) {
    // An empty side is numbered from the line before it (GNU diff's `-0,0`), as jsdiff's own formatPatch does.
    const oldStart = (hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart) + middle.skipped
    const newStart = (hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart) + middle.skipped
    lines.push(`@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`)
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added++
      else if (line.startsWith('-')) removed++
      lines.push(line)
    }
  }
  return { path, added, removed, binary: false, text: lines.join('\n') }
}

const CONTEXT = 3

/** Line starts of `text` (offsets just after each \n, and 0). */
function lineStarts(text: string): number[] {
  const starts = [0]
  for (let at = text.indexOf('\n'); at !== -1 && at + 1 < text.length; at = text.indexOf('\n', at + 1)) starts.push(at + 1)
  return starts
}

/**
 * The parts of both texts from CONTEXT lines before their first differing line to CONTEXT lines
 * after their last, and how many whole lines were skipped at the start.
 */
function changedMiddle(oldText: string, newText: string): { oldText: string; newText: string; skipped: number } {
  const a = lineStarts(oldText)
  const b = lineStarts(newText)
  const lineOf = (starts: number[], text: string, i: number) => text.slice(starts[i], i + 1 < starts.length ? starts[i + 1] : text.length)
  let head = 0
  while (head < a.length && head < b.length && lineOf(a, oldText, head) === lineOf(b, newText, head)) head++
  let tail = 0
  while (tail < a.length - head && tail < b.length - head && lineOf(a, oldText, a.length - 1 - tail) === lineOf(b, newText, b.length - 1 - tail)) tail++
  const skipped = Math.max(0, head - CONTEXT)
  const keepTail = Math.max(0, tail - CONTEXT)
  const cut = (starts: number[], text: string) => text.slice(starts[skipped] ?? text.length, keepTail > 0 ? starts[starts.length - keepTail] : text.length)
  return { oldText: cut(a, oldText), newText: cut(b, newText), skipped }
}
