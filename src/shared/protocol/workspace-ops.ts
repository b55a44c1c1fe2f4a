/**
 * What the engine asks of a workspace beyond commands (output frame 24, answered by input 19; see
 * wasm/ABI.md): the model's file tools, the start of a turn, /diff and /undo. A workspace that
 * answers them offers the file tools (createBashWorkspace does).
 */

export type WorkspaceOpRequest =
  /** A turn begins: changes from now on belong to it (for /undo and /diff last). No answer. */
  | { op: 'turn' }
  /** Another conversation begins (/new, a resume): /diff and /undo start over. No answer. */
  | { op: 'session' }
  /** A file tool call; `apply: false` only computes the diff (ask mode shows it before approval). */
  | { op: 'file'; name: string; arguments: string; cwd: string; apply: boolean }
  | { op: 'diff'; scope: 'all' | 'last' }
  | { op: 'undo' }

/**
 * A file tool's outcome: `result` is what the model reads; the row shows `verb path +added −removed`
 * and the unified `diff` (absent for a read or a refusal).
 */
export type FileOpAnswer = {
  ok: boolean
  result: string
  verb?: 'Read' | 'Write' | 'Create' | 'Edit'
  path?: string
  added?: number
  removed?: number
  diff?: string
}

/** /diff: the unified diff of every changed file, and totals. */
export type DiffAnswer = { scope: 'all' | 'last'; text: string; files: number; added: number; removed: number }

/** /undo: the files put back (relative to the root), and the sentence the person reads. */
export type UndoAnswer = { restored: string[]; message: string }

export type WorkspaceOpAnswer = FileOpAnswer | DiffAnswer | UndoAnswer
