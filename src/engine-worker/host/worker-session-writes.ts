/**
 * Engine worker. Where the engine's snapshots go: fxterm's IndexedDB session store is written here,
 * where the bytes are made (session-commits.ts), and the page hears a small note after each write
 * (its lock, the other tabs, a notice when a write fails). An app's own `sessionStore` lives on the
 * page, so there the snapshot is moved to the page, which writes it (session-bridge.ts).
 *
 * Which of the two is known only once the page has probed IndexedDB: a page that may use fxterm's
 * store starts the worker with `sessionsHere` and says later (`sessionsWrittenHere`); commits made
 * before then wait, as they would have waited on the page for the probe.
 */
import * as Comlink from 'comlink'
import { guardStore } from '../stores/guard-store.ts'
import { createSessionCommits, type CommitNote, type SessionCommits } from '../stores/session-commits.ts'
import { ErrorCode } from '../../shared/errors.ts'
import { sharedSessionStore } from '../stores/shared-session-store.ts'
import { movesWithItsBuffer, recycleSnapshotBuffers } from '../../shared/snapshot-buffers.ts'
import type { IdbSessionStore } from '../stores/idb-session-store.ts'
import type { SessionEvent } from '../../shared/messages/engine-frames.ts'
import type { CommitTake } from '../../shared/messages/worker-api.ts'

type Where = { namespace: string | undefined } | null

export type SessionWrites = {
  commit(bytes: Uint8Array): Promise<SessionEvent>
  /** Session `id` was opened or resumed at `revision`: its next commit here passes it. */
  opened(id: string, revision: string): void
  removed(id: string): void
  /** The page's answer to `sessionsHere` (WorkerStartConfig). */
  decide(where: Where): void
}

/** The page's callbacks these writes use (HostCallbacks, across Comlink). */
type Page = {
  sessionCommit(bytes: Uint8Array): Promise<SessionEvent>
  sessionTaken(take: CommitTake): unknown
  sessionWritten(note: CommitNote): unknown
  event(event: { type: string } & Record<string, unknown>): unknown
}

/**
 * The writes for a page that starts the worker with `sessionsHere` (else every commit goes to the
 * page); `indexedDB` for tests, instead of the global one.
 */
export function createSessionWrites(host: Page, sessionsHere: boolean, indexedDB?: IDBFactory): SessionWrites {
  let decide!: (where: Where) => void
  const decided = new Promise<Where>((resolve) => (decide = resolve))
  if (!sessionsHere) decide(null)
  let store: IdbSessionStore | null = null
  // The store is known by the first write (it waits for `decided`); opens before it only note revisions.
  const guarded = () => guardStore(store!, { name: 'session store' })
  const commits: SessionCommits = createSessionCommits({
    store: { commit: (...args) => guarded().commit(...args), load: (id) => guarded().load(id) },
    // The store keeps the bytes without a copy (sharedSessionStore), and knows its own writes.
    handOver: { commitHandingOver: (...args) => guarded().commit(...args), lastCommitted: (id) => guarded().lastCommitted(id) },
    // Told at once, not after the write: a new session's files must be in place before a
    // command the engine asks for next (the page hears both in the order they were sent).
    onAccepted: (id, forked, seq) => void host.sessionTaken({ id, forked, seq }),
    onWritten: (note) => void host.sessionWritten(note),
    onUnreadable: (message) => void host.event({ type: 'session.commit_error', code: ErrorCode.FX_STORE_RECORD_INVALID, message }),
  })
  return {
    async commit(bytes) {
      // The engine's decoded payload has a buffer of its own (or a spare's); anything else goes as a copy.
      const own = movesWithItsBuffer(bytes) ? bytes : bytes.slice()
      const where = await decided
      if (where === null) return host.sessionCommit(Comlink.transfer(own, [own.buffer]))
      if (!store) {
        store = sharedSessionStore({ ...(where.namespace !== undefined ? { namespace: where.namespace } : {}), ...(indexedDB ? { indexedDB } : {}) })
        // The store gives back the buffer of the snapshot before the one it stored (snapshot-buffers.ts).
        recycleSnapshotBuffers()
      }
      return commits.commit(own)
    },
    opened: (id, revision) => commits.opened(id, revision),
    removed: (id) => commits.removed(id),
    decide: (where) => decide(where),
  }
}
