/**
 * Starts the engine worker. Its own module (nothing else in it), so a page can start the worker
 * from a tiny first script, before the terminal's code has even downloaded.
 */
import { PREFETCH_RESUME, type PrefetchMessage } from '../worker/prefetch-message.ts'

export type SpawnOptions = {
  /**
   * The store namespace whose latest session the worker should read at once, for `--resume last`
   * (see src/worker/resume-prefetch.ts); pass `workerReadsResume: true` to createFxTerminal then.
   */
  readsResumeOf?: string
}

export function spawnEngineWorker(options: SpawnOptions = {}): Worker {
  const worker = new Worker(new URL('../worker/engine-worker.ts', import.meta.url), { type: 'module', name: 'fxterm-engine' })
  if (options.readsResumeOf !== undefined) worker.postMessage({ type: PREFETCH_RESUME, namespace: options.readsResumeOf } satisfies PrefetchMessage)
  return worker
}
