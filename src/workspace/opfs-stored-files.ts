/**
 * The session files of stored-files.ts in the Origin Private File System, where the browser has
 * it (with `createWritable`): `<namespace>-files/<session>/`, one file per record. A record is a
 * JSON header line (its path, its kind, the turn for a history record) and then the content's
 * bytes. Names are a hash of the record's key, so any path fits a file name; the header says
 * which path it is. A file is replaced only when its writable stream closes, so a tab closed
 * mid-write leaves every file as it was before or after.
 */
import type { HistoryEntry } from './change-history'
import type { SnapshotEntry } from './snapshot-store'
import type { LoadedFiles, StoredChange, StoredFiles } from './stored-files'

type Header = { path: string; turn?: number; kind: 'file' | 'dir' | 'symlink' | 'none'; text?: boolean; mode?: number; mtimeMs?: number; target?: string }
type Dir = FileSystemDirectoryHandle & { values(): AsyncIterable<FileSystemHandle> }


/** Whether this browser can keep the files in OPFS from the page (Safari's page cannot write there). */
export function opfsAvailable(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.storage?.getDirectory === 'function' && typeof FileSystemFileHandle !== 'undefined' && 'createWritable' in FileSystemFileHandle.prototype
}

export function openOpfsStoredFiles(namespace: string): StoredFiles {
  let base: Promise<FileSystemDirectoryHandle> | null = null
  const baseDir = () => (base ??= navigator.storage.getDirectory().then((root) => root.getDirectoryHandle(`${namespace}-files`, { create: true })))
  const sessionDir = async (id: string, create: boolean) => (await baseDir()).getDirectoryHandle(encodeURIComponent(id), { create })

  const put = async (dir: FileSystemDirectoryHandle, name: string, header: Header, content?: string | Uint8Array) => {
    const writable = await (await dir.getFileHandle(name, { create: true })).createWritable()
    try {
      await writable.write(new Blob([`${JSON.stringify(header)}\n`, ...(content === undefined ? [] : [content as BlobPart])]))
      await writable.close()
    } catch (error) {
      await writable.abort().catch(() => undefined) // the file keeps what it held
      throw error
    }
  }
  const drop = async (dir: FileSystemDirectoryHandle, name: string) => {
    try {
      await dir.removeEntry(name)
    } catch (error) {
      if ((error as DOMException).name !== 'NotFoundError') throw error
    }
  }
  const putEntry = (dir: FileSystemDirectoryHandle, path: string, entry: SnapshotEntry) => put(dir, fileName(path), ...recordOf(path, entry))
  const putBefore = (dir: FileSystemDirectoryHandle, [turn, path, before]: HistoryEntry) =>
    before === null ? put(dir, historyName(turn, path), { path, turn, kind: 'none' }) : put(dir, historyName(turn, path), ...recordOf(path, before, turn))

  return {
    async load(id) {
      let dir: FileSystemDirectoryHandle
      try {
        dir = await sessionDir(id, false)
      } catch (error) {
        if ((error as DOMException).name === 'NotFoundError') return null
        throw error
      }
      const loaded: LoadedFiles = { entries: [], history: [], unreadable: [] }
      const reads: Array<Promise<void>> = []
      for await (const handle of (dir as Dir).values()) {
        if (handle.kind !== 'file') continue
        reads.push(
          (handle as FileSystemFileHandle).getFile().then(
            async (file) => {
              const record = parseRecord(new Uint8Array(await file.arrayBuffer()))
              if (!record) return void loaded.unreadable.push(handle.name)
              if (record.turn !== undefined) loaded.history.push([record.turn, record.path, record.entry?.kind === 'dir' ? null : (record.entry as HistoryEntry[2])])
              else if (record.entry) loaded.entries.push([record.path, record.entry])
            },
            () => void loaded.unreadable.push(handle.name),
          ),
        )
      }
      await Promise.all(reads)
      return loaded
    },
    async write(id, { delta, noted = [], popped = [] }: StoredChange) {
      const dir = await sessionDir(id, true)
      for (const [turn, paths] of popped) for (const path of paths) await drop(dir, historyName(turn, path))
      for (const entry of noted) await putBefore(dir, entry)
      for (const path of delta?.removed ?? []) await drop(dir, fileName(path))
      for (const [path, entry] of delta?.changed ?? []) await putEntry(dir, path, entry)
    },
    async replace(id, entries, history = []) {
      await this.remove(id)
      const dir = await sessionDir(id, true) // the folder itself says the session has stored files
      for (const [path, entry] of entries) await putEntry(dir, path, entry)
      for (const entry of history) await putBefore(dir, entry)
    },
    async remove(id) {
      try {
        await (await baseDir()).removeEntry(encodeURIComponent(id), { recursive: true })
      } catch (error) {
        if ((error as DOMException).name !== 'NotFoundError') throw error
      }
    },
  }
}

function recordOf(path: string, entry: SnapshotEntry, turn?: number): [Header, (string | Uint8Array)?] {
  const header: Header = { path, kind: entry.kind, ...(turn === undefined ? {} : { turn }) }
  if ('mode' in entry && entry.mode !== undefined) header.mode = entry.mode
  if ('mtimeMs' in entry && entry.mtimeMs !== undefined) header.mtimeMs = entry.mtimeMs
  if (entry.kind === 'symlink') return [{ ...header, target: entry.target }]
  if (entry.kind === 'dir') return [header]
  return [{ ...header, text: typeof entry.content === 'string' }, entry.content]
}

/** A record's path, turn and entry (null entry: "did not exist"), or null when it cannot be read. */
function parseRecord(bytes: Uint8Array): { path: string; turn?: number; entry: SnapshotEntry | null } | null {
  const end = bytes.indexOf(10)
  if (end < 0) return null
  let header: Header
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(0, end))) as Header
  } catch {
    return null
  }
  if (typeof header?.path !== 'string') return null
  const at = { path: header.path, ...(typeof header.turn === 'number' ? { turn: header.turn } : {}) }
  const meta = { ...(header.mode === undefined ? {} : { mode: header.mode }), ...(header.mtimeMs === undefined ? {} : { mtimeMs: header.mtimeMs }) }
  const body = bytes.slice(end + 1)
  if (header.kind === 'none') return { ...at, entry: null }
  if (header.kind === 'dir') return { ...at, entry: { kind: 'dir', ...meta } }
  if (header.kind === 'symlink') return typeof header.target === 'string' ? { ...at, entry: { kind: 'symlink', target: header.target } } : null
  if (header.kind !== 'file') return null
  return { ...at, entry: { kind: 'file', content: header.text ? new TextDecoder().decode(body) : body, ...meta } }
}

const fileName = (path: string) => `f-${hash(path)}`
const historyName = (turn: number, path: string) => `h-${turn}-${hash(path)}`

/** FNV-1a over the path's UTF-16 units, twice with different seeds: 64 bits, as hex. */
function hash(text: string): string {
  let a = 0x811c9dc5
  let b = 0x01000193 ^ 0x5bd1e995
  for (let i = 0; i < text.length; i++) {
    a = Math.imul(a ^ text.charCodeAt(i), 0x01000193)
    b = Math.imul(b ^ text.charCodeAt(i), 0x01000193 + 2)
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0')
}
