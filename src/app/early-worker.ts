/**
 * The page's first script, an entry of its own (vite.config.ts puts its tag first). When there is
 * a session to resume (saved-sessions-flag.ts), it starts the engine worker before the terminal's
 * code has arrived and has it read what start-up restores (src/worker/start-reads.ts). The page's
 * thread then evaluates the terminal's code, a task of ~100 ms that held up the worker's creation
 * (its script was fetched only after it) and every IndexedDB answer to the page.
 */
import { spawnEngineWorkerReading } from '../terminal/spawn-engine-worker.ts'
import { engineWasmUrl } from '../terminal/engine-url.ts'
import { PAGE_START_READS } from './page-namespace.ts'
import { hasSavedSessions } from './saved-sessions-flag.ts'

// With engine.wasm's URL the worker also decodes the session before the page boots the engine
// (src/worker/decode-ahead.ts).
if (hasSavedSessions()) {
  ;(globalThis as { __fxEarly?: unknown }).__fxEarly = spawnEngineWorkerReading({ ...PAGE_START_READS, wasmUrl: engineWasmUrl() })
  // The resume takes the session's Web Lock. A page's first lock call connects to the browser's
  // lock manager: on an otherwise idle page it took 18-60 ms, later calls 1-3 ms. Made now, while
  // the page waits for its scripts, not when the resume waits for the lock.
  try {
    navigator.locks?.query().catch(() => {})
  } catch {
    // No lock manager here (an opaque origin): the resume finds that out itself.
  }
}
