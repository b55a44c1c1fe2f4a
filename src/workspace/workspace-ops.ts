/**
 * The workspace's side of the engine's workspace ops (src/protocol/workspace-ops.ts): the file
 * tools by their rules (file-tool-rules.ts), each change's diff (unified-diff.ts), and /diff and
 * /undo over the change history (change-history.ts). Runs on the page, next to the snapshot of
 * the files; writes go to the bash worker through `put`.
 */

import type { DiffAnswer, FileOpAnswer, UndoAnswer, WorkspaceOpAnswer, WorkspaceOpRequest } from '../protocol/workspace-ops'
import type { Before, ChangeHistory } from './change-history'
import { applyEdit, FILE_TOOL_MAX_BYTES, parseFileToolCall, readSlice, resolveToolPath } from './file-tool-rules'
import type { Snapshot } from './snapshot-store'
import { diffFile, textOf, type FileContent } from './unified-diff'

export type WorkspaceOpsDeps = {
  root: string
  snapshot: Snapshot
  history: ChangeHistory
  /** A file's current content (absolute path): null when there is none, 'dir' for a directory. */
  read(path: string): Promise<FileContent | 'dir'>
  /**
   * Writes and removes files in the worker and applies the change to the snapshot, recorded in the
   * history unless `record` is false (an undo). Rejects with a readable message.
   */
  put(write: Array<[string, string | Uint8Array]>, remove: string[], record: boolean): Promise<void>
}

const sizeOf = (content: string | Uint8Array) => (typeof content === 'string' ? new TextEncoder().encode(content).byteLength : content.byteLength)
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
const refuse = (result: string): FileOpAnswer => ({ ok: false, result })

/** Runs one op; never rejects (a failure is an answer). `turn` answers null. */
export function createWorkspaceOps(deps: WorkspaceOpsDeps): (request: WorkspaceOpRequest) => Promise<WorkspaceOpAnswer | null> {
  const { root, history } = deps
  const prefix = root === '/' ? '/' : `${root}/`
  const relative = (path: string) => (path.startsWith(prefix) ? path.slice(prefix.length) : path)

  async function fileOp(name: string, argumentsText: string, cwd: string, apply: boolean): Promise<FileOpAnswer> {
    const parsed = parseFileToolCall(name, argumentsText)
    if (!parsed.ok) return refuse(parsed.reason)
    const call = parsed.call
    const where = resolveToolPath(call.path, cwd || root, root)
    if (!where.ok) return refuse(where.reason)
    const path = where.relative
    const before = await deps.read(where.absolute)
    if (before === 'dir') return refuse(`${path} is a directory, not a file.`)

    if (call.name === 'read_file') {
      if (before === null) return refuse(`${path} does not exist.`)
      const text = textOf(before)
      if (text === null) return refuse(`${path} is a binary file (${sizeOf(before)} bytes); read_file reads text. Use run_command to inspect it.`)
      return { ok: true, verb: 'Read', path, result: readSlice(text, call.offset, call.limit) }
    }

    let after: string
    let summary: string
    let old: string | null = null // the text before, once decoded (a diff of 1 MB should not decode it twice)
    if (call.name === 'write_file') {
      const size = sizeOf(call.content)
      if (size > FILE_TOOL_MAX_BYTES) return refuse(`write_file: the content is ${megabytes(size)}; files are written up to 10 MB. Nothing was written.`)
      after = call.content
      summary = before === null ? `Created ${path}` : `Wrote ${path}`
    } else {
      if (before === null) return refuse(`edit_file: ${path} does not exist; nothing was changed. Use write_file to create it.`)
      const size = sizeOf(before)
      if (size > FILE_TOOL_MAX_BYTES) return refuse(`edit_file: ${path} is ${megabytes(size)}; edit_file opens files up to 10 MB. Nothing was changed.`)
      const text = textOf(before)
      if (text === null) return refuse(`edit_file: ${path} is a binary file; nothing was changed.`)
      old = text
      const edited = applyEdit(text, path, call.oldString, call.newString, call.replaceAll)
      if (!edited.ok) return refuse(edited.reason)
      after = edited.content
      summary = `Edited ${path}: replaced ${edited.count} occurrence${edited.count === 1 ? '' : 's'}`
    }
    const diff = diffFile(path, old ?? before, after)
    const verb = call.name === 'edit_file' ? 'Edit' : before === null ? 'Create' : 'Write'
    const shown = { verb, path, added: diff.added, removed: diff.removed, diff: diff.text } as const
    if (!apply) return { ok: true, result: '', ...shown }
    try {
      await deps.put([[where.absolute, after]], [], true)
    } catch (error) {
      return refuse(`${name} failed: ${error instanceof Error ? error.message : String(error)}. Nothing was changed.`)
    }
    return { ok: true, result: `${summary} (+${diff.added} −${diff.removed} lines).`, ...shown }
  }

  function contentOf(entry: Before | undefined): FileContent {
    return entry?.kind === 'file' ? entry.content : null
  }

  function diffOf(scope: 'all' | 'last'): DiffAnswer {
    const answer: DiffAnswer = { scope, text: '', files: 0, added: 0, removed: 0 }
    const parts: string[] = []
    const befores = [...history.befores(scope)].filter(([path]) => path.startsWith(prefix)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    for (const [path, before] of befores) {
      const now = deps.snapshot.get(path)
      const after = now?.kind === 'file' ? now.content : null
      const old = contentOf(before)
      if (sameContent(old, after)) continue
      const diff = diffFile(relative(path), old, after)
      parts.push(diff.text)
      answer.files++
      answer.added += diff.added
      answer.removed += diff.removed
    }
    answer.text = parts.join('\n')
    return answer
  }

  async function undo(): Promise<UndoAnswer> {
    const turn = history.popTurn()
    if (!turn) return { restored: [], message: 'Nothing to undo: no turn has changed any files.' }
    const write: Array<[string, string | Uint8Array]> = []
    const remove: string[] = []
    for (const [path, before] of turn) {
      if (before === null) remove.push(path)
      else if (before.kind === 'file') write.push([path, before.content])
    }
    try {
      await deps.put(write, remove, false)
    } catch (error) {
      return { restored: [], message: `Undo failed: ${error instanceof Error ? error.message : String(error)}. The files were left as they are.` }
    }
    const restored = [...turn.keys()].map(relative).sort()
    return { restored, message: `Restored ${restored.length} file${restored.length === 1 ? '' : 's'} to how ${restored.length === 1 ? 'it was' : 'they were'} before the last turn: ${restored.join(', ')}` }
  }

  return async (request) => {
    try {
      switch (request.op) {
        case 'turn':
          history.beginTurn()
          return null
        case 'file':
          return await fileOp(String(request.name), String(request.arguments ?? ''), String(request.cwd ?? root), request.apply !== false)
        case 'diff':
          return diffOf(request.scope === 'last' ? 'last' : 'all')
        case 'undo':
          return await undo()
        default:
          return null
      }
    } catch (error) {
      return refuse(`The workspace failed: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
}

/** Whether two contents hold the same bytes (a string and its UTF-8 bytes are the same). */
function sameContent(a: FileContent, b: FileContent): boolean {
  if (a === null || b === null) return a === b
  if (typeof a === 'string' && typeof b === 'string') return a === b
  const bytes = (c: string | Uint8Array) => (typeof c === 'string' ? new TextEncoder().encode(c) : c)
  const x = bytes(a)
  const y = bytes(b)
  if (x.byteLength !== y.byteLength) return false
  for (let i = 0; i < x.byteLength; i++) if (x[i] !== y[i]) return false
  return true
}
