/**
 * Run first by the page (boot.ts), before xterm.js is even downloaded: the engine's wasm
 * download and compilation and the engine worker's start-up overlap the rest of page load.
 */
import { spawnEngineWorker } from '../terminal/spawn-engine-worker.ts'
import { preloadEngine } from '../terminal/preload-engine.ts'
import { openBrowserStores } from '../stores/open-browser-stores.ts'
import { deferStores } from '../stores/deferred-stores.ts'
import { prefetchLatestSession } from '../stores/prefetch-latest-session.ts'

export const engineModule = preloadEngine()
export const engineWorker = spawnEngineWorker()
performance.mark('fxterm:worker-spawned')

// IndexedDB is probed now, and the session a reload resumes is read at once, before xterm.js has
// even downloaded (calls made before the probe ends wait for it).
export const storesOpening = openBrowserStores({ namespace: 'fxterm' })
export const stores = deferStores(storesOpening)
export const sessionStore = prefetchLatestSession(stores.sessions)
