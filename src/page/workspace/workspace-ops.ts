/**
 * The workspace's side of the engine's workspace ops (src/shared/protocol/workspace-ops.ts): a turn's
 * start, the file tools (run in the bash worker, file-tool-worker.ts), and /diff and /undo over
 * the change history (change-history.ts). Runs on the page, next to the snapshot of the files.
 */

import type { DiffAnswer, FileOpAnswer, UndoAnswer, WorkspaceOpAnswer, WorkspaceOpRequest } from '../../shared/protocol/workspace-ops'
import type { Before, ChangeHistory } from './change-history'
import type { FileToolRequest } from '../../bash-worker/file-tool-worker'
import type { Snapshot } from './snapshot-store'
import { diffFile, type FileContent } from '../../shared/workspace/unified-diff'

export type WorkspaceOpsDeps = {
  root: string
  snapshot: Snapshot
  history: ChangeHistory
  /**
   * Runs a file tool call in the bash worker (file-tool-worker.ts) and applies its change to the
   * snapshot, recorded in the history. Rejects with a readable message.
   */
  fileTool(request: FileToolRequest): Promise<FileOpAnswer>
  /** Writes and removes files in the worker and applies the change to the snapshot, unrecorded (an undo). */
  restore(write: Array<[string, string | Uint8Array]>, remove: string[]): Promise<void>
}

const refuse = (result: string): FileOpAnswer => ({ ok: false, result })

/** Runs one op; never rejects (a failure is an answer). `turn` answers null. */
export function createWorkspaceOps(deps: WorkspaceOpsDeps): (request: WorkspaceOpRequest) => Promise<WorkspaceOpAnswer | null> {
  const { root, history } = deps
  const prefix = root === '/' ? '/' : `${root}/`
  const relative = (path: string) => (path.startsWith(prefix) ? path.slice(prefix.length) : path)

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
      await deps.restore(write, remove)
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
        case 'session':
          history.reset()
          return null
        case 'file':
          return await deps.fileTool({ name: String(request.name), arguments: String(request.arguments ?? ''), cwd: String(request.cwd ?? root), apply: request.apply !== false })
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
