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
  const patch = structuredPatch(oldName, newName, oldText, newText, undefined, undefined, { context: 3 })
  const lines = [`--- ${oldName}`, `+++ ${newName}`]
  let added = 0
  let removed = 0
  for (const hunk of patch.hunks) {
    // An empty side is numbered from the line before it (GNU diff's `-0,0`), as jsdiff's own formatPatch does.
    const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart
    const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart
    lines.push(`@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`)
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added++
      else if (line.startsWith('-')) removed++
      lines.push(line)
    }
  }
  return { path, added, removed, binary: false, text: lines.join('\n') }
}
