/**
 * Keeps the bash workspace's files with the session they belong to (stored-files.ts). The page
 * says which session is current and how it became current; from then on every change to the
 * main thread's snapshot is written, and only the change: one write per command or edit, which
 * the workspace waits for before it answers, so a result on screen is a result stored. A store
 * that fails once (blocked, full) is not written again in this tab: the person is told at once,
 * the files stay in memory, and nothing stored is overwritten with less.
 */
import type { HistoryEntry, HistoryListener } from './change-history'
import { messageOf } from '../../shared/workspace/exec-result'
import type { Snapshot, SnapshotDelta, SnapshotEntry } from './snapshot-store'
import type { LoadedFiles, StoredFiles } from './stored-files'

/**
 * How a session became current: `open` (resumed, this tab writes it), `read-only` (another tab
 * writes it), `new` (/new: the seed files), `fork` (a copy of the files at hand: a fork, or the
 * first session of a fresh page).
 */
export type SessionChange = 'open' | 'read-only' | 'new' | 'fork'

export type SessionFilesDeps = {
  store: StoredFiles
  snapshot: Snapshot
  /** The seed files, fetched ones included (for `new`). */
  seed(): Promise<Snapshot>
  /** The snapshot was replaced: the shell must start again from it, with this change history. */
  replaced(history: HistoryEntry[]): void
  /** The change history as it is (a fork copies it). */
  history(): HistoryEntry[]
  /** A line for the screen, at once: the store failed, or stored files came back damaged. */
  notify?(line: string): void
  /** Writes are on their way (true) or all settled (false): a closing tab should wait. */
  busy?(busy: boolean): void
}

export type SessionFiles = HistoryListener & {
  /** Makes `id` the current session; call it between commands. Answers a notice, if any. */
  use(id: string, how: SessionChange): Promise<string | null>
  /** Stores a change already applied to the snapshot (no-op when none is current); resolves once it is stored or has failed. */
  changed(delta: SnapshotDelta): Promise<void>
  /** The snapshot was replaced from elsewhere (an opened folder): store it as the session's files, with no history. */
  adopt(): void
  /** Removes a session's stored files. */
  forget(id: string): Promise<void>
  /** Every write so far has settled (tests and benchmarks). */
  settled(): Promise<void>
  /** A notice to show once (a failed store), or null. */
  takeNotice(): string | null
  /** Whether the page has told which session is current (from then on it also says when that changes). */
  readonly bound: boolean
}

export function createSessionFiles(deps: SessionFilesDeps): SessionFiles {
  const { store, snapshot } = deps
  let current: { id: string; writable: boolean } | null = null
  let failed = false
  let notice: string | null = null
  let writes: Promise<void> = Promise.resolve()
  let pending = 0
  let noted: HistoryEntry[] = [] // "befores" the history noted for the change about to be applied

  const fail = (error: unknown) => {
    if (failed) return
    failed = true
    notice = `fxterm: the workspace files could not be stored (${messageOf(error)}); they stay in this tab until it closes, and what was stored before is kept`
    deps.notify?.(notice)
  }
  const queue = (write: () => Promise<void>): Promise<void> => {
    if (failed) return Promise.resolve()
    if (pending++ === 0) deps.busy?.(true)
    writes = writes
      .then(() => (failed ? undefined : write().catch(fail)))
      .finally(() => {
        if (--pending === 0) deps.busy?.(false)
      })
    return writes
  }
  /** Folds the journal into one base when the store asks, with the state as it is now (one at a time). */
  let basing = false
  const baseIfDue = (id: string) => {
    if (basing || !store.needsBase?.(id)) return
    basing = true
    const copy = [...snapshot]
    const history = deps.history()
    void queue(() => store.replace(id, copy, history)).finally(() => (basing = false))
  }
  const replaceWith = (entries: Iterable<[string, SnapshotEntry]>, history: HistoryEntry[]) => {
    const next = [...entries]
    snapshot.clear()
    for (const [path, entry] of next) snapshot.set(path, entry)
    noted = []
    deps.replaced(history)
  }

  return {
    async use(id, how) {
      if (current?.id === id) {
        if (how !== 'read-only') current.writable = true
        return null
      }
      current = { id, writable: how !== 'read-only' }
      if (how === 'new') replaceWith(await deps.seed(), [])
      if (how === 'new' || how === 'fork') {
        const copy = [...snapshot]
        const history = deps.history()
        void queue(() => store.replace(id, copy, history))
        return null
      }
      let loaded
      try {
        await writes // the session's own last changes may still be on their way
        loaded = await store.load(id)
      } catch (error) {
        const told = `fxterm: the files of this session could not be read (${messageOf(error)}); the workspace keeps the files it has`
        deps.notify?.(told)
        return told
      }
      if (!loaded) {
        // A session saved before its files were: it gets the files at hand from now on.
        if (current.writable) {
          const copy = [...snapshot]
          const history = deps.history()
          void queue(() => store.replace(id, copy, history))
        }
        return null
      }
      replaceWith(loaded.entries, loaded.history)
      // Damage is stored over with the state that came back, so the next load does not meet it.
      if (loaded.heal && current.writable) {
        const copy = [...snapshot]
        const history = loaded.history
        void queue(() => store.replace(id, copy, history))
      }
      const told = damageNotice(loaded)
      if (told) deps.notify?.(told)
      return told
    },
    noted(entry) {
      noted.push(entry)
    },
    popped(turn, paths) {
      if (!current?.writable) return
      const id = current.id
      void queue(() => store.write(id, { popped: [[turn, paths]] }))
    },
    changed(delta) {
      const befores = noted
      noted = []
      if (!current?.writable || (delta.changed.length === 0 && delta.removed.length === 0 && befores.length === 0)) return Promise.resolve()
      const id = current.id
      const stored = queue(() => store.write(id, { delta, noted: befores }))
      baseIfDue(id)
      return stored
    },
    adopt() {
      noted = []
      if (!current?.writable) return
      const id = current.id
      const copy = [...snapshot]
      void queue(() => store.replace(id, copy, []))
    },
    async forget(id) {
      if (current?.id === id) current = null
      await writes
      await store.remove(id).catch(fail)
    },
    settled: () => writes,
    get bound() {
      return current !== null
    },
    takeNotice() {
      const told = notice
      notice = null
      return told
    },
  }
}

/** What the person is told at load about stored files that came back damaged, by path; or null. */
export function damageNotice({ unreadable, recovered, damaged }: LoadedFiles): string | null {
  const parts: string[] = []
  const files = (n: number) => `${n} stored file${n === 1 ? '' : 's'}`
  if (recovered.length > 0) parts.push(`${files(recovered.length)} could not be read and ${recovered.length === 1 ? 'its' : 'their'} last good version came back: ${recovered.join(', ')}`)
  if (unreadable.length > 0) parts.push(`${files(unreadable.length)} could not be read and ${unreadable.length === 1 ? 'was' : 'were'} set aside: ${unreadable.join(', ')} (no earlier version was kept)`)
  if (damaged > 0) parts.push(`${damaged === 1 ? 'a stored change' : `${damaged} stored changes`} could not be read, so the files ${damaged === 1 ? 'it' : 'they'} changed are as before ${damaged === 1 ? 'it' : 'them'}`)
  return parts.length === 0 ? null : `fxterm: ${parts.join('; ')}.`
}
