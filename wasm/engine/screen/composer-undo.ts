// Undo and redo for the composer: each step is a copy of the draft and cursor from before an edit.
// Drafts stay short (large pastes are placeholders), so whole copies are simple and cheap; the
// history is still capped by steps and by the code points it holds.

const MAX_STEPS = 200
const MAX_HELD: i32 = 1 << 21 // code points across all undo steps

export class Snapshot {
  constructor(public text: Array<i32>, public cursor: i32) {}
}

export class UndoHistory {
  private undos: Array<Snapshot> = []
  private redos: Array<Snapshot> = []
  private held: i32 = 0

  /** Records the draft as it is before an edit; a new edit forgets what could be redone. */
  record(text: Array<i32>, cursor: i32): void {
    this.push(new Snapshot(text.slice(), cursor))
    this.redos = []
  }

  /** The state to go back to, after keeping the current one for redo; null if none. */
  undo(text: Array<i32>, cursor: i32): Snapshot | null {
    if (this.undos.length == 0) return null
    const snap = this.undos.pop()
    this.held -= snap.text.length
    this.redos.push(new Snapshot(text, cursor))
    return snap
  }

  redo(text: Array<i32>, cursor: i32): Snapshot | null {
    if (this.redos.length == 0) return null
    const snap = this.redos.pop()
    this.push(new Snapshot(text, cursor))
    return snap
  }

  reset(): void {
    this.undos = []
    this.redos = []
    this.held = 0
  }

  private push(snap: Snapshot): void {
    this.undos.push(snap)
    this.held += snap.text.length
    while (this.undos.length > 1 && (this.undos.length > MAX_STEPS || this.held > MAX_HELD)) {
      this.held -= this.undos.shift().text.length
    }
  }
}
