/**
 * Run first by the page (boot.ts), just before main.ts opens the terminal: the engine's wasm
 * download and compilation (off the page's thread) and the IndexedDB reads go on while the page's
 * thread opens the terminal. The engine worker was started earlier still, by the page's first
 * script (early-worker.ts), and reads the session a reload resumes itself.
 */
import { spawnEngineWorker } from '../terminal/spawn-engine-worker.ts'
import { preloadEngine } from '../terminal/preload-engine.ts'
import { openDeferredStores } from '../stores/deferred-stores.ts'
import { prefetchConfig, prefetchHistory } from '../stores/prefetch-first-reads.ts'
import { CONFIG_IDS } from '../terminal/config-bridge.ts'
import { HISTORY_LIMIT } from '../terminal/history-bridge.ts'
import { PAGE_NAMESPACE } from './page-namespace.ts'

export const engineModule = preloadEngine()
const early = globalThis as { __fxEngineWorker?: Worker }
export const engineWorker = early.__fxEngineWorker ?? spawnEngineWorker({ readsResumeOf: PAGE_NAMESPACE })
delete early.__fxEngineWorker
performance.mark('fxterm:worker-spawned')

// IndexedDB is probed now, and what start-up restores (the settings, the prompt history of
// /workspace) is read at once, alongside the probe (deferred-stores.ts): the engine boots without
// waiting for it, and it follows sooner. The session is the engine worker's to read.
export const { opening: storesOpening, stores } = openDeferredStores({ namespace: PAGE_NAMESPACE })
export const sessionStore = stores.sessions
export const configStore = prefetchConfig(stores.config, CONFIG_IDS)
export const historyStore = prefetchHistory(stores.history, '/workspace', HISTORY_LIMIT)
