/**
 * One entry of a session's file journal (opfs-stored-files.ts): every record one change wrote
 * (a command's files, an edit, the history's "befores", a whole base), in one file, so 300 small
 * files cost one write. Layout:
 *
 *   <header JSON>\n<body><body>…\nfxj <header bytes> <header sum> <gen>\n
 *
 * The trailer is written last: an entry without it was cut off mid-write and is rolled back as a
 * whole. The header lists each record with the size and an FNV-1a sum of its body, so a body
 * that rotted on disk is known by its path and only that record is set aside.
 */
import type { SnapshotEntry } from './snapshot-store'

/** A record: a file (`f`) or a history "before" (`h`, with its turn); `del` removes it. */
export type JournalRecord = {
  t: 'f' | 'h'
  path: string
  turn?: number
  del?: true
  kind?: 'file' | 'dir' | 'symlink' | 'none'
  text?: boolean
  mode?: number
  mtimeMs?: number
  target?: string
  size?: number
  sum?: string
}

export type JournalHeader = { gen: number; base: boolean; records: JournalRecord[] }

/** What to write: a record and, for a file, its content. */
export type JournalWrite = { record: JournalRecord; body?: Uint8Array }

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** The record (and body) that stores `entry` at `path`; `null` is a history "did not exist". */
export function recordOf(t: 'f' | 'h', path: string, entry: SnapshotEntry | null, turn?: number): JournalWrite {
  const record: JournalRecord = { t, path, ...(turn === undefined ? {} : { turn }) }
  if (entry === null) return { record: { ...record, kind: 'none' } }
  record.kind = entry.kind
  if ('mode' in entry && entry.mode !== undefined) record.mode = entry.mode
  if ('mtimeMs' in entry && entry.mtimeMs !== undefined) record.mtimeMs = entry.mtimeMs
  if (entry.kind === 'symlink') return { record: { ...record, target: entry.target } }
  if (entry.kind === 'dir') return { record }
  const body = typeof entry.content === 'string' ? encoder.encode(entry.content) : entry.content
  return { record: { ...record, text: typeof entry.content === 'string', size: body.length, sum: checksum(body) }, body }
}

/** The entry's bytes as blob parts: header, bodies, then the trailer that completes it. */
export function encodeEntry(gen: number, base: boolean, writes: JournalWrite[]): BlobPart[] {
  const header = encoder.encode(`${JSON.stringify({ gen, base, records: writes.map((w) => w.record) } satisfies JournalHeader)}`)
  const bodies = writes.flatMap((w) => (w.body ? [w.body as BlobPart] : []))
  return [header, '\n', ...bodies, `\nfxj ${header.length} ${checksum(header)} ${gen}\n`]
}

/** The longest a trailer can be (two numbers of up to 16 digits and a sum). */
export const TRAILER_MAX = 64

/**
 * Reads the trailer at the end of an entry: the header's length and sum, or null when the entry
 * was cut off (no trailer: a write that never completed).
 */
export function parseTrailer(tail: Uint8Array, gen: number): { headerBytes: number; sum: string } | null {
  const text = decoder.decode(tail)
  const match = /\nfxj (\d+) ([0-9a-f]{8}) (\d+)\n$/.exec(text)
  if (!match || Number(match[3]) !== gen) return null
  return { headerBytes: Number(match[1]), sum: match[2]! }
}

/** The header, or null when its bytes do not match their sum (a damaged entry). */
export function parseHeader(bytes: Uint8Array, sum: string): JournalHeader | null {
  if (checksum(bytes) !== sum) return null
  try {
    const header = JSON.parse(decoder.decode(bytes)) as JournalHeader
    return Array.isArray(header?.records) ? header : null
  } catch {
    return null
  }
}

/** Where each record's body starts in the entry (bodies follow the header line in order). */
export function bodyOffsets(header: JournalHeader, headerBytes: number): number[] {
  let at = headerBytes + 1
  return header.records.map((record) => {
    const start = at
    at += record.size ?? 0
    return start
  })
}

/** The entry a record holds, or undefined when its body does not match its sum; null: "did not exist". */
export function entryOf(record: JournalRecord, body: Uint8Array | undefined): SnapshotEntry | null | undefined {
  const meta = { ...(record.mode === undefined ? {} : { mode: record.mode }), ...(record.mtimeMs === undefined ? {} : { mtimeMs: record.mtimeMs }) }
  if (record.kind === 'none') return null
  if (record.kind === 'dir') return { kind: 'dir', ...meta }
  if (record.kind === 'symlink') return typeof record.target === 'string' ? { kind: 'symlink', target: record.target } : undefined
  if (record.kind !== 'file' || !body || body.length !== record.size || checksum(body) !== record.sum) return undefined
  return { kind: 'file', content: record.text ? decoder.decode(body) : body.slice(), ...meta }
}

/** The key a record replaces: one per file path, one per history turn and path. */
export const recordKey = (record: JournalRecord) => (record.t === 'f' ? `f\0${record.path}` : `h\0${record.turn}\0${record.path}`)

/** FNV-1a over bytes, as 8 hex digits: catches a damaged body, not an attacker. */
export function checksum(bytes: Uint8Array): string {
  let h = 0x811c9dc5
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193)
  return (h >>> 0).toString(16).padStart(8, '0')
}
