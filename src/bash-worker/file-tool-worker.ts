/**
 * Worker side of the model's file tools: reads, applies the rules (file-tool-rules.ts), writes and
 * diffs (unified-diff.ts) on the session's file system, so a 1 MB edit never crosses to the page
 * as text nor holds up its thread. Symlinks are followed by hand (real-path.ts) and a path that
 * leads outside the root is refused; a link inside it works as its target does, and stays a link.
 * A write is read back before it is reported. The change it makes is reported like a command's
 * (the page's snapshot and change history take it from there).
 */

import type { IFileSystem } from 'just-bash/browser'
import type { FileOpAnswer } from '../shared/protocol/workspace-ops'
import { applyEdit, checkRealPath, FILE_TOOL_MAX_BYTES, parseFileToolCall, readSlice, resolveToolPath } from './file-tool-rules'
import { resolveRealPath } from './real-path'
import { diffFile, textOf } from '../shared/workspace/unified-diff'
import type { FileToolRequest } from '../shared/messages/bash-worker-api.ts'
export type { FileToolRequest } from '../shared/messages/bash-worker-api.ts'

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
const refuse = (result: string): FileOpAnswer => ({ ok: false, result })

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/')
  return slash <= 0 ? '/' : path.slice(0, slash)
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** Runs one call against `fs`; never throws (a failure is a refusal the model reads). */
export async function runFileTool(fs: IFileSystem, root: string, request: FileToolRequest): Promise<FileOpAnswer> {
  const { name } = request
  const parsed = parseFileToolCall(name, request.arguments)
  if (!parsed.ok) return refuse(parsed.reason)
  const call = parsed.call
  const named = resolveToolPath(call.path, request.cwd || root, root)
  if (!named.ok) return refuse(named.reason)
  const where = checkRealPath(call.path, await resolveRealPath(fs, named.absolute), root)
  if (!where.ok) return refuse(where.reason)
  // Results name the path the model used; through a link, they say where the bytes are.
  const path = named.relative
  const via = where.absolute === named.absolute ? '' : ` (a symlink to ${where.relative})`
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
    summary = stat ? `Wrote ${path}${via}` : `Created ${path}${via}`
  } else {
    if (!stat) return refuse(`edit_file: ${path} does not exist; nothing was changed. Use write_file to create it.`)
    if (stat.size > FILE_TOOL_MAX_BYTES) return refuse(`edit_file: ${path} is ${megabytes(stat.size)}; edit_file opens files up to 10 MB. Nothing was changed.`)
    const text = textOf(await fs.readFileBuffer(where.absolute))
    if (text === null) return refuse(`edit_file: ${path} is a binary file; nothing was changed.`)
    const edited = applyEdit(text, path, call.oldString, call.newString, call.replaceAll)
    if (!edited.ok) return refuse(edited.reason)
    before = text
    after = edited.content
    summary = `Edited ${path}${via}: replaced ${edited.count} occurrence${edited.count === 1 ? '' : 's'}`
  }
  const diff = diffFile(path, before, after)
  const verb = call.name === 'edit_file' ? 'Edit' : stat ? 'Write' : 'Create'
  const shown = { verb, path, added: diff.added, removed: diff.removed, diff: diff.text } as const
  if (!request.apply) return { ok: true, result: '', ...shown }
  // Bytes from the platform's encoder: a string would be encoded by the Buffer polyfill, ~10x slower.
  const bytes = new TextEncoder().encode(after)
  try {
    await fs.mkdir(parentOf(where.absolute), { recursive: true })
    await fs.writeFile(where.absolute, bytes)
  } catch (error) {
    return refuse(`${name} failed: ${error instanceof Error ? error.message : String(error)}. Nothing was changed.`)
  }
  // Read back by the path the model named, as the shell would: a write that went nowhere is no write.
  const landed = await fs.readFileBuffer(named.absolute).catch(() => null)
  if (!landed || !sameBytes(landed, bytes)) {
    return refuse(`${name} failed: ${path} does not hold what was written after the write; the change did not take effect.`)
  }
  return { ok: true, result: `${summary} (+${diff.added} −${diff.removed} lines).`, ...shown }
}
