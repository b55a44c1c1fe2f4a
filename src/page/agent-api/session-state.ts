/**
 * What a session has stored: its record (the engine's latest snapshot and every prompt's state)
 * and its stream, loaded on first use. Saves run one after another and write the record with the
 * lines since the last save; lines streamed between two steps are saved a little later.
 */
import type { FxDurability, SessionRecord } from './durability.ts'
import { createStreamLog, type StreamLog } from './stream-log.ts'
import type { FxAgentEvent, FxLogLine } from '../../shared/agent-api/types.ts'

/** How soon lines streamed between two steps are stored. */
const LINES_SAVE_MS = 250

type Image = { mimeType: string; data: string }

export type SessionState = {
  /** The record, changed in place by the session (turns, snapshot). */
  readonly record: SessionRecord
  /** Loads the record and stream once; the stream. */
  load(): Promise<StreamLog>
  /** The stream, once loaded. */
  readonly log: StreamLog
  /** Saves soon (coalesced); resolves when that save is done. */
  save(): Promise<void>
  /** Resolves when every save asked for so far is done. */
  saved(): Promise<void>
  turnOf(messageId: string): SessionRecord['turns'][number] | undefined
  /** A stored prompt's or tool result's image, for the request that carries its marker. */
  imageOf(key: string, index: number): Image | undefined
  /** Every stored image, by key (an engine in a worker keeps its own copy). */
  allImages(): Array<[string, Image[]]>
  /** Takes what another tab stored since; true when there was something. */
  refresh(): Promise<boolean>
  dispose(): void
}

const imagesOf = (input: SessionRecord['turns'][number]['input']): Image[] =>
  // Stored prompts hold base64 only: bytes and Blobs were read to base64 before storing.
  Array.isArray(input) ? input.flatMap((b) => (b.type === 'image' && typeof b.data === 'string' ? [{ mimeType: b.mimeType ?? '', data: b.data.replace(/\s+/g, '') }] : [])) : []

export function createSessionState(id: string, durability: FxDurability, onEvent: (event: FxAgentEvent) => void): SessionState {
  const record: SessionRecord = { turns: [], chunks: 0, lineCount: 0 }
  let log: StreamLog | null = null
  let loading: Promise<StreamLog> | null = null
  let unsaved: FxLogLine[] = []
  let saving: Promise<void> = Promise.resolve()
  let saveQueued = false
  let linesTimer: ReturnType<typeof setTimeout> | null = null

  const save = (): Promise<void> => {
    if (saveQueued) return saving
    saveQueued = true
    saving = saving.then(async () => {
      saveQueued = false
      const lines = unsaved
      unsaved = []
      if (lines.length > 0) {
        record.chunks++
        record.lineCount = lines[lines.length - 1]!.cursor
      }
      try {
        await durability.save(id, { ...record, turns: record.turns.map((t) => ({ ...t })) }, lines)
      } catch (error) {
        onEvent({ type: 'session.save_error', sessionId: id, message: error instanceof Error ? error.message : String(error) })
      }
    })
    return saving
  }

  const turnOf = (messageId: string) => record.turns.find((t) => t.messageId === messageId)

  return {
    record,
    load: () =>
      (loading ??= durability.load(id).catch((error: unknown) => {
        loading = null // a later call tries again
        throw error
      }).then((stored) => {
        if (stored.record) Object.assign(record, stored.record)
        log = createStreamLog(stored.lines)
        log.onLine((line) => {
          unsaved.push(line)
          // Lines between steps are stored too, a little later, so a reload shows most of a reply.
          linesTimer ??= setTimeout(() => ((linesTimer = null), void save()), LINES_SAVE_MS)
        })
        return log
      })),
    get log() {
      return log!
    },
    save,
    saved: () => saving,
    turnOf,
    imageOf: (key, index) => record.toolImages?.[key]?.[index] ?? imagesOf(turnOf(key)?.input ?? '')[index],
    allImages: () => [
      ...record.turns.flatMap((t) => (imagesOf(t.input).length > 0 ? [[t.messageId, imagesOf(t.input)] as [string, Image[]]] : [])),
      ...Object.entries(record.toolImages ?? {}),
    ],
    async refresh() {
      const stored = await durability.load(id)
      if (!stored.record || (stored.record.turns.length === record.turns.length && stored.record.lineCount === record.lineCount)) return false
      Object.assign(record, stored.record)
      if (!stored.record.snapshot) delete record.snapshot
      for (const line of stored.lines) if (line.cursor > log!.cursor) log!.adopt(line)
      unsaved = []
      return true
    },
    dispose() {
      if (linesTimer !== null) clearTimeout(linesTimer)
      log?.close()
    },
  }
}
