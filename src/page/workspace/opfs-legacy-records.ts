/**
 * Reads a session folder written before the journal (opfs-stored-files.ts): one file per record,
 * `f-<hash>` for a file and `h-<turn>-<hash>` for a history "before", each a JSON header line
 * (path, kind, turn) and then the bytes. Kept so files stored by an older fxterm come back; the
 * first write after such a load stores them again as a journal base and removes these.
 */
import type { HistoryEntry } from './change-history'
import type { SnapshotEntry } from './snapshot-store'
import type { LoadedFiles } from './stored-files'

type Header = { path: string; turn?: number; kind: 'file' | 'dir' | 'symlink' | 'none'; text?: boolean; mode?: number; mtimeMs?: number; target?: string }

/** Whether a name is a record of the older layout. */
export const isLegacyName = (name: string) => /^[fh]-/.test(name)

/** The files and history of the older layout's records (handles of `f-`/`h-` files). */
export async function loadLegacyRecords(handles: FileSystemFileHandle[]): Promise<LoadedFiles> {
  const loaded: LoadedFiles = { entries: [], history: [], unreadable: [], recovered: [], damaged: 0, heal: true }
  await Promise.all(
    handles.map(async (handle) => {
      const record = await handle.getFile().then(async (file) => parseRecord(new Uint8Array(await file.arrayBuffer())), () => null)
      // A record the older layout could not read names no path: only its count can be told.
      if (!record) return void loaded.damaged++
      if (record.turn !== undefined) loaded.history.push([record.turn, record.path, record.entry?.kind === 'dir' ? null : (record.entry as HistoryEntry[2])])
      else if (record.entry) loaded.entries.push([record.path, record.entry])
    }),
  )
  return loaded
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
