/**
 * The page's early start, on the page's thread, run by page-start-up.ts just before the terminal
 * opens: the engine worker (unless the first script started it) and the IndexedDB probe go on
 * while the page's thread opens the terminal. The worker reads what start-up restores itself.
 */
import { openDeferredStores } from './page-deferred-stores.ts'
import { prefetchConfig, prefetchHistory } from './page-prefetch-first-reads.ts'
import { CONFIG_IDS, HISTORY_LIMIT } from '../terminal/restored-ids.ts'
import type { StartReadsAnswer } from '../../shared/messages/start-reads-message.ts'
import type { EarlyLock } from '../terminal/session-locks.ts'
import type { BrowserStores } from '../stores/open-browser-stores.ts'
import type { AsyncConfigStore, AsyncPromptHistoryStore } from '../../shared/stores/types.ts'
import { PAGE_NAMESPACE, PAGE_START_READS, PAGE_WORKSPACE_ROOT } from './page-namespace.ts'
import { spawnEngineWorkerReading } from '../terminal/spawn-engine-worker.ts'
import type { EarlyStart } from './page-first-script.ts'

/** What the terminal is opened with (main.ts). */
export type Started = {
  engineWorker: Worker
  /** What the engine worker read at start-up: the session to resume (by id), settings, history. */
  startReads: Promise<StartReadsAnswer | null>
  /** The session lock the first script claimed, for the session bridge to take over. */
  earlyLock: EarlyLock | undefined
  storesOpening: Promise<BrowserStores>
  stores: Pick<BrowserStores, 'config' | 'history' | 'sessions' | 'oauth'>
  configStore: AsyncConfigStore
  historyStore: AsyncPromptHistoryStore
}

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
