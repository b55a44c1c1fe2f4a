/**
 * Loads a session's file journal (opfs-stored-files.ts) into files and history. Entries are
 * read newest first: a record's newest readable version wins, a base entry ends the search for
 * every record it does not hold, and an entry without its trailer (a write a closed tab cut
 * off) is rolled back as a whole. A body that does not match its sum is set aside and the
 * search goes on in older entries for its last good version, which is what comes back.
 */
import type { HistoryEntry } from './change-history'
import { bodyOffsets, entryOf, parseHeader, parseTrailer, recordKey, TRAILER_MAX, type JournalHeader, type JournalRecord } from './journal-entry'
import type { SnapshotEntry } from './snapshot-store'
import type { LoadedFiles } from './stored-files'

/** An entry's file in the session folder: `j-<gen>` (a change) or `b-<gen>` (a base: everything). */
export type EntryFile = { gen: number; base: boolean; handle: FileSystemFileHandle }

/** The gen and kind an entry's file name says, or null for another name. */
export function entryName(name: string): { gen: number; base: boolean } | null {
  const match = /^([jb])-(\d{12})$/.exec(name)
  return match ? { gen: Number(match[2]), base: match[1] === 'b' } : null
}

export const nameOf = (gen: number, base: boolean) => `${base ? 'b' : 'j'}-${String(gen).padStart(12, '0')}`

type Read = { file: File; header: JournalHeader; headerBytes: number } | 'cut' | 'damaged'

async function readHeader(handle: FileSystemFileHandle, gen: number): Promise<Read> {
  const file = await handle.getFile().catch(() => null)
  if (!file) return 'damaged'
  const tail = new Uint8Array(await file.slice(Math.max(0, file.size - TRAILER_MAX)).arrayBuffer())
  const trailer = parseTrailer(tail, gen)
  if (!trailer) return 'cut'
  const header = parseHeader(new Uint8Array(await file.slice(0, trailer.headerBytes).arrayBuffer()), trailer.sum)
  return header ? { file, header, headerBytes: trailer.headerBytes } : 'damaged'
}

/**
 * The bodies of the entries down to the newest base, read all at once: a load needs nearly all
 * of them, and one after another they took twice as long as the reads themselves. An older entry
 * is read only if a record is still looked for (a damaged newer version). What is held at once
 * is bounded by the base and the entries since it (a new base follows 64 MB of those: see
 * opfs-stored-files.ts); each body is let go once its records are copied out.
 */
function readAhead(reads: Read[]): Array<Promise<ArrayBuffer> | null> {
  const newestBase = reads.findIndex((read) => typeof read === 'object' && read.header.base)
  return reads.map((read, i) => {
    if (typeof read !== 'object' || (newestBase >= 0 && i > newestBase) || !read.header.records.some((r) => r.size)) return null
    const body = read.file.arrayBuffer()
    body.catch(() => undefined) // a failed read is met where the loop awaits it
    return body
  })
}

const GONE = Symbol('gone') // removed (a file) or taken off (a history turn)

/** The session's files from its journal entries; `cut` collects the entries to delete. */
export async function loadJournal(files: EntryFile[], cut: EntryFile[]): Promise<LoadedFiles> {
  const newestFirst = [...files].sort((a, b) => b.gen - a.gen)
  const reads = await Promise.all(newestFirst.map((entry) => readHeader(entry.handle, entry.gen)))
  const bodies = readAhead(reads)
  const chosen = new Map<string, { record: JournalRecord; value: SnapshotEntry | null | typeof GONE }>()
  const wanted = new Map<string, JournalRecord>() // newer versions were unreadable: looking for the last good one
  const recovered = new Set<string>()
  const lost: JournalRecord[] = [] // unreadable, and before it the record did not exist
  let damaged = 0
  let pastBase = false

  for (const [i, read] of reads.entries()) {
    if (read === 'cut') {
      cut.push(newestFirst[i]!)
      continue
    }
    if (read === 'damaged') {
      damaged++
      continue
    }
    const { file, header, headerBytes } = read
    const needed = header.records.map((record) => {
      const key = recordKey(record)
      return !chosen.has(key) && (!pastBase || wanted.has(key))
    })
    if (needed.some(Boolean)) {
      const bytes = header.records.some((r, j) => needed[j] && r.size) ? new Uint8Array(await (bodies[i] ?? file.arrayBuffer())) : null
      bodies[i] = null // its records are copied out below: the entry's bytes need not outlive them
      const offsets = bodyOffsets(header, headerBytes)
      header.records.forEach((record, j) => {
        if (!needed[j]) return
        const key = recordKey(record)
        const start = offsets[j]!
        const value = record.del ? GONE : entryOf(record, bytes?.subarray(start, start + (record.size ?? 0)))
        if (value === undefined) return void wanted.set(key, record)
        if (wanted.delete(key)) {
          if (value === GONE) lost.push(record)
          else recovered.add(key)
        }
        chosen.set(key, { record, value })
      })
    }
    if (header.base) {
      // Before a base the session held only what the base holds: a record looked for and not in
      // it did not exist then, so it has no good version to come back.
      const held = new Set(header.records.map(recordKey))
      for (const [key, record] of wanted) if (!held.has(key)) (wanted.delete(key), lost.push(record))
      pastBase = true
    }
    if (pastBase && wanted.size === 0) break
  }

  const loaded: LoadedFiles = { entries: [], history: [], unreadable: [], recovered: [], damaged, heal: damaged > 0 || wanted.size > 0 || lost.length > 0 || recovered.size > 0 }
  for (const [key, { record, value }] of chosen) {
    if (value === GONE) continue
    if (record.t === 'h') loaded.history.push([record.turn!, record.path, value as HistoryEntry[2]])
    else if (value) loaded.entries.push([record.path, value])
    if (recovered.has(key) && record.t === 'f') loaded.recovered.push(record.path)
  }
  // A history "before" with no readable version is left out quietly: /undo then skips that file.
  for (const record of [...wanted.values(), ...lost]) if (record.t === 'f') loaded.unreadable.push(record.path)
  loaded.unreadable.sort()
  loaded.recovered.sort()
  return loaded
}
