/**
 * The engine's snapshot commits, on the thread that holds the session store: the engine worker
 * for fxterm's IndexedDB store (the bytes are written where the engine made them), the page for
 * an app's own `sessionStore` (session-bridge.ts). Reads each snapshot's header for its id, passes
 * the revision last loaded or written for that id (`undefined` for a new one), and answers the
 * engine with what became of the commit. After each write, `onWritten` hears a small note (no
 * bytes): the page takes the tab's lock, tells other tabs and reports a failed write from it.
 *
 * Commits of one id never overlap: while one is being written, only the newest pending bytes
 * are kept (each snapshot holds the whole session, so older pending ones add nothing).
 */
import { ErrorCode } from '../../shared/errors.ts'
import { messageOf } from '../../shared/stores/store-errors.ts'
import { snapshotId } from '../../shared/stores/snapshot-header.ts'
import type { SessionStore, SessionStoreHandOver } from '../../shared/stores/types.ts'
import type { SessionEvent } from '../../shared/messages/engine-frames.ts'
import type { CommitNote } from '../../shared/messages/worker-api.ts'
export type { CommitNote } from '../../shared/messages/worker-api.ts'

/** Options of {@link createSessionCommits}; the store's calls must settle (guard-store.ts). */
export type SessionCommitsOptions = {
  store: Pick<SessionStore, 'commit' | 'load'>
  /** A store that takes the bytes over, and knows the revision of its own last write. */
  handOver?: SessionStoreHandOver | null
  onWritten(note: CommitNote): void
  /** A commit of `id` was taken (before its write), `seq` in the engine's order of commits. */
  onAccepted?(id: string, forked: boolean, seq: number): void
  /** A snapshot whose header cannot be read: nothing was written. */
  onUnreadable(message: string): void
}

export type SessionCommits = {
  commit(bytes: Uint8Array): Promise<SessionEvent>
  /** Session `id` was loaded at `revision`: its next commit passes that revision. */
  opened(id: string, revision: string): void
  removed(id: string): void
}

type Waiter = (event: SessionEvent) => void
type Take = { forked: boolean; seq: number }
type Lane = { writing: boolean; pending: { bytes: Uint8Array; waiters: Waiter[]; seq: number } | null }

const OK: SessionEvent = { type: 'commit_ok' }

/** The epoch time in ms, comparable across threads (each has its own `performance` origin). */
export const epochNow = (): number => performance.timeOrigin + performance.now()

/** See the file comment. */
export function createSessionCommits(options: SessionCommitsOptions): SessionCommits {
  const { store, handOver = null } = options
  /** The revision this thread last loaded or wrote, per session id. */
  const revisions = new Map<string, string>()
  /** Bytes of a commit that failed without an answer (a timeout): it may still have landed. */
  const unconfirmed = new Map<string, Uint8Array>()
  const lanes = new Map<string, Lane>()
  /**
   * The id of a commit that conflicted, until the engine's fork (a commit of another id) shows
   * it heard: commits of that id still on their way were made before the fork and are part of it.
   */
  let forking: string | null = null
  let accepted = 0

  const write = async (id: string, lane: Lane, bytes: Uint8Array, waiters: Waiter[], take: Take): Promise<void> => {
    lane.writing = true
    const event = await writeOnce(id, bytes, take)
    lane.writing = false
    if (event.type === 'conflict') {
      forking = id
      // The engine forks once, on the newest waiter's answer; the fork carries every older state.
      const absorbed = [...waiters.slice(0, -1), ...(lane.pending?.waiters ?? [])]
      lane.pending = null
      for (const waiter of absorbed) waiter(OK)
      waiters.at(-1)?.(event)
    } else {
      for (const waiter of waiters) waiter(event)
    }
    const next = lane.pending
    if (next) {
      lane.pending = null
      void write(id, lane, next.bytes, next.waiters, { forked: false, seq: next.seq })
    } else {
      lanes.delete(id)
    }
  }

  const writeOnce = async (id: string, bytes: Uint8Array, take: Take, retried = false): Promise<SessionEvent> => {
    const expected = revisions.get(id)
    const note = { id, created: expected === undefined, ...take, startedAt: epochNow(), bytes: bytes.byteLength }
    try {
      // Not handed over after a commit of this id went unanswered: a conflict may then be with
      // that late write of ours, and these bytes are needed again for the retry (adoptLateWrite).
      const handing = handOver !== null && !unconfirmed.has(id)
      const { revision } = await (handing ? handOver.commitHandingOver(id, bytes, expected) : store.commit(id, bytes, expected))
      revisions.set(id, revision)
      unconfirmed.delete(id)
      options.onWritten({ ...note, outcome: 'ok', endedAt: epochNow() })
      return OK
    } catch (error) {
      if (codeOf(error) === ErrorCode.FX_SESSION_REVISION_CONFLICT) {
        if (!retried && (await adoptLateWrite(id))) return writeOnce(id, bytes, take, true)
        options.onWritten({ ...note, outcome: 'conflict', endedAt: epochNow() })
        return { type: 'conflict' }
      }
      unconfirmed.set(id, bytes)
      const message = messageOf(error)
      options.onWritten({ ...note, outcome: 'error', code: codeOf(error) ?? ErrorCode.FX_STORE_FAILED, message, endedAt: epochNow() })
      return { type: 'commit_error', message }
    }
  }

  /**
   * A commit that timed out may have landed after all; then the stored revision is our own and
   * the "conflict" is with ourselves. True when the stored bytes are the ones we sent.
   */
  const adoptLateWrite = async (id: string): Promise<boolean> => {
    const sent = unconfirmed.get(id)
    if (!sent) return false
    unconfirmed.delete(id)
    try {
      const stored = await store.load(id)
      // Bytes handed over are gone from here: the store knows the revision its own write made.
      const ours = stored && (handOver ? stored.revision === (await handOver.lastCommitted(id)) : sameBytes(stored.bytes, sent))
      if (!stored || !ours) return false
      revisions.set(id, stored.revision)
      return true
    } catch {
      return false
    }
  }

  return {
    commit(bytes) {
      const id = snapshotId(bytes)
      if (id === null) {
        const message = 'the engine sent a snapshot whose header cannot be read'
        options.onUnreadable(message)
        return Promise.resolve({ type: 'commit_error', message })
      }
      if (forking === id) return Promise.resolve(OK)
      const take = { forked: forking !== null, seq: ++accepted }
      forking = null
      options.onAccepted?.(id, take.forked, take.seq)
      return new Promise<SessionEvent>((resolve) => {
        const lane = lanes.get(id)
        if (lane?.writing) {
          const earlier = lane.pending?.waiters ?? []
          lane.pending = { bytes, waiters: [...earlier, resolve], seq: take.seq }
          return
        }
        const fresh: Lane = { writing: false, pending: null }
        lanes.set(id, fresh)
        void write(id, fresh, bytes, [resolve], take)
      })
    },
    opened(id, revision) {
      revisions.set(id, revision)
      unconfirmed.delete(id)
      if (forking === id) forking = null
    },
    removed(id) {
      revisions.delete(id)
      unconfirmed.delete(id)
    },
  }
}

function codeOf(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined
  return typeof code === 'string' ? code : undefined
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false
  return true
}
