/**
 * Sessions between the engine and the app's sessionStore (guarded: every call settles within its
 * deadline), on the page. It lists sessions for /resume (titles from the snapshot headers), opens
 * one, removes one, and holds the tab's Web Lock on the session it writes, so a second tab opens
 * that session read-only. An app's own store is written here (session-commits.ts); fxterm's
 * IndexedDB store is written by the engine worker, which only tells the page after each write
 * (`written`): the page takes the lock, tells other tabs and reports a failed write from that note.
 */
import { ErrorCode } from '../../shared/errors.ts'
import { guardStore, type Guarded } from '../../engine-worker/stores/guard-store.ts'
import { newestFirst } from '../../engine-worker/stores/idb-session-store.ts'
import { messageOf } from '../../shared/stores/store-errors.ts'
import { createSessionCommits, type CommitNote } from '../../engine-worker/stores/session-commits.ts'
import type { CommitTake } from '../../shared/messages/worker-api.ts'
import type { RevisionedBytes, SessionStore, SessionStoreHandOver, SessionStoreHeads } from '../../shared/stores/types.ts'
import type { SessionEvent, SessionListEntry } from '../../shared/messages/engine-frames.ts'
import type { ResumeSession } from '../../shared/messages/worker-api.ts'
import { createSessionLocks, type SessionLocks, type SessionLocksOptions } from './session-locks.ts'
import { readSnapshotHeader, snapshotId } from '../../shared/stores/snapshot-header.ts'

/** How many sessions /resume shows with title, turns and first prompt (the rest by id). */
export const LIST_DETAILS = 50
/** What /resume reads of each session for its header, where the store reads a session's start. */
const LIST_HEAD_BYTES = 4096
/** Start-up waits for the resume read, so it gets 3 s rather than the guard's usual 10. */
const START_TIMEOUT_MS = 3_000
/** How long a reload waits for the lock the page it replaces may still hold. */
const RELOAD_LOCK_WAIT_MS = 300
/** The performance measure of each successful commit, from its write to the store's answer (see timeCommit). */
export const COMMIT_MEASURE = 'fxterm:session-commit'

type Report = (event: { type: string } & Record<string, unknown>, notice?: string) => void

/** Options of {@link createSessionBridge}. */
export type SessionBridgeOptions = {
  store: SessionStore
  /** Keeps the locks of two embeds on one origin apart. */
  namespace: string
  /** The Web Locks to use: default `navigator.locks`; null for none. */
  locks?: Pick<LockManager, 'request'> | null
  /** An early claim to take over, and who is told which session's lock this tab holds. */
  sessionLocks?: SessionLocksOptions
  /** The store's deadline per call (default 10 s). */
  timeoutMs?: number
  /** An `onEvent` for the app, and a notice for the person when there is one. */
  report: Report
  /** The saved sessions changed here (a new one, a removal): other tabs may want to know. */
  onListChanged?: () => void
  /**
   * The tab's session changed, and how: resumed (`open`, or `read-only` when another tab holds
   * it), a new one after another (`new`), or a copy of the one at hand (`fork`: the engine's
   * fork, or the first session of a fresh page). The workspace keeps its files per session.
   */
  onSession?: (id: string, how: 'open' | 'read-only' | 'new' | 'fork') => void
  /** A session was removed. */
  onRemoved?: (id: string) => void
}

/** A saved session to hand to the engine; read-only when another tab holds it. */
export type OpenedSession = { bytes: Uint8Array; readOnly: boolean; revision: string }

/** What the engine's session effects ask of the store (see HostCallbacks in worker-api.ts). */
export type SessionBridge = {
  /** Writes a snapshot to the app's store (the engine worker writes fxterm's own itself). */
  commit(bytes: Uint8Array): Promise<SessionEvent>
  /** The engine worker took a commit for fxterm's store (before writing it): a new session is in use from now. */
  taken(take: CommitTake): void
  /** The engine worker wrote a snapshot to fxterm's store, and how that went. */
  written(note: CommitNote): void
  /** Newest first; the first {@link LIST_DETAILS} with title, turns and first prompt. */
  list(): Promise<SessionListEntry[]>
  /** A session's bytes, or null when there is none. */
  open(id: string): Promise<OpenedSession | null>
  remove(id: string): Promise<void>
  /** `--resume last` or `--resume <id>` before the engine starts: the bytes, or why there are none. */
  resume(which: string): Promise<{ session?: ResumeSession; notice?: string }>
  /**
   * `--resume last` when the engine worker read the session itself (src/engine-worker/host/worker-start-reads.ts): takes
   * the tab's lock on it and notes its revision; the session goes to the engine by id.
   */
  resumeRead(found: { id: string; revision: string } | null): Promise<{ session?: ResumeSession }>
  /** Lets go of the tab's session lock (the terminal ended). */
  dispose(): void
}

