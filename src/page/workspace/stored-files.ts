/**
 * The workspace files of each saved session, in IndexedDB (`<namespace>-files`), so the work
 * lasts as long as the conversation. One record per file, keyed `[sessionId, path]`, plus a
 * marker `[sessionId, '']` that says the session has stored files (even none), and the change
 * history for /diff and /undo as `[sessionId, path, turn]` → the file before that turn. Each
 * change is one transaction, so a tab closed mid-write leaves every file as it was before or
 * after. A file's version before its last change is kept as `[sessionId, path, 'prev']`: a
 * record that can no longer be read comes back as that last good version.
 */
import { promisifyRequest, type UseStore } from 'idb-keyval'
import { databaseName, keyvalStore } from '../../engine-worker/stores/keyval-database'
import type { HistoryEntry } from './change-history'
import type { SnapshotDelta, SnapshotEntry } from './snapshot-store'

/**
 * A session's stored files and history, as they can be read back: `unreadable` paths had no
 * readable version and are left out; `recovered` paths came back as their last good version;
 * `damaged` counts stored changes whose list of paths itself could not be read; `heal` asks for
 * the loaded state to be stored again as a whole (so the damage is not met on every load).
 */
export type LoadedFiles = {
  entries: Array<[string, SnapshotEntry]>
  history: HistoryEntry[]
  unreadable: string[]
  recovered: string[]
  damaged: number
  heal: boolean
}

/** A change to store: the files' delta, the history's new "befores", and turns taken off it. */
export type StoredChange = { delta?: SnapshotDelta; noted?: HistoryEntry[]; popped?: Array<[turn: number, paths: string[]]> }

/** What the bash workspace asks of the file store. */
export type StoredFiles = {
  /** The session's files, or null when it has none stored (a session older than this store). */
  load(sessionId: string): Promise<LoadedFiles | null>
  /** Writes one command's or edit's changes. */
  write(sessionId: string, change: StoredChange): Promise<void>
  /** Replaces every file of the session and its history (a new session's seed, a fork's copy). */
  replace(sessionId: string, entries: Iterable<[string, SnapshotEntry]>, history?: HistoryEntry[]): Promise<void>
  /** Removes the session's files. */
  remove(sessionId: string): Promise<void>
  /** Whether the session's changes should now be folded into one `replace` (a journal's base). */
  needsBase?(sessionId: string): boolean
}

const MARKER = ''
const PREV = 'prev'
const MARKER_ENTRY: SnapshotEntry = { kind: 'dir' }

/** The file store of `namespace` (a fresh IndexedDB factory in tests). */
export function openStoredFiles(namespace: string, factory?: IDBFactory): StoredFiles {
  const useStore: UseStore = keyvalStore(databaseName(namespace, 'files'), factory)
  const sessionRange = (id: string) => IDBKeyRange.bound([id], [id, []])
  const inOneTransaction = (body: (store: IDBObjectStore) => void): Promise<void> =>
    useStore('readwrite', (store) => {
      body(store)
      return promisifyRequest(store.transaction)
    })

  return {
    load: (id) =>
      useStore('readonly', async (store) => {
        const range = sessionRange(id)
        const [keys, values] = await Promise.all([promisifyRequest(store.getAllKeys(range)), promisifyRequest(store.getAll(range))])
        if (keys.length === 0) return null
        const loaded: LoadedFiles = { entries: [], history: [], unreadable: [], recovered: [], damaged: 0, heal: false }
        const previous = new Map<string, unknown>()
        keys.forEach((key, i) => {
          const [, path, third] = key as [string, string, (number | string)?]
          if (third === PREV) previous.set(path, values[i])
        })
        keys.forEach((key, i) => {
          const [, path, turn] = key as [string, string, (number | string)?]
          if (path === MARKER || turn === PREV) return
          const value = values[i]
          if (typeof turn === 'number') {
            // A history record that cannot be read is left out: /undo then skips that file.
            if (value === null || (isEntry(value) && value.kind !== 'dir')) loaded.history.push([turn, path, value])
          } else if (isEntry(value)) loaded.entries.push([path, value])
          else {
            const last = previous.get(path)
            // The last good version is stored again as the file (heal); with none, the record stays set aside.
            if (isEntry(last)) (loaded.entries.push([path, last]), loaded.recovered.push(path), (loaded.heal = true))
            else loaded.unreadable.push(path)
          }
        })
        return loaded
      }),
    write: (id, { delta, noted = [], popped = [] }) =>
      inOneTransaction((store) => {
        store.put(MARKER_ENTRY, [id, MARKER])
        for (const [turn, paths] of popped) for (const path of paths) store.delete([id, path, turn])
        for (const [turn, path, before] of noted) store.put(before, [id, path, turn])
        for (const path of delta?.removed ?? []) (store.delete([id, path]), store.delete([id, path, PREV]))
        for (const [path, entry] of delta?.changed ?? []) {
          // Requests run in order: the get sees the version the put replaces, kept if it is readable.
          const before = store.get([id, path])
          before.onsuccess = () => {
            if (isEntry(before.result)) store.put(before.result, [id, path, PREV])
          }
          store.put(entry, [id, path])
        }
      }),
    replace: (id, entries, history = []) =>
      inOneTransaction((store) => {
        store.delete(sessionRange(id))
        store.put(MARKER_ENTRY, [id, MARKER])
        for (const [path, entry] of entries) store.put(entry, [id, path])
        for (const [turn, path, before] of history) store.put(before, [id, path, turn])
      }),
    remove: (id) => inOneTransaction((store) => store.delete(sessionRange(id))),
  }
}

/** A record as the workspace wrote it (anything else is set aside, not restored). */
function isEntry(value: unknown): value is SnapshotEntry {
  if (typeof value !== 'object' || value === null) return false
  const entry = value as { kind?: unknown; content?: unknown; target?: unknown }
  if (entry.kind === 'file') return typeof entry.content === 'string' || entry.content instanceof Uint8Array
  if (entry.kind === 'dir') return true
  return entry.kind === 'symlink' && typeof entry.target === 'string'
}
