/**
 * The session files of stored-files.ts in the Origin Private File System, where the browser has
 * it (with `createWritable`): `<namespace>-files/<session>/`, a journal of entries
 * (journal-entry.ts). Each change is one new file, never a rewrite of a stored one: `j-<gen>`
 * holds every record one command or edit wrote, and `b-<gen>` (a base) the whole session. A
 * write that a closed tab cuts off leaves an entry without its trailer, which the next load rolls
 * back as a whole, so each file is as it was before the change or after it, never missing.
 *
 * The journal is folded into a new base now and then (`needsBase`); the base before it and the
 * entries since are kept, so a record that later rots on disk still has a last good version.
 */
import { encodeEntry, recordOf, type JournalWrite } from './journal-entry'
import { isLegacyName, loadLegacyRecords } from './opfs-legacy-records'
import { entryName, loadJournal, nameOf, type EntryFile } from './opfs-journal-load'
import type { SnapshotEntry } from './snapshot-store'
import type { HistoryEntry } from './change-history'
import type { StoredChange, StoredFiles } from './stored-files'

type Dir = FileSystemDirectoryHandle & { values(): AsyncIterable<FileSystemHandle> }

/** After this many changes, or this many bytes written since the last base, a new base is due. */
const BASE_AFTER_ENTRIES = 50
const BASE_AFTER_BYTES = 64 * 1024 * 1024

/** Whether this browser can keep the files in OPFS from the page (Safari's page cannot write there). */
export function opfsAvailable(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.storage?.getDirectory === 'function' && typeof FileSystemFileHandle !== 'undefined' && 'createWritable' in FileSystemFileHandle.prototype
}

/** What the store knows of a session's journal: the next gen, the last base, what came since. */
type JournalState = { next: number; lastBase: number | null; entries: number; bytes: number }

/** The OPFS file store of `namespace`; `root` (tests) stands in for the origin's OPFS root. */
export function openOpfsStoredFiles(namespace: string, root: () => Promise<FileSystemDirectoryHandle> = () => navigator.storage.getDirectory()): StoredFiles {
  let base: Promise<FileSystemDirectoryHandle> | null = null
  const baseDir = () => (base ??= root().then((dir) => dir.getDirectoryHandle(`${namespace}-files`, { create: true })))
  const sessionDir = async (id: string, create: boolean) => (await baseDir()).getDirectoryHandle(encodeURIComponent(id), { create }) as Promise<Dir>
  const states = new Map<string, JournalState>()

  const list = async (dir: Dir) => {
    const entries: EntryFile[] = []
    const others: FileSystemHandle[] = []
    for await (const handle of dir.values()) {
      const named = handle.kind === 'file' ? entryName(handle.name) : null
      if (named) entries.push({ ...named, handle: handle as FileSystemFileHandle })
      else others.push(handle)
    }
    return { entries, others }
  }
  const stateOf = (entries: EntryFile[]): JournalState => {
    const lastBase = Math.max(-1, ...entries.filter((e) => e.base).map((e) => e.gen))
    return { next: Math.max(0, ...entries.map((e) => e.gen)) + 1, lastBase: lastBase < 0 ? null : lastBase, entries: entries.filter((e) => e.gen > lastBase).length, bytes: 0 }
  }
  const state = async (id: string, dir: Dir) => {
    let known = states.get(id)
    if (!known) states.set(id, (known = stateOf((await list(dir)).entries)))
    return known
  }
  /** Writes one entry; a failed write leaves no entry behind that a load could mistake for one. */
  const append = async (dir: Dir, gen: number, isBase: boolean, writes: JournalWrite[]) => {
    const name = nameOf(gen, isBase)
    const blob = new Blob(encodeEntry(gen, isBase, writes))
    const writable = await (await dir.getFileHandle(name, { create: true })).createWritable()
    try {
      await writable.write(blob)
      await writable.close()
    } catch (error) {
      await writable.abort().catch(() => undefined)
      await dir.removeEntry(name).catch(() => undefined) // an empty file: a load would roll it back anyway
      throw error
    }
    return blob.size
  }
  const remove = async (dir: FileSystemDirectoryHandle, name: string, recursive = false) => {
    try {
      await dir.removeEntry(name, { recursive })
    } catch (error) {
      if ((error as DOMException).name !== 'NotFoundError') throw error
    }
  }

  return {
    async load(id) {
      let dir: Dir
      try {
        dir = await sessionDir(id, false)
      } catch (error) {
        if ((error as DOMException).name === 'NotFoundError') return null
        throw error
      }
      const { entries, others } = await list(dir)
      states.set(id, stateOf(entries))
      const legacy = others.filter((h) => h.kind === 'file' && isLegacyName(h.name)) as FileSystemFileHandle[]
      if (entries.length === 0 && legacy.length > 0) return loadLegacyRecords(legacy)
      const cut: EntryFile[] = []
      const loaded = await loadJournal(entries, cut)
      // A cut-off write is rolled back: its empty or partial file goes, so its gen can be reused.
      await Promise.all(cut.map((entry) => remove(dir, entry.handle.name).catch(() => undefined)))
      return loaded
    },
    async write(id, change: StoredChange) {
      const dir = await sessionDir(id, true)
      const known = await state(id, dir)
      const writes = writesOf(change)
      if (writes.length === 0) return
      const gen = known.next++
      known.bytes += await append(dir, gen, false, writes)
      known.entries++
    },
    async replace(id, entries, history = []) {
      const dir = await sessionDir(id, true) // the folder itself says the session has stored files
      const known = await state(id, dir)
      const gen = known.next++
      await append(dir, gen, true, [...baseWrites(entries, history)])
      // Kept: the base before this one and every entry since, for last good versions.
      const keepFrom = known.lastBase ?? gen
      known.lastBase = gen
      known.entries = 0
      known.bytes = 0
      const { entries: files, others } = await list(dir)
      const stale = [...files.filter((e) => e.gen < keepFrom).map((e) => e.handle), ...others]
      await Promise.all(stale.map((handle) => remove(dir, handle.name, handle.kind === 'directory')))
    },
    async remove(id) {
      states.delete(id)
      await remove(await baseDir(), encodeURIComponent(id), true)
    },
    needsBase(id) {
      const known = states.get(id)
      return known !== undefined && (known.entries >= BASE_AFTER_ENTRIES || known.bytes >= BASE_AFTER_BYTES)
    },
  }
}

function writesOf({ delta, noted = [], popped = [] }: StoredChange): JournalWrite[] {
  const writes: JournalWrite[] = []
  for (const [turn, paths] of popped) for (const path of paths) writes.push({ record: { t: 'h', path, turn, del: true } })
  for (const [turn, path, before] of noted) writes.push(recordOf('h', path, before, turn))
  // Within one entry the first record of a path is the one a load takes: a path removed and then
  // written again is stored as written.
  const written = new Set((delta?.changed ?? []).map(([path]) => path))
  for (const path of delta?.removed ?? []) if (!written.has(path)) writes.push({ record: { t: 'f', path, del: true } })
  for (const [path, entry] of delta?.changed ?? []) writes.push(recordOf('f', path, entry))
  return writes
}

function* baseWrites(entries: Iterable<[string, SnapshotEntry]>, history: HistoryEntry[]): Iterable<JournalWrite> {
  for (const [path, entry] of entries) yield recordOf('f', path, entry)
  for (const [turn, path, before] of history) yield recordOf('h', path, before, turn)
}
