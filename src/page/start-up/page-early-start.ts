/**
 * Run first by the page (boot.ts), just before main.ts opens the terminal: the engine worker (which
 * downloads and compiles engine.wasm once it is told to start) and the IndexedDB probe go on while
 * the page's thread opens the terminal. The engine worker was started earlier still, by the page's first
 * script (page-first-script.ts), and reads what start-up restores itself.
 */
import { spawnEngineWorkerReading } from '../terminal/spawn-engine-worker.ts'
import { openDeferredStores } from './page-deferred-stores.ts'
import { prefetchConfig, prefetchHistory } from './page-prefetch-first-reads.ts'
import { CONFIG_IDS, HISTORY_LIMIT } from '../terminal/restored-ids.ts'
import type { StartReadsAnswer } from '../../shared/messages/start-reads-message.ts'
import type { EarlyLock } from '../terminal/session-locks.ts'
import { PAGE_NAMESPACE, PAGE_START_READS, PAGE_WORKSPACE_ROOT } from './page-namespace.ts'

type Early = { worker: Worker; reads: Promise<StartReadsAnswer | null> }
const holder = globalThis as { __fxEarly?: Early; __fxEarlyLock?: EarlyLock; __fxStarted?: boolean }
// The first script, should it run after this (it loads `async`), then starts nothing of its own.
holder.__fxStarted = true
/** The first script started the worker: there is a session to resume. */
const resumesSaved = holder.__fxEarly !== undefined
const early = holder.__fxEarly ?? spawnEngineWorkerReading(PAGE_START_READS)
delete holder.__fxEarly
export const engineWorker = early.worker
/** What the engine worker read at start-up: the session to resume (by id), settings, history. */
export const startReads = early.reads
/** The session lock the first script claimed (page-first-script.ts), for the session bridge to take over. */
export const earlyLock = holder.__fxEarlyLock
delete holder.__fxEarlyLock
performance.mark('fxterm:worker-spawned')

// IndexedDB is probed now, for the stores' writes (page-deferred-stores.ts). What start-up restores
// comes from the engine worker's reads; one that failed is read here instead.
// The session store runs in the engine worker, which has read the session a reload resumes and
// writes the engine's snapshots itself: its first commit writes only what changed.
export const { opening: storesOpening, stores } = openDeferredStores({ namespace: PAGE_NAMESPACE, readAhead: false, resumesNewest: resumesSaved, sessionsIn: early.worker })
export const sessionStore = stores.sessions
export const configStore = prefetchConfig(stores.config, CONFIG_IDS, startReads.then((reads) => reads?.config ?? null))
export const historyStore = prefetchHistory(stores.history, PAGE_WORKSPACE_ROOT, HISTORY_LIMIT, startReads.then((reads) => reads?.history ?? null))
