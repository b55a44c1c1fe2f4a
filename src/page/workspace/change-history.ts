/**
 * What the agent changed in the workspace, turn by turn, for /diff and /undo. For every file a
 * turn changed (by run_command or a file tool), the content it had before that turn is kept in
 * memory, once. The current content is the page's snapshot, so a diff is "before" against it.
 *
 * Where the workspace keeps files with their session, it keeps this history with them too: the
 * `listener` hears each "before" noted and each turn taken off, and `restore` puts a stored
 * history back after a reload.
 */

import type { Snapshot, SnapshotDelta, SnapshotEntry } from './snapshot-store'

/**
 * Whether `path` is inside a git repository's own directory (`.../.git/...`). Those files are
 * stored with the session like any other, but they are git's bookkeeping, not what a command
 * changed: /diff and /undo leave them out (an undo that rewound objects and refs but not the
 * work tree, or the reverse, would leave a repository that contradicts itself).
 */
export function isGitInternal(path: string): boolean {
  return path.endsWith('/.git') || path.includes('/.git/')
}

/** A file's entry before a turn, or null when it did not exist. Directories are not kept. */
export type Before = Exclude<SnapshotEntry, { kind: 'dir' }> | null

export type ChangeHistory = {
  /** A turn begins: the changes from now on are its own (a turn that changed nothing is not kept). */
  beginTurn(): void
  /** Records the entries `delta` is about to replace; call it before applying `delta` to `snapshot`. */
  record(snapshot: Snapshot, delta: SnapshotDelta): void
  /** Every changed path with its content at the start of the session (`all`) or of the last turn that changed files (`last`). */
  befores(scope: 'all' | 'last'): Map<string, Before>
  /** Takes the last turn that changed files off the stack: what to put back, or null when none is left. */
  popTurn(): Map<string, Before> | null
  /** Forgets every turn (another conversation begins). */
  reset(): void
  /** Puts back a stored history: `[turn index, path, before]` triples. */
  restore(entries: Iterable<HistoryEntry>): void
  /** Every "before" on the stack, as `[turn index, path, before]` (to store a copy). */
  entries(): HistoryEntry[]
  /** Turns on the stack that changed files. */
  readonly turns: number
}

/** One "before" of the history, by the index of its turn on the stack. */
export type HistoryEntry = [turn: number, path: string, before: Before]

/** Told of each change to the stack, so it can be stored. */
export type HistoryListener = {
  noted(entry: HistoryEntry): void
  popped(turn: number, paths: string[]): void
}

/** A change history; the first turn begins at once (changes before any prompt belong to it). */
export function createChangeHistory(listener?: HistoryListener): ChangeHistory {
  const stack: Array<Map<string, Before>> = [new Map()]
  const current = () => stack[stack.length - 1]!

  return {
    beginTurn() {
      if (current().size > 0) stack.push(new Map())
    },
    record(snapshot, delta) {
      const turn = current()
      const note = (path: string) => {
        if (turn.has(path) || isGitInternal(path)) return
        const entry = snapshot.get(path)
        if (entry?.kind === 'dir') return
        turn.set(path, entry ?? null)
        listener?.noted([stack.length - 1, path, entry ?? null])
      }
      for (const path of delta.removed) note(path)
      for (const [path, entry] of delta.changed) if (entry.kind !== 'dir') note(path)
    },
    befores(scope) {
      if (scope === 'last') return new Map([...stack].reverse().find((turn) => turn.size > 0) ?? [])
      const first = new Map<string, Before>()
      for (const turn of stack) for (const [path, entry] of turn) if (!first.has(path)) first.set(path, entry)
      return first
    },
    popTurn() {
      while (stack.length > 0 && current().size === 0) stack.pop()
      const turn = stack.pop() ?? null
      if (turn) listener?.popped(stack.length, [...turn.keys()])
      if (stack.length === 0) stack.push(new Map())
      return turn
    },
    reset() {
      stack.splice(0, stack.length, new Map())
    },
    restore(entries) {
      const turns: Array<Map<string, Before>> = []
      for (const [index, path, before] of entries) (turns[index] ??= new Map()).set(path, before)
      // Indices of turns taken off may be missing: keep their places, so later notes line up.
      stack.splice(0, stack.length, ...Array.from(turns, (turn) => turn ?? new Map()))
      if (stack.length === 0 || current().size > 0) stack.push(new Map())
    },
    entries() {
      return stack.flatMap((turn, index) => [...turn].map(([path, before]): HistoryEntry => [index, path, before]))
    },
    get turns() {
      return stack.filter((turn) => turn.size > 0).length
    },
  }
}
