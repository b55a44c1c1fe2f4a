/**
 * Starts the engine worker. Its own module (nothing else in it), so a page can start the worker
 * from a tiny first script, before the terminal's code has even downloaded.
 */
export function spawnEngineWorker(): Worker {
  return new Worker(new URL('../worker/engine-worker.ts', import.meta.url), { type: 'module', name: 'fxterm-engine' })
}
