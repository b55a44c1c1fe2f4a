/**
 * Worker side of the model's file tools: reads, applies the rules (file-tool-rules.ts), writes and
 * diffs (unified-diff.ts) on the session's file system, so a 1 MB edit never crosses to the page
 * as text nor holds up its thread. Symlinks resolve the way the shell sees them. The change it
 * makes is reported like a command's (the page's snapshot and change history take it from there).
 */

import type { IFileSystem } from 'just-bash/browser'
import type { FileOpAnswer } from '../protocol/workspace-ops'
import { applyEdit, FILE_TOOL_MAX_BYTES, parseFileToolCall, readSlice, resolveToolPath } from './file-tool-rules'
import { diffFile, textOf } from './unified-diff'

/** A file tool call as the engine sends it (workspace op `file`). */
export type FileToolRequest = { name: string; arguments: string; cwd: string; apply: boolean }

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
const refuse = (result: string): FileOpAnswer => ({ ok: false, result })

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/')
  return slash <= 0 ? '/' : path.slice(0, slash)
}

/** Runs one call against `fs`; never throws (a failure is a refusal the model reads). */
export async function runFileTool(fs: IFileSystem, root: string, request: FileToolRequest): Promise<FileOpAnswer> {
  const { name } = request
  const parsed = parseFileToolCall(name, request.arguments)
  if (!parsed.ok) return refuse(parsed.reason)
  const call = parsed.call
  const where = resolveToolPath(call.path, request.cwd || root, root)
  if (!where.ok) return refuse(where.reason)
  const path = where.relative
  const stat = await fs.stat(where.absolute).catch(() => null)
  if (stat?.isDirectory) return refuse(`${path} is a directory, not a file.`)

  if (call.name === 'read_file') {
    if (!stat) return refuse(`${path} does not exist.`)
    const text = textOf(await fs.readFileBuffer(where.absolute))
    if (text === null) return refuse(`${path} is a binary file (${stat.size} bytes); read_file reads text. Use run_command to inspect it.`)
    return { ok: true, verb: 'Read', path, result: readSlice(text, call.offset, call.limit) }
  }

  let before: string | Uint8Array | null = null
  let after: string
  let summary: string
  if (call.name === 'write_file') {
    const size = new TextEncoder().encode(call.content).byteLength
    if (size > FILE_TOOL_MAX_BYTES) return refuse(`write_file: the content is ${megabytes(size)}; files are written up to 10 MB. Nothing was written.`)
    if (stat) before = await fs.readFileBuffer(where.absolute)
    after = call.content
    summary = stat ? `Wrote ${path}` : `Created ${path}`
  } else {
    if (!stat) return refuse(`edit_file: ${path} does not exist; nothing was changed. Use write_file to create it.`)
    if (stat.size > FILE_TOOL_MAX_BYTES) return refuse(`edit_file: ${path} is ${megabytes(stat.size)}; edit_file opens files up to 10 MB. Nothing was changed.`)
    const text = textOf(await fs.readFileBuffer(where.absolute))
    if (text === null) return refuse(`edit_file: ${path} is a binary file; nothing was changed.`)
    const edited = applyEdit(text, path, call.oldString, call.newString, call.replaceAll)
    if (!edited.ok) return refuse(edited.reason)
    before = text
    after = edited.content
    summary = `Edited ${path}: replaced ${edited.count} occurrence${edited.count === 1 ? '' : 's'}`
  }
  const diff = diffFile(path, before, after)
  const verb = call.name === 'edit_file' ? 'Edit' : stat ? 'Write' : 'Create'
  const shown = { verb, path, added: diff.added, removed: diff.removed, diff: diff.text } as const
  if (!request.apply) return { ok: true, result: '', ...shown }
  try {
    await fs.mkdir(parentOf(where.absolute), { recursive: true })
    // Bytes from the platform's encoder: a string would be encoded by the Buffer polyfill, ~10x slower.
    await fs.writeFile(where.absolute, new TextEncoder().encode(after))
  } catch (error) {
    return refuse(`${name} failed: ${error instanceof Error ? error.message : String(error)}. Nothing was changed.`)
  }
  return { ok: true, result: `${summary} (+${diff.added} −${diff.removed} lines).`, ...shown }
}
