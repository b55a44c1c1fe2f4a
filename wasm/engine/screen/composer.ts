// The composer: the line editor under the transcript. Holds the draft as code points so that
// cursor moves and deletions never split a character. Here: editing, the kill ring (Ctrl+K/U/W,
// Alt+D, Alt+Backspace; Ctrl+Y yanks), undo/redo, the whole-draft selection (Cmd+A) and large
// pastes kept as placeholders. Motions are in composer-motion, rows in composer-layout, the
// paste store in composer-paste, the undo steps in composer-undo.

import { ByteBuf } from '../util/byte-buf'
import { Rows } from './layout'
import { layoutDraft } from './composer-layout'
import {
  lineEnd,
  lineStart,
  rowCells,
  spaceWordStartBefore,
  verticalTarget,
  wordEndAfter,
  wordStartBefore,
} from './composer-motion'
import { PasteStore, PASTE_COLLAPSE_OVER, normalizePaste, draftCodepoints, asciiCodepoints } from './composer-paste'
import { UndoHistory } from './composer-undo'

export { PROMPT } from './composer-layout'

// What the last action was: runs of typing, of Backspace and of Delete undo as one step each;
// consecutive kills join into one killed text; consecutive Up/Down keep the goal column.
const OP_OTHER = 0
const OP_TYPE = 1
const OP_BACKSPACE = 2
const OP_DELETE = 3
const OP_KILL = 4
const OP_VERTICAL = 5

export class Composer {
  text: Array<i32> = []
  cursor: i32 = 0
  // Where layout() put the cursor, relative to the composer's first row.
  cursorRow: i32 = 0
  cursorCol: i32 = 0
  /** The selection is [selStart, selEnd); selStart < 0 when nothing is selected. */
  selStart: i32 = -1
  selEnd: i32 = -1
  /** Large pastes of this session (their placeholders expand on submit). */
  pastes: PasteStore = new PasteStore()
  private undos: UndoHistory = new UndoHistory()
  private killed: Array<i32> = []
  private lastOp: i32 = OP_OTHER
  private goalCol: i32 = -1
  private cellBox: StaticArray<i32> = new StaticArray<i32>(2)
  private counts: StaticArray<i32> = new StaticArray<i32>(2)

  get isEmpty(): bool {
    return this.text.length == 0
  }

  get hasSelection(): bool {
    return this.selStart >= 0 && this.selEnd > this.selStart
  }

  // Typing and pasting

  /** A typed character (replaces the selection). */
  insert(cp: i32): void {
    this.begin(OP_TYPE)
    this.removeSelection()
    this.text.push(0)
    for (let i = this.text.length - 1; i > this.cursor; i--) unchecked((this.text[i] = this.text[i - 1]))
    unchecked((this.text[this.cursor] = cp))
    this.cursor++
  }

  newline(): void {
    this.begin(OP_OTHER)
    this.removeSelection()
    this.insertAll([0x0a])
  }

  /** A bracketed paste: one undo step; over PASTE_COLLAPSE_OVER characters it becomes a placeholder. */
  paste(bytes: ByteBuf): void {
    const norm = new ByteBuf(bytes.length + 1)
    normalizePaste(bytes, norm, this.counts)
    if (this.counts[0] == 0) return
    this.begin(OP_OTHER)
    this.removeSelection()
    if (this.counts[0] > PASTE_COLLAPSE_OVER) this.insertAll(asciiCodepoints(this.pastes.add(norm, this.counts[1] + 1)))
    else this.insertAll(draftCodepoints(norm))
  }

  /** A backslash right before the cursor becomes a new line (Enter after `\`). */
  continueLine(): bool {
    if (this.hasSelection || this.cursor == 0 || this.text[this.cursor - 1] != 0x5c) return false
    this.begin(OP_OTHER)
    this.text[this.cursor - 1] = 0x0a
    return true
  }

  backspace(): void {
    if (this.deleteSelection()) return
    if (this.cursor == 0) {
      this.touch()
      return
    }
    this.begin(OP_BACKSPACE)
    this.text.splice(this.cursor - 1, 1)
    this.cursor--
  }

