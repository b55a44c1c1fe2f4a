/**
 * `createFxEngine`'s store: a journal of opaque records with cursors, and an optional checkpoint.
 * Each record holds the whole conversation at one step (the engine's snapshot and the prompts'
 * states), so loading takes the newest. An append names the cursor it expects to follow; a store
 * rejects a stale one with `FxFencedError`, so two engines never write one conversation.
 */
import { ErrorCode, FxError } from '../../shared/errors.ts'
import { recordExtras, type FxDurability, type SessionRecord } from './durability.ts'
import { decodeEnvelope, encodeEnvelope } from './json-envelope.ts'

/** One stored step: opaque bytes and the cursor the store gave them. */
export type JournalRecord = { cursor: string; data: Uint8Array }

/** `createFxEngine`'s store (the reference's interface). */
export type Persistence = {
  load(): Promise<{ checkpoint?: { data: Uint8Array; through: string }; journal?: Iterable<JournalRecord> | AsyncIterable<JournalRecord> }>
  append(input: { expected: string | null; idempotencyKey: string; data: Uint8Array }): Promise<{ cursor: string }>
  saveCheckpoint?(input: { through: string; data: Uint8Array }): Promise<void>
}

/** An append whose `expected` cursor is not the last one stored: another writer got there first. */
export class FxFencedError extends FxError {
  declare readonly code: typeof ErrorCode.FX_FENCED
  constructor(message = 'Another engine wrote this conversation first (the expected cursor is stale).') {
    super(ErrorCode.FX_FENCED, message)
    this.name = 'FxFencedError'
  }
}

/** A record's bytes from a newer format than this one reads. */
export class FxJournalVersionError extends FxError {
  declare readonly code: typeof ErrorCode.FX_JOURNAL_VERSION
  constructor(version: number) {
    super(ErrorCode.FX_JOURNAL_VERSION, `This journal record has format ${version}; this fxterm reads format 1.`)
    this.name = 'FxJournalVersionError'
  }
}

const MAGIC = 0x4a5846 // "FXJ"

/** A session record as a journal record: `{turns, running?}` and the engine snapshot (json-envelope.ts). */
export function encodeRecord(record: SessionRecord): Uint8Array {
  return encodeEnvelope(MAGIC, 1, { turns: record.turns, ...recordExtras(record) }, record.snapshot)
}

/** A journal record's bytes back into a session record (a bare engine snapshot is taken as one too). */
export function decodeRecord(bytes: Uint8Array): SessionRecord {
  const envelope = decodeEnvelope(MAGIC, bytes)
  // Not an envelope: a bare engine snapshot (a checkpoint from session.checkpoint()).
  if (!envelope) return { snapshot: bytes, turns: [], chunks: 0, lineCount: 0 }
  if (envelope.version > 1) throw new FxJournalVersionError(envelope.version)
  const { turns, ...extras } = envelope.json as Pick<SessionRecord, 'turns' | 'running' | 'madeWith' | 'toolImages'>
  const snapshot = envelope.bytes
  return { ...(snapshot.length > 0 ? { snapshot } : {}), ...recordExtras(extras), turns, chunks: 0, lineCount: 0 }
}

/** Appends between checkpoints. */
const CHECKPOINT_EVERY = 32

/** A durability over one persistence store (one conversation; the session id is ignored). */
export function persistenceDurability(store: Persistence, onFenced: (error: FxFencedError) => void): FxDurability {
  let last: string | null = null
  let appends = 0
  let fenced: FxFencedError | null = null
  let seq = 0
  return {
    kind: 'memory',
    async load() {
      const loaded = await store.load()
      let data = loaded.checkpoint?.data
      last = loaded.checkpoint?.through ?? null
      if (loaded.journal) {
        for await (const record of loaded.journal) {
          data = record.data
          last = record.cursor
        }
      }
      return { record: data ? decodeRecord(data) : null, lines: [] }
    },
    async save(_id, record) {
      if (fenced) return
      const data = encodeRecord(record)
      try {
        const { cursor } = await store.append({ expected: last, idempotencyKey: `${last ?? 'start'}:${++seq}`, data })
        last = cursor
      } catch (error) {
        if (error instanceof FxFencedError || (error as { code?: string })?.code === ErrorCode.FX_FENCED) {
          fenced = error instanceof FxFencedError ? error : new FxFencedError()
          onFenced(fenced)
          return
        }
        throw error
      }
      if (store.saveCheckpoint && ++appends % CHECKPOINT_EVERY === 0) await store.saveCheckpoint({ through: last, data })
    },
    withLock: (_id, fn) => fn(),
    halted: () => fenced,
  }
}

/** A reference store in memory (for tests): `records` shows what was appended. */
export function createMemoryPersistence(): Persistence & { readonly records: JournalRecord[]; checkpoint?: { data: Uint8Array; through: string } } {
  const records: JournalRecord[] = []
  const store = {
    records,
    checkpoint: undefined as { data: Uint8Array; through: string } | undefined,
    async load() {
      const through = store.checkpoint?.through
      const after = through === undefined ? records : records.slice(records.findIndex((r) => r.cursor === through) + 1)
      return { ...(store.checkpoint ? { checkpoint: store.checkpoint } : {}), journal: after.map((r) => ({ ...r, data: r.data.slice() })) }
    },
    async append(input: { expected: string | null; idempotencyKey: string; data: Uint8Array }) {
      const lastCursor = records.at(-1)?.cursor ?? null
      if (input.expected !== lastCursor) throw new FxFencedError()
      const cursor = String(records.length + 1)
      records.push({ cursor, data: input.data.slice() })
      return { cursor }
    },
    async saveCheckpoint(input: { through: string; data: Uint8Array }) {
      store.checkpoint = { through: input.through, data: input.data.slice() }
    },
  }
  return store
}
