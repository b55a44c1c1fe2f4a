/**
 * The page's first script, an entry of its own (vite.config.ts puts its tag first): it starts
 * the engine worker before the terminal's code has arrived, and asks it to read the session a
 * reload resumes (src/worker/resume-prefetch.ts). The page's thread then evaluates the terminal's
 * code, a task of ~100 ms that used to hold up the worker's creation (its script was fetched
 * only after that task) and every IndexedDB answer to the page.
 */
import { spawnEngineWorker } from '../terminal/spawn-engine-worker.ts'
import { PAGE_NAMESPACE } from './page-namespace.ts'

;(globalThis as { __fxEngineWorker?: Worker }).__fxEngineWorker = spawnEngineWorker({ readsResumeOf: PAGE_NAMESPACE })