/** The session `--resume` asks for ('last' or an id) in `args`, or null when it is not given. */
export function resumeArgument(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg.startsWith('--resume=')) return arg.slice('--resume='.length) || 'last'
    if (arg !== '--resume') continue
    const next = args[i + 1]
    return next === undefined || next.startsWith('-') ? 'last' : next
  }
  return null
}

/** The bridge over `options.store`. */
export function createSessionBridge(options: SessionBridgeOptions): SessionBridge {
  const store: Guarded<SessionStore> = guardStore(options.store, { name: 'session store', ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) })
  const startStore: Guarded<SessionStore> = guardStore(options.store, { name: 'session store', timeoutMs: START_TIMEOUT_MS })
  const locks: SessionLocks = createSessionLocks(options.namespace, options.locks, options.sessionLocks)
  const handOver = handsOver(store) ? store : null
  /** The session this tab is on (told to `onSession`), and whether it only reads it. */
  let current: { id: string; readOnly: boolean } | null = null
  const becomes = (id: string, how: 'open' | 'read-only' | 'new' | 'fork') => {
    current = { id, readOnly: how === 'read-only' }
    options.onSession?.(id, how)
  }
  /** A commit of `id` was taken: it may be a new session (or the engine's fork) this tab now writes. */
  const accepted = (id: string, forked: boolean) => {
    if (current?.id !== id) becomes(id, forked || current === null || current.readOnly ? 'fork' : 'new')
    // A commit of a session this tab does not hold yet: a new one, or the engine's fork.
    if (locks.heldId !== id) void locks.claim(id)
  }
  /** What the page does after a write, wherever it ran. */
  const heard = (note: CommitNote) => {
    if (note.outcome === 'ok') {
      timeCommit(note)
      if (note.created) options.onListChanged?.()
    } else if (note.outcome === 'error') {
      options.report({ type: 'session.commit_error', id: note.id, code: note.code ?? ErrorCode.FX_STORE_FAILED, message: note.message ?? '' })
    }
  }
  const commits = createSessionCommits({
    store,
    handOver,
    onAccepted: accepted,
    onWritten: heard,
    onUnreadable: (message) => options.report({ type: 'session.commit_error', code: ErrorCode.FX_STORE_RECORD_INVALID, message }),
  })
  /** The newest commit (in the engine's order) the worker's notes told of. */
  let newestNote = 0
  const taken = (take: CommitTake) => {
    // Notes of two sessions may cross (/new while the last commit of the old one is written).
    if (take.seq <= newestNote) return
    newestNote = take.seq
    accepted(take.id, take.forked)
  }

  /** Loads `id` for the engine, noting its revision and whether this tab may write it. */
  const load = async (from: Guarded<SessionStore>, id: string, lockWaitMs: number): Promise<OpenedSession | null> => {
    const found = await from.load(id)
    if (!found) return null
    if (!(found.bytes instanceof Uint8Array) || typeof found.revision !== 'string') {
      throw new Error(`the session store answered load("${id}") with something other than { bytes, revision }`)
    }
    return { bytes: found.bytes, readOnly: !(await opened(id, found.revision, lockWaitMs)), revision: found.revision }
  }

  /** Notes the revision of session `id` as read, and claims its lock: true when this tab may write it. */
  const opened = async (id: string, revision: string, lockWaitMs: number): Promise<boolean> => {
    commits.opened(id, revision)
    const writable = await locks.claim(id, { waitMs: lockWaitMs })
    // Read-only here: this tab writes nothing until the engine forks, so it holds no lock.
    if (!writable) locks.release()
    becomes(id, writable ? 'open' : 'read-only')
    return writable
  }

  return {
    commit: (bytes) => commits.commit(bytes),

    taken,

    written(note) {
      // Its take was told first (a note of the same commit then changes nothing here).
      taken(note)
      heard(note)
    },

    async list() {
      let entries: Array<{ id: string; updatedAtMs: number }>
      try {
        entries = [...(await store.list())].filter(isListEntry).sort(newestFirst)
      } catch (error) {
        const message = messageOf(error)
        options.report({ type: 'session.list_error', message }, `Saved sessions could not be listed (${message}).`)
        throw error
      }
      const detailed = await Promise.all(entries.slice(0, LIST_DETAILS).map((entry) => withDetails(store, entry)))
      return [...detailed, ...entries.slice(LIST_DETAILS).map(({ id, updatedAtMs }) => ({ id, updatedAtMs }))]
    },

    open: (id) => load(store, id, 0),

    async remove(id) {
      try {
        await store.remove(id)
        options.onRemoved?.(id)
        commits.removed(id)
        options.onListChanged?.()
      } catch (error) {
        const message = messageOf(error)
        options.report({ type: 'session.remove_error', id, message }, `The session could not be deleted (${message}).`)
      }
    },

    async resume(which) {
      let id = which
      try {
        if (which === 'last') {
          const entries = (await startStore.list()).filter(isListEntry)
          // The latest updatedAtMs, whatever order the app's store answers in.
          const latest = entries.reduce<{ id: string; updatedAtMs: number } | null>((best, e) => (best === null || newestFirst(e, best) < 0 ? e : best), null)
          if (!latest) return {}
          id = latest.id
        }
        const session = await load(startStore, id, RELOAD_LOCK_WAIT_MS)
        if (session) return { session: { bytes: session.bytes, readOnly: session.readOnly, stored: { id, revision: session.revision } } }
        return { notice: `There is no saved session ${id}; this is a new session.` }
      } catch (error) {
        const message = messageOf(error)
        options.report({ type: 'session.load_error', id, message })
        return { notice: `The saved session could not be read (${message}). It was left as it is; this is a new session.` }
      }
    },

    async resumeRead(found) {
      if (!found) return {}
      return { session: { prefetchedId: found.id, readOnly: !(await opened(found.id, found.revision, RELOAD_LOCK_WAIT_MS)), stored: found } }
    },

    dispose: () => locks.release(),
  }
}

