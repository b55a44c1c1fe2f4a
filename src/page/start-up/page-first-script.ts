/**
 * The page's first script, an entry of its own (vite.config.ts puts its tag first). When there is
 * a session to resume (page-saved-sessions-flag.ts), it starts the engine worker before the terminal's
 * code has arrived and has it read what start-up restores (src/engine-worker/start-up/worker-start-reads.ts). The page's
 * thread then evaluates the terminal's code, a task of ~100 ms that held up the worker's creation
 * (its script was fetched only after it) and every IndexedDB answer to the page.
 */
import { spawnEngineWorkerReading } from '../terminal/spawn-engine-worker.ts'
import { engineWasmUrl } from '../../engine-worker/host/engine-url.ts'
import { PAGE_NAMESPACE, PAGE_START_READS } from './page-namespace.ts'
import { hasSavedSessions, lastHeldSession } from './page-saved-sessions-flag.ts'
import { requestSessionLock, type EarlyLock } from '../terminal/session-locks.ts'

/**
 * How long the early claim waits for a page being reloaded to let go of the lock (more than 600 ms
 * on a busy machine): the resume takes it over, and itself waits no longer than it did before.
 */
const EARLY_LOCK_WAIT_MS = 3_000

// With engine.wasm's URL the worker also decodes the session before the page boots the engine
// (src/engine-worker/start-up/worker-decode-ahead.ts).
// Only before the page's start-up (page-early-start.ts) has run: this script loads `async`, and where it
// came late, the page has started its worker itself, and a lock claimed now would be nobody's.
if (hasSavedSessions() && !(globalThis as { __fxStarted?: boolean }).__fxStarted) {
  ;(globalThis as { __fxEarly?: unknown }).__fxEarly = spawnEngineWorkerReading({ ...PAGE_START_READS, wasmUrl: engineWasmUrl() })
  // The resume takes the session's Web Lock, and the lock manager answered a claim made then in
  // 7-47 ms (a page's first lock call also connects to it: 18-60 ms on an idle page). So the lock
  // of the session this page wrote last, the one `--resume last` most likely resumes, is claimed
  // now, while the page waits for its scripts; the resume takes it over (session-locks.ts), or
  // lets it go when it resumes another.
  try {
    const id = lastHeldSession()
    if (id && navigator.locks) (globalThis as { __fxEarlyLock?: EarlyLock }).__fxEarlyLock = { id, answer: requestSessionLock(navigator.locks, PAGE_NAMESPACE, id, EARLY_LOCK_WAIT_MS) }
    else navigator.locks?.query().catch(() => {})
  } catch {
    // No lock manager here (an opaque origin): the resume finds that out itself.
  }
}
