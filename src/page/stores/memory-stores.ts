/**
 * The four stores in memory, with the same answers as the IndexedDB ones (revisions, conflicts,
 * limits, copies of bytes in and out). The page falls back to them when IndexedDB is unavailable,
 * and everything in them is gone when the tab closes.
 */
import { checkRoot, exceedsUtf8Bytes, loadCount, resolveHistoryLimits, type HistoryLimits } from '../../engine-worker/stores/history-rules.ts'
import { checkId, newestFirst } from '../../engine-worker/stores/idb-session-store.ts'
import { copyBytes, nextRevision } from '../../engine-worker/stores/revision.ts'
import { oauthConflict, sessionConflict } from '../../shared/stores/store-errors.ts'
import type { AsyncConfigStore, AsyncOAuthSessionStore, AsyncPromptHistoryStore, AsyncSessionStore } from '../../shared/stores/types.ts'

type Revisioned = { bytes: Uint8Array; revision: string; seq: number }

/** A config store in memory. */
export function memoryConfigStore(): AsyncConfigStore {
  const values = new Map<string, string>()
  return {
    async get(id) {
      return values.get(id) ?? null
    },
    async set(id, value) {
      if (typeof value !== 'string') throw new TypeError(`config value for "${id}" must be a string`)
      values.set(id, value)
    },
  }
}

/** A prompt history store in memory, per workspace root, with the IndexedDB store's limits. */
export function memoryPromptHistoryStore(limits: HistoryLimits = {}): AsyncPromptHistoryStore {
  const { maxEntries, maxRecordBytes } = resolveHistoryLimits(limits)
  const roots = new Map<string, string[]>()
  return {
    async load(workspaceRoot, limit) {
      checkRoot(workspaceRoot)
      const count = loadCount(limit)
      const entries = roots.get(workspaceRoot) ?? []
      return count === 0 ? [] : entries.slice(-count)
    },
    async append(workspaceRoot, value) {
      checkRoot(workspaceRoot)
      if (typeof value !== 'string') throw new TypeError('a history entry must be a string')
      if (exceedsUtf8Bytes(value, maxRecordBytes)) return 'record_too_large'
      const entries = roots.get(workspaceRoot) ?? []
      if (entries.at(-1) === value) return 'duplicate'
      entries.push(value)
      if (entries.length > maxEntries) entries.splice(0, entries.length - maxEntries)
      roots.set(workspaceRoot, entries)
    },
    async clear(workspaceRoot) {
      checkRoot(workspaceRoot)
      roots.delete(workspaceRoot)
    },
  }
}

/** A session store in memory; `list()` answers newest first (ties by id). */
export function memorySessionStore(options: { now?: () => number } = {}): AsyncSessionStore {
  const now = options.now ?? Date.now
  const sessions = new Map<string, Revisioned & { updatedAtMs: number }>()
  return {
    async load(id) {
      checkId(id)
      const found = sessions.get(id)
      return found ? { bytes: found.bytes.slice(), revision: found.revision } : null
    },
    async commit(id, bytes, expectedRevision) {
      checkId(id)
      const copy = copyBytes(bytes)
      const found = sessions.get(id)
      if (found?.revision !== expectedRevision) throw sessionConflict(id, expectedRevision, found?.revision)
      const { seq, revision } = nextRevision(found?.seq)
      sessions.set(id, { bytes: copy, revision, seq, updatedAtMs: now() })
      return { revision }
    },
    async list() {
      return [...sessions]
        .map(([id, { updatedAtMs }]) => ({ id, updatedAtMs }))
        .sort(newestFirst)
    },
    async remove(id) {
      checkId(id)
      sessions.delete(id)
    },
  }
}

/** An OAuth session store in memory (nothing to seal: it never leaves the tab). */
export function memoryOAuthSessionStore(): AsyncOAuthSessionStore {
  let current: Revisioned | undefined
  return {
    async load() {
      return current ? { bytes: current.bytes.slice(), revision: current.revision } : null
    },
    async commit(bytes, expectedRevision) {
      const copy = copyBytes(bytes)
      if (current?.revision !== expectedRevision) throw oauthConflict('commit', expectedRevision, current?.revision)
      const { seq, revision } = nextRevision(current?.seq)
      current = { bytes: copy, revision, seq }
      return { revision }
    },
    async remove(expectedRevision) {
      if (current === undefined) return 'missing'
      if (current.revision !== expectedRevision) throw oauthConflict('remove', expectedRevision, current.revision)
      current = undefined
      return true
    },
  }
}
