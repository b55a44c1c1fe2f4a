/**
 * Run first by the page (boot.ts), just before main.ts opens the terminal: the engine's wasm
 * download and compilation (off the page's thread), the engine worker's start-up and the
 * IndexedDB reads go on while the page's thread opens the terminal.
 */
import { spawnEngineWorker } from '../terminal/spawn-engine-worker.ts'
import { preloadEngine } from '../terminal/preload-engine.ts'
import { openDeferredStores } from '../stores/deferred-stores.ts'
import { prefetchLatestSession } from '../stores/prefetch-latest-session.ts'
import { prefetchConfig, prefetchHistory } from '../stores/prefetch-first-reads.ts'
import { CONFIG_IDS } from '../terminal/config-bridge.ts'
import { HISTORY_LIMIT } from '../terminal/history-bridge.ts'

export const engineModule = preloadEngine()
export const engineWorker = spawnEngineWorker()
performance.mark('fxterm:worker-spawned')

// IndexedDB is probed now, and what start-up restores (the session a reload resumes, the
// settings, the prompt history of /workspace) is read at once, alongside the probe
// (deferred-stores.ts): the engine boots without waiting for it, and it follows sooner.
export const { opening: storesOpening, stores } = openDeferredStores({ namespace: 'fxterm' })
export const sessionStore = prefetchLatestSession(stores.sessions)
export const configStore = prefetchConfig(stores.config, CONFIG_IDS)
export const historyStore = prefetchHistory(stores.history, '/workspace', HISTORY_LIMIT)
