/**
 * The page's early start, on the page's thread, run by page-start-up.ts just before the terminal
 * opens: the engine worker (unless the first script started it) and the IndexedDB probe go on
 * while the page's thread opens the terminal. The worker reads what start-up restores itself.
 */
import { openDeferredStores } from './page-deferred-stores.ts'
import { prefetchConfig, prefetchHistory } from './page-prefetch-first-reads.ts'
import { CONFIG_IDS, HISTORY_LIMIT } from '../terminal/restored-ids.ts'
import { PAGE_NAMESPACE, PAGE_START_READS, PAGE_WORKSPACE_ROOT } from '../app/page-namespace.ts'
import { spawnEngineWorkerReading } from '../terminal/spawn-engine-worker.ts'
import type { EarlyStart } from './page-first-script.ts'
import type { Started } from '../app/main.ts'

/** Starts the engine worker unless the first script did (`early`), and opens the stores. */
export function startEngineAndStores(early: EarlyStart | null): Started {
  const { worker, reads } = early ?? spawnEngineWorkerReading(PAGE_START_READS)
  // IndexedDB is probed now, for the stores' writes (page-deferred-stores.ts). What start-up restores
  // comes from the engine worker's reads; one that failed is read here instead.
  // The session store runs in the engine worker, which has read the session a reload resumes and
  // writes the engine's snapshots itself: its first commit writes only what changed.
  const { opening, stores } = openDeferredStores({ namespace: PAGE_NAMESPACE, readAhead: false, resumesNewest: early !== null, sessionsIn: worker })
  return {
    engineWorker: worker,
    startReads: reads,
    earlyLock: early?.lock,
    storesOpening: opening,
    stores,
    configStore: prefetchConfig(stores.config, CONFIG_IDS, reads.then((answer) => answer?.config ?? null)),
    historyStore: prefetchHistory(stores.history, PAGE_WORKSPACE_ROOT, HISTORY_LIMIT, reads.then((answer) => answer?.history ?? null)),
  }
}