  deleteForward(): void {
    if (this.deleteSelection()) return
    if (this.cursor >= this.text.length) {
      this.touch()
      return
    }
    this.begin(OP_DELETE)
    this.text.splice(this.cursor, 1)
  }

  // Moving

  left(): void {
    if (this.hasSelection) this.cursor = this.selStart
    else if (this.cursor > 0) this.cursor--
    this.moved()
  }

  right(): void {
    if (this.hasSelection) this.cursor = this.selEnd
    else if (this.cursor < this.text.length) this.cursor++
    this.moved()
  }

  /** Home, Ctrl+A, Cmd+Left: the start of the cursor's line. */
  home(): void {
    this.moveTo(lineStart(this.text, this.cursor))
  }

  /** End, Ctrl+E, Cmd+Right: the end of the cursor's line. */
  end(): void {
    this.moveTo(lineEnd(this.text, this.cursor))
  }

  top(): void {
    this.moveTo(0)
  }

  bottom(): void {
    this.moveTo(this.text.length)
  }

  wordLeft(): void {
    this.moveTo(wordStartBefore(this.text, this.cursor))
  }

  wordRight(): void {
    this.moveTo(wordEndAfter(this.text, this.cursor))
  }

  /** One laid-out row up, keeping the column; false on the first row (history's turn). */
  up(cols: i32): bool {
    return this.vertical(-1, cols)
  }

  /** One laid-out row down, keeping the column; false on the last row. */
  down(cols: i32): bool {
    return this.vertical(1, cols)
  }

  private vertical(dir: i32, cols: i32): bool {
    this.deselect()
    const goal = this.lastOp == OP_VERTICAL ? this.goalCol : -1
    const to = verticalTarget(this.text, this.cursor, rowCells(cols), dir, goal, this.cellBox)
    if (to < 0) {
      this.touch()
      return false
    }
    if (goal < 0) this.goalCol = this.cellBox[0]
    this.cursor = to
    this.lastOp = OP_VERTICAL
    return true
  }

  // Killing and yanking

  /** Ctrl+K: to the end of the line; at the end of a line, the line break. */
  killToEnd(): void {
    let to = lineEnd(this.text, this.cursor)
    if (to == this.cursor && to < this.text.length) to++
    this.kill(this.cursor, to, true)
  }

  /** Ctrl+U, Cmd+Backspace: to the start of the line; at the start of a line, the line break. */
  killToStart(): void {
    let from = lineStart(this.text, this.cursor)
    if (from == this.cursor && from > 0) from--
    this.kill(from, this.cursor, false)
  }

  /** Ctrl+W: back to the previous space (as in a shell). */
  killSpaceWordBack(): void {
    this.kill(spaceWordStartBefore(this.text, this.cursor), this.cursor, false)
  }

  /** Alt+Backspace, Ctrl+Backspace: the word before the cursor. */
  killWordBack(): void {
    this.kill(wordStartBefore(this.text, this.cursor), this.cursor, false)
  }

  /** Alt+D, Ctrl+Delete: the word after the cursor. */
  killWordForward(): void {
    this.kill(this.cursor, wordEndAfter(this.text, this.cursor), true)
  }

  /** Ctrl+Y: inserts the last killed text (consecutive kills count as one). */
  yank(): void {
    if (this.killed.length == 0) {
      this.touch()
      return
    }
    this.begin(OP_OTHER)
    this.removeSelection()
    this.insertAll(this.killed)
  }

  private kill(from: i32, to: i32, forward: bool): void {
    this.deselect()
    if (from >= to) return
    const piece = this.text.slice(from, to)
    if (this.lastOp == OP_KILL) this.killed = forward ? this.killed.concat(piece) : piece.concat(this.killed)
    else this.killed = piece
    this.undos.record(this.text, this.cursor)
    this.replace(from, to, [])
    this.lastOp = OP_KILL
  }

  // Undo

  /** Ctrl+_, Cmd/Ctrl+Z. */
  undo(): void {
    const snap = this.undos.undo(this.text, this.cursor)
    if (snap != null) this.restore(snap.text, snap.cursor)
    this.touch()
  }

