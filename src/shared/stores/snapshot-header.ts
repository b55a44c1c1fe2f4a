/**
 * Reads the metadata header of an engine session snapshot (wasm/engine/session/snapshot.ts):
 *
 *   "FXSN" (u32 LE 0x4e535846) · u32 LE version (low 16 bits) · u32 LE metaLen · meta JSON · body
 *
 * The host treats the body as opaque; it reads only the header, to know which session a commit
 * belongs to and to show title, turns and first prompt in the /resume list.
 */

/** The snapshot's metadata, as the engine writes it. */
export type SnapshotMeta = {
  id: string
  title: string
  createdMs: number
  updatedMs: number
  turns: number
  firstPrompt: string
}

/** A readable header: the format version and the metadata. */
export type SnapshotHeader = { version: number; meta: SnapshotMeta }

const MAGIC = 0x4e535846
const HEADER_BYTES = 12
const decoder = new TextDecoder('utf-8', { fatal: true })

/** The header of `bytes`, or null when they are not a snapshot (wrong magic, cut short, bad meta). */
export function readSnapshotHeader(bytes: Uint8Array): SnapshotHeader | null {
  if (bytes.byteLength < HEADER_BYTES) return null
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.getUint32(0, true) !== MAGIC) return null
  const version = view.getUint32(4, true) & 0xffff
  const metaLen = view.getUint32(8, true)
  if (HEADER_BYTES + metaLen > bytes.byteLength) return null
  let meta: unknown
  try {
    meta = JSON.parse(decoder.decode(bytes.subarray(HEADER_BYTES, HEADER_BYTES + metaLen)))
  } catch {
    return null
  }
  if (typeof meta !== 'object' || meta === null) return null
  const m = meta as Record<string, unknown>
  // The id is what the host needs; the rest has defaults, as in the engine's own reader.
  if (typeof m['id'] !== 'string' || m['id'] === '') return null
  return {
    version,
    meta: {
      id: m['id'],
      title: stringOr(m['title']),
      createdMs: numberOr(m['createdMs']),
      updatedMs: numberOr(m['updatedMs']),
      turns: numberOr(m['turns']),
      firstPrompt: stringOr(m['firstPrompt']),
    },
  }
}

/** The session id of a snapshot, or null when its header cannot be read. */
export function snapshotId(bytes: Uint8Array): string | null {
  return readSnapshotHeader(bytes)?.meta.id ?? null
}

/** Snapshot bytes from metadata and a body (tests and benchmarks build sessions with this). */
export function encodeSnapshot(meta: SnapshotMeta, body: string, version = 2): Uint8Array {
  const encoder = new TextEncoder()
  const metaBytes = encoder.encode(JSON.stringify(meta))
  const bodyBytes = encoder.encode(body)
  const out = new Uint8Array(HEADER_BYTES + metaBytes.length + bodyBytes.length)
  const view = new DataView(out.buffer)
  view.setUint32(0, MAGIC, true)
  view.setUint32(4, version, true)
  view.setUint32(8, metaBytes.length, true)
  out.set(metaBytes, HEADER_BYTES)
  out.set(bodyBytes, HEADER_BYTES + metaBytes.length)
  return out
}

function stringOr(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

function numberOr(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0
}
