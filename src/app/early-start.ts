/**
 * Run first by the page (boot.ts), before xterm.js is even downloaded: the engine's wasm
 * download and compilation and the engine worker's start-up overlap the rest of page load.
 */
import { spawnEngineWorker } from '../terminal/spawn-engine-worker.ts'
import { preloadEngine } from '../terminal/preload-engine.ts'
import { openBrowserStores } from '../stores/open-browser-stores.ts'

export const engineModule = preloadEngine()
export const engineWorker = spawnEngineWorker()
performance.mark('fxterm:worker-spawned')

// IndexedDB is probed now, before xterm.js is even evaluated: the session to resume waits for it.
export const storesOpening = openBrowserStores({ namespace: 'fxterm' })
