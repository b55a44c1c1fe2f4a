/**
 * The page's first script, on the page's thread: built on its own into one small file whose tag
 * comes first in the page's head (build-plugins/early-worker-script.ts), so it runs before the
 * terminal's code has arrived. When there is a session to resume (page-saved-sessions-flag.ts),
 * it starts the engine worker and has it read what start-up restores
 * (src/engine-worker/host/worker-start-reads.ts): the page's thread then evaluates the
 * terminal's code, a task of ~100 ms that held up the worker's creation (its script was fetched
 * only after it) and every IndexedDB answer to the page. On a first visit there is nothing to
 * read, and it starts nothing: a worker started here then was no sooner up (A/B in
 * docs/ARCHITECTURE.md, "Start-up").
 *
 * It hands what it started to the page's start-up (page-start-up.ts) as `early`: that module
 * imports this one, and the build points the import at the same built file, so the browser
 * evaluates it once and both see one `early`.
 */
import { spawnEngineWorkerReading } from '../terminal/spawn-engine-worker.ts'
import { engineWasmUrl } from '../../engine-worker/host/engine-url.ts'
import { PAGE_NAMESPACE, PAGE_START_READS } from '../app/page-namespace.ts'
import { hasSavedSessions, lastHeldSession } from '../app/page-saved-sessions-flag.ts'
import { requestSessionLock, type EarlyLock } from '../terminal/session-locks.ts'
import type { StartReadsAnswer } from '../../shared/messages/start-reads-message.ts'
import { markStartUp } from '../../shared/start-up-timeline.ts'

/** What the first script started: the engine worker, its start-up reads, the session lock claimed. */
export type EarlyStart = { worker: Worker; reads: Promise<StartReadsAnswer | null>; lock?: EarlyLock }

/**
 * How long the early claim waits for a page being reloaded to let go of the lock (more than 600 ms
 * on a busy machine): the resume takes it over, and itself waits no longer than it did before.
 */
const EARLY_LOCK_WAIT_MS = 3_000

function startEarly(): EarlyStart {
  // With engine.wasm's URL the worker also decodes the session before the page boots the engine
  // (src/engine-worker/host/worker-decode-ahead.ts).
  const started: EarlyStart = spawnEngineWorkerReading({ ...PAGE_START_READS, wasmUrl: engineWasmUrl() })
  // The resume takes the session's Web Lock, and the lock manager answered a claim made then in
  // 7-47 ms (a page's first lock call also connects to it: 18-60 ms on an idle page). So the lock
  // of the session this page wrote last, the one `--resume last` most likely resumes, is claimed
  // now, while the page waits for its scripts; the resume takes it over (session-locks.ts), or
  // lets it go when it resumes another.
  try {
    const id = lastHeldSession()
    if (id && navigator.locks) started.lock = { id, answer: requestSessionLock(navigator.locks, PAGE_NAMESPACE, id, EARLY_LOCK_WAIT_MS) }
    else navigator.locks?.query().catch(() => {})
  } catch {
    // No lock manager here (an opaque origin): the resume finds that out itself.
  }
  return started
}

markStartUp('first-script')
/** Null on a first visit: the page starts its engine worker itself (page-early-start.ts). */
export const early: EarlyStart | null = hasSavedSessions() ? startEarly() : null
