/**
 * Sessions in a reference `SessionStore` (the `sessionStore` option, when no `durability` is
 * given): one opaque record per session — the engine's snapshot, every prompt's state and the
 * stream's lines — committed with revisions. The store has no lock: a write that names a stale
 * revision fails (`FX_SESSION_REVISION_CONFLICT`, reported as `session.save_error`) instead of
 * overwriting another tab's.
 */
import { ErrorCode } from '../../shared/errors.ts'
import type { SessionStore } from '../../shared/stores/types.ts'
import { decodeEnvelope, encodeEnvelope } from './json-envelope.ts'
import { recordExtras, type FxDurability, type SessionRecord } from './durability.ts'
import type { FxLogLine } from '../../shared/agent-api/types.ts'

const MAGIC = 0x53415846 // "FXAS"

/** A session as the sessionStore keeps it: `{turns, lines, running?}` and the engine snapshot (json-envelope.ts). */
export function encodeStoredSession(record: SessionRecord, lines: FxLogLine[]): Uint8Array {
  return encodeEnvelope(MAGIC, 1, { turns: record.turns, lines, ...recordExtras(record) }, record.snapshot)
}

export function decodeStoredSession(bytes: Uint8Array): { record: SessionRecord; lines: FxLogLine[] } | null {
  const envelope = decodeEnvelope(MAGIC, bytes)
  if (!envelope || envelope.version !== 1) return null
  const { turns, lines, ...extras } = envelope.json as Pick<SessionRecord, 'turns' | 'running' | 'madeWith' | 'toolImages'> & { lines: FxLogLine[] }
  const snapshot = envelope.bytes
  const lineCount = lines.at(-1)?.cursor ?? 0
  return { record: { ...(snapshot.length > 0 ? { snapshot } : {}), ...recordExtras(extras), turns, chunks: lines.length > 0 ? 1 : 0, lineCount }, lines }
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
      if (!decoded) throw Object.assign(new Error(`The stored session ${id} is not an agent session.`), { code: ErrorCode.FX_STORE_RECORD_INVALID })
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
