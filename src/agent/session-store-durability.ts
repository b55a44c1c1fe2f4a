/**
 * Sessions in a reference `SessionStore` (the `sessionStore` option, when no `durability` is
 * given): one opaque record per session — the engine's snapshot, every prompt's state and the
 * stream's lines — committed with revisions. The store has no lock: a write that names a stale
 * revision fails (`FX_SESSION_REVISION_CONFLICT`, reported as `session.save_error`) instead of
 * overwriting another tab's.
 */
import type { SessionStore } from '../stores/types.ts'
import type { FxDurability, SessionRecord } from './durability.ts'
import type { FxLogLine } from './types.ts'

const MAGIC = 0x53415846 // "FXAS"
const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** `u32 magic · u32 version(1) · u32 jsonLen · JSON {turns, lines, running?} · snapshot bytes` */
export function encodeStoredSession(record: SessionRecord, lines: FxLogLine[]): Uint8Array {
  const json = encoder.encode(JSON.stringify({ turns: record.turns, lines, ...(record.running ? { running: record.running } : {}) }))
  const snapshot = record.snapshot ?? new Uint8Array(0)
  const out = new Uint8Array(12 + json.length + snapshot.length)
  const view = new DataView(out.buffer)
  view.setUint32(0, MAGIC, true)
  view.setUint32(4, 1, true)
  view.setUint32(8, json.length, true)
  out.set(json, 12)
  out.set(snapshot, 12 + json.length)
  return out
}

export function decodeStoredSession(bytes: Uint8Array): { record: SessionRecord; lines: FxLogLine[] } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (bytes.length < 12 || view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== 1) return null
  const len = view.getUint32(8, true)
  const { turns, lines, running } = JSON.parse(decoder.decode(bytes.subarray(12, 12 + len))) as Pick<SessionRecord, 'turns' | 'running'> & { lines: FxLogLine[] }
  const snapshot = bytes.slice(12 + len)
  const lineCount = lines.at(-1)?.cursor ?? 0
  return { record: { ...(snapshot.length > 0 ? { snapshot } : {}), ...(running ? { running } : {}), turns, chunks: lines.length > 0 ? 1 : 0, lineCount }, lines }
}

export function sessionStoreDurability(store: SessionStore): FxDurability {
  const revisions = new Map<string, string>()
  const lines = new Map<string, FxLogLine[]>()
  return {
    kind: 'sessionStore',
    async load(id) {
      const stored = await store.load(id)
      if (!stored) return { record: null, lines: [] }
      revisions.set(id, stored.revision)
      const decoded = decodeStoredSession(stored.bytes)
      if (!decoded) throw Object.assign(new Error(`The stored session ${id} is not an agent session.`), { code: 'FX_STORE_RECORD_INVALID' })
      lines.set(id, decoded.lines)
      return decoded
    },
    async save(id, record, added) {
      const all = [...(lines.get(id) ?? []), ...added]
      const { revision } = await store.commit(id, encodeStoredSession(record, all), revisions.get(id))
      revisions.set(id, revision)
      lines.set(id, all)
    },
    withLock: (_id, fn) => fn(),
  }
}
