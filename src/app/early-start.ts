/**
 * Imported first by the page, so it runs before xterm.js is even evaluated: the engine's wasm
 * download and compilation and the engine worker's start-up overlap the rest of page load.
 */
import { spawnEngineWorker } from '../terminal/create-fx-terminal.ts'
import { preloadEngine } from '../terminal/preload-engine.ts'

export const engineModule = preloadEngine()
export const engineWorker = spawnEngineWorker()
performance.mark('fxterm:worker-spawned')

