/**
 * The rules of the model's file tools (read_file, write_file, edit_file), as pure functions: where
 * a path may point, what an edit may change, how a read is numbered. Every refusal is a sentence
 * the model reads as the tool's result, and nothing is written when one applies.
 */

import type { RealPath } from './real-path'
import { resolveWorkspacePath } from '../shared/workspace/workspace-paths'

/** The largest file edit_file opens, and the most write_file writes (10 MB). */
export const FILE_TOOL_MAX_BYTES = 10 * 1024 * 1024
/** Lines read_file returns when no limit is given. */
export const READ_DEFAULT_LINES = 2000
/** A line longer than this is cut in read_file's answer. */
export const READ_LINE_MAX_CHARS = 2000
/** The most text read_file returns (the engine's tool result limit). */
export const READ_MAX_BYTES = 64 * 1024

/** A call's arguments, checked for shape. */
export type FileToolCall =
  | { name: 'read_file'; path: string; offset?: number; limit?: number }
  | { name: 'write_file'; path: string; content: string }
  | { name: 'edit_file'; path: string; oldString: string; newString: string; replaceAll: boolean }

export type Refusal = { ok: false; reason: string }

/** Reads a call's JSON arguments, or says what is wrong with them. */
export function parseFileToolCall(name: string, argumentsText: string): { ok: true; call: FileToolCall } | Refusal {
  let args: Record<string, unknown>
  try {
    const parsed: unknown = JSON.parse(argumentsText || '{}')
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object')
    args = parsed as Record<string, unknown>
  } catch {
    return { ok: false, reason: `The arguments of ${name} were not a JSON object, so nothing was done.` }
  }
  const path = args['path']
  if (typeof path !== 'string' || path.length === 0) return { ok: false, reason: `${name} needs a "path" (a string).` }
  if (name === 'read_file') {
    const offset = optionalCount(args['offset'])
    const limit = optionalCount(args['limit'])
    if (offset === null || limit === null) return { ok: false, reason: 'read_file: "offset" and "limit" must be positive whole numbers.' }
    return { ok: true, call: { name, path, ...(offset ? { offset } : {}), ...(limit ? { limit } : {}) } }
  }
  if (name === 'write_file') {
    const content = args['content']
    if (typeof content !== 'string') return { ok: false, reason: 'write_file needs "content" (a string); nothing was written.' }
    return { ok: true, call: { name, path, content } }
  }
  if (name === 'edit_file') {
    const oldString = args['old_string']
    const newString = args['new_string']
    if (typeof oldString !== 'string' || typeof newString !== 'string') {
      return { ok: false, reason: 'edit_file needs "old_string" and "new_string" (strings); nothing was changed.' }
    }
    return { ok: true, call: { name, path, oldString, newString, replaceAll: args['replace_all'] === true } }
  }
  return { ok: false, reason: `There is no file tool named "${name}".` }
}

/** undefined when absent, null when not a positive integer. */
function optionalCount(value: unknown): number | undefined | null {
  if (value === undefined || value === null) return undefined
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null
}

/**
 * `path` resolved against `cwd`, as an absolute path and relative to `root`, or a refusal when it
 * holds a NUL or resolves outside the root (`../../x`, `/etc/passwd`) or to the root itself.
 */
export function resolveToolPath(path: string, cwd: string, root: string): { ok: true; absolute: string; relative: string } | Refusal {
  const shown = shownPath(path)
  if (path.includes('\0')) return { ok: false, reason: `Refused: the path ${shown.replace(/\\u0000/g, '\\0')} contains a NUL byte; nothing was changed.` }
  const absolute = resolveWorkspacePath(path, cwd)
  const prefix = root === '/' ? '/' : `${root}/`
  if (!absolute.startsWith(prefix) || absolute === root) {
    return { ok: false, reason: `Refused: ${shown} is outside the workspace (${root}); only files under it can be used. Nothing was changed.` }
  }
  return { ok: true, absolute, relative: absolute.slice(prefix.length) }
}

const shownPath = (path: string) => JSON.stringify(path.length > 200 ? `${path.slice(0, 200)}…` : path)

/**
 * Where a call's path really leads once symlinks are followed (real-path.ts), or a refusal when
 * that is outside the root or the links loop: a link inside the workspace is no door out of it.
 */
export function checkRealPath(path: string, real: RealPath, root: string): { ok: true; absolute: string; relative: string } | Refusal {
  const shown = shownPath(path)
  if (!real.ok) return { ok: false, reason: `Refused: ${shown} is a chain of symlinks that does not end (a loop); nothing was changed.` }
  const prefix = root === '/' ? '/' : `${root}/`
  if (!real.real.startsWith(prefix)) {
    return { ok: false, reason: `Refused: ${shown} is a symlink that leads outside the workspace (${root}), to ${real.real}; only files under it can be used. Nothing was changed.` }
  }
  return { ok: true, absolute: real.real, relative: real.real.slice(prefix.length) }
}

/** The text after an edit, or why the edit cannot be made (the file is then left as it was). */
export function applyEdit(content: string, relative: string, oldString: string, newString: string, replaceAll: boolean): { ok: true; content: string; count: number } | Refusal {
  if (oldString.length === 0) return { ok: false, reason: `edit_file: "old_string" is empty. To create ${relative} or replace all of it, use write_file.` }
  if (oldString === newString) return { ok: false, reason: 'edit_file: "old_string" and "new_string" are the same, so there is nothing to change.' }
  const parts = content.split(oldString)
  const count = parts.length - 1
  if (count === 0) {
    return { ok: false, reason: `edit_file: "old_string" was not found in ${relative}; nothing was changed. Read the file and copy the text exactly, including whitespace and indentation.` }
  }
  if (count > 1 && !replaceAll) {
    return { ok: false, reason: `edit_file: "old_string" matches ${count} times in ${relative}; nothing was changed. Include more of the surrounding lines so it matches once, or set "replace_all": true to change all ${count}.` }
  }
  // split/join, not String.replace: a "$&" in new_string is text, not a pattern.
  return { ok: true, content: parts.join(newString), count }
}

/** Lines `offset`… of `text` (1-based), numbered like `cat -n`, cut to the read limits. */
export function readSlice(text: string, offset = 1, limit = READ_DEFAULT_LINES): string {
  if (text.length === 0) return '(the file is empty)'
  const lines = text.split('\n')
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop()
  if (offset > lines.length) return `(the file has ${lines.length} lines; offset ${offset} is past its end)`
  const out: string[] = []
  let bytes = 0
  const end = Math.min(lines.length, offset - 1 + limit)
  for (let i = offset - 1; i < end; i++) {
    let line = lines[i]!
    if (line.length > READ_LINE_MAX_CHARS) line = `${line.slice(0, READ_LINE_MAX_CHARS)}… (line cut)`
    const row = `${String(i + 1).padStart(6)}\t${line}`
    bytes += row.length + 1
    if (bytes > READ_MAX_BYTES) {
      out.push(`(stopped at line ${i}: 64 KiB read; pass "offset": ${i + 1} to read on)`)
      return out.join('\n')
    }
    out.push(row)
  }
  if (end < lines.length) out.push(`(${lines.length - end} more lines; pass "offset": ${end + 1} to read on)`)
  return out.join('\n')
}