  /** Cmd/Ctrl+Shift+Z. */
  redo(): void {
    const snap = this.undos.redo(this.text, this.cursor)
    if (snap != null) this.restore(snap.text, snap.cursor)
    this.touch()
  }

  private restore(text: Array<i32>, cursor: i32): void {
    this.text = text
    this.cursor = min(cursor, text.length)
    this.deselect()
  }

  // Selection

  /** Cmd+A: the whole draft. */
  selectAll(): void {
    this.touch()
    if (this.text.length == 0) return
    this.selStart = 0
    this.selEnd = this.text.length
    this.cursor = this.text.length
  }

  /** The selected text as UTF-8 (placeholders expanded to their pastes), or null. */
  selectedText(): ByteBuf | null {
    if (!this.hasSelection) return null
    return this.pastes.expand(this.text, this.selStart, this.selEnd)
  }

  /** Deletes the selection as one undo step; false when nothing is selected. */
  deleteSelection(): bool {
    if (!this.hasSelection) return false
    this.begin(OP_OTHER)
    this.removeSelection()
    this.touch()
    return true
  }

  deselect(): void {
    this.selStart = -1
    this.selEnd = -1
  }

  // The whole draft

  /** Empties the draft (Ctrl+C, Esc Esc); undo brings it back. */
  clear(): void {
    this.deselect()
    if (this.text.length == 0) return
    this.begin(OP_OTHER)
    this.text = []
    this.cursor = 0
    this.touch()
  }

  /** Empties the draft after it was sent: a fresh start with nothing to undo. */
  reset(): void {
    this.text = []
    this.cursor = 0
    this.deselect()
    this.undos.reset()
    this.touch()
  }

  /** The draft as UTF-8, placeholders as typed. */
  toBuf(): ByteBuf {
    const out = new ByteBuf(this.text.length + 8)
    for (let i = 0; i < this.text.length; i++) out.codepoint(unchecked(this.text[i]))
    return out
  }

  /** The draft as UTF-8 with every intact placeholder replaced by its paste (what is sent). */
  expanded(): ByteBuf {
    return this.pastes.expand(this.text, 0, this.text.length)
  }

  /** Replaces the draft (history, a queued prompt taken back); a kept paste in it collapses again. */
  setText(buf: ByteBuf): void {
    this.begin(OP_OTHER)
    this.deselect()
    const norm = new ByteBuf(buf.length + 1)
    normalizePaste(this.pastes.collapse(buf), norm, this.counts)
    this.text = draftCodepoints(norm)
    this.cursor = this.text.length
    this.touch()
  }

  /** Lays the draft out into rows under the prompt and records where the cursor sits. */
  layout(rows: Rows, cols: i32, placeholder: string): void {
    const at = this.cellBox
    layoutDraft(rows, this.text, this.cursor, this.selStart, this.selEnd, cols, placeholder, at)
    this.cursorRow = at[0]
    this.cursorCol = at[1]
  }

  // Helpers

  /** Starts an edit: a new undo step unless it continues a run of the same kind. */
  private begin(op: i32): void {
    const continues = op == this.lastOp && (op == OP_TYPE || op == OP_BACKSPACE || op == OP_DELETE) && !this.hasSelection
    if (!continues) this.undos.record(this.text, this.cursor)
    this.lastOp = op
  }

  /** Ends runs (typing, kills, Up/Down column memory). */
  private touch(): void {
    this.lastOp = OP_OTHER
  }

  private moveTo(i: i32): void {
    this.cursor = i
    this.moved()
  }

  private moved(): void {
    this.deselect()
    this.touch()
  }

  private removeSelection(): void {
    if (!this.hasSelection) return
    const from = this.selStart
    const to = min(this.selEnd, this.text.length)
    this.deselect()
    this.replace(from, to, [])
  }

  private insertAll(cps: Array<i32>): void {
    this.replace(this.cursor, this.cursor, cps)
  }

  /** text[from, to) ← cps; the cursor ends after them. Linear in the draft. */
  private replace(from: i32, to: i32, cps: Array<i32>): void {
    this.text = this.text.slice(0, from).concat(cps).concat(this.text.slice(to))
    this.cursor = from + cps.length
  }
}