/**
 * A `fxterm:session-commit` performance measure (write → store answered, on whichever thread
 * wrote) for benchmarks and devtools. Only the latest is kept in the timeline; a
 * PerformanceObserver sees every one.
 */
function timeCommit(note: CommitNote): void {
  try {
    performance.clearMeasures(COMMIT_MEASURE)
    const start = note.startedAt - performance.timeOrigin
    performance.measure(COMMIT_MEASURE, { start, end: Math.max(start, note.endedAt - performance.timeOrigin), detail: { bytes: note.bytes } })
  } catch {
    // A browser without User Timing Level 3: no measure, nothing else changes.
  }
}

/** `entry` with the title, turns and first prompt of its snapshot header, when it can be read. */
async function withDetails(store: Guarded<SessionStore>, entry: { id: string; updatedAtMs: number }): Promise<SessionListEntry> {
  const base: SessionListEntry = { id: entry.id, updatedAtMs: entry.updatedAtMs }
  const headerOf = (found: RevisionedBytes | null) => (found?.bytes instanceof Uint8Array ? readSnapshotHeader(found.bytes) : null)
  try {
    // Only the start where the store can read it (the header is ~300 bytes of a session of MBs).
    const heads = (store as Partial<SessionStoreHeads>).loadHead?.bind(store)
    const header = (heads ? headerOf(await heads(entry.id, LIST_HEAD_BYTES)) : null) ?? headerOf(await store.load(entry.id))
    if (!header) return base
    const { title, turns, firstPrompt } = header.meta
    return { ...base, title, turns, firstPrompt }
  } catch {
    return base // unreadable: still listed, by id
  }
}

function handsOver(store: object): store is SessionStoreHandOver {
  const s = store as Partial<SessionStoreHandOver>
  return typeof s.commitHandingOver === 'function' && typeof s.lastCommitted === 'function'
}

function isListEntry(entry: unknown): entry is { id: string; updatedAtMs: number } {
  const e = entry as { id?: unknown; updatedAtMs?: unknown } | null
  return typeof e === 'object' && e !== null && typeof e.id === 'string' && typeof e.updatedAtMs === 'number'
}
