/**
 * The page's four stores: on IndexedDB when it works, else in memory with a notice. Private
 * windows and blocked storage make `indexedDB.open` throw, fail or (in some browsers) never
 * answer, so IndexedDB is tried once, with a deadline, before any store is handed out.
 */
import { ErrorCode } from '../../shared/errors.ts'
import { guardCall } from '../../engine-worker/stores/guard-store.ts'
import { idbConfigStore } from '../../engine-worker/stores/idb-config-store.ts'
import { idbOAuthSessionStore } from './idb-oauth-session-store.ts'
import { idbPromptHistoryStore } from '../../engine-worker/stores/idb-prompt-history-store.ts'
import { idbSessionStore } from '../../engine-worker/stores/idb-session-store.ts'
import { idbSessionStoreOffThread, sessionStoreServedBy, type SessionsServer } from './idb-session-store-off-thread.ts'
import { databaseName, OBJECT_STORE } from '../../engine-worker/stores/keyval-database.ts'
import { memoryConfigStore, memoryOAuthSessionStore, memoryPromptHistoryStore, memorySessionStore } from './memory-stores.ts'
import type { AsyncConfigStore, AsyncOAuthSessionStore, AsyncPromptHistoryStore, AsyncSessionStore, SessionStoreHandOver, SessionStoreHeads, SessionStoreInEngineWorker } from '../../shared/stores/types.ts'

/** Options of `openBrowserStores`. */
export type OpenBrowserStoresOptions = {
  /** Prefix of the database names, so two embeds on one origin keep apart. Default 'fxterm'. */
  namespace?: string
  /** The IndexedDB to use; default `globalThis.indexedDB`. */
  indexedDB?: IDBFactory
  /** How long the first open may take before storage counts as unavailable. Default 5 s. */
  probeTimeoutMs?: number
  /** Stores already opened by `startupReadStores` (reused when the probe passes). */
  early?: StartupReadStores
  /** The page resumes the newest session (`--resume last`): its first commit is made cheap ahead. */
  resumesNewest?: boolean
  /**
   * The engine worker, to run the session store in (it serves one, sessionStoreServedBy) instead of
   * a worker of the store's own. The static page's, which has read the session a reload resumes.
   */
  sessionsIn?: SessionsServer
}

/** The stores a page reads while starting (settings, prompt history, the session it resumes). */
export type StartupReadStores = { config: AsyncConfigStore; history: AsyncPromptHistoryStore; sessions: AsyncSessionStore }

/**
 * The start-up stores on IndexedDB, opened now, before the probe has said whether IndexedDB
 * works: for `deferStores` to read ahead on. Undefined where opening throws at once. Where the
 * engine worker does not read the session a reload resumes (src/engine-worker/host/worker-start-reads.ts; the
 * static page's does), it is read here on the page, not in the session store's worker: that
 * worker would have to start (fetch its script, a new thread) before its first read.
 */
export function startupReadStores(options: Pick<OpenBrowserStoresOptions, 'namespace' | 'indexedDB'> = {}): StartupReadStores | undefined {
  try {
    const idb = { namespace: options.namespace, indexedDB: options.indexedDB ?? globalIndexedDB() }
    if (idb.indexedDB === undefined) return undefined
    return { config: idbConfigStore(idb), history: idbPromptHistoryStore(idb), sessions: idbSessionStore(idb) }
  } catch {
    return undefined // the probe will say why, in its notice
  }
}

/** The stores, whether they outlive the tab, and a one-sentence notice when they do not. */
export type BrowserStores = {
  config: AsyncConfigStore
  history: AsyncPromptHistoryStore
  /** The off-thread store's additions where it is the one (deferred stores stand in for them). */
  sessions: AsyncSessionStore & Partial<SessionStoreHandOver & SessionStoreHeads & SessionStoreInEngineWorker>
  oauth: AsyncOAuthSessionStore
  persistent: boolean
  notice?: string
}

/** Written and deleted in one transaction by the probe, so it never stays in the config store. */
const PROBE_KEY = '\u0000fxterm-probe'

/** Opens the stores on IndexedDB, or in memory with `persistent: false` and a notice. */
export async function openBrowserStores(options: OpenBrowserStoresOptions = {}): Promise<BrowserStores> {
  const { namespace } = options
  const configDatabase = databaseName(namespace, 'config') // validates the namespace first
  const unavailable = await probeIndexedDB(options.indexedDB ?? globalIndexedDB(), configDatabase, options.probeTimeoutMs ?? 5_000)
  if (unavailable !== undefined) {
    return {
      config: memoryConfigStore(),
      history: memoryPromptHistoryStore(),
      sessions: memorySessionStore(),
      oauth: memoryOAuthSessionStore(),
      persistent: false,
      notice: `Storage is unavailable in this browser (${unavailable}), so nothing will be saved after this tab closes.`,
    }
  }
  requestPersistence()
  const idb = { namespace, indexedDB: options.indexedDB }
  return {
    config: options.early?.config ?? idbConfigStore(idb),
    history: options.early?.history ?? idbPromptHistoryStore(idb),
    sessions: sessionStore(idb, options),
    oauth: idbOAuthSessionStore(idb),
    persistent: true,
  }
}

/**
 * Commits go to a worker (idb-session-store-off-thread.ts); `early` only read ahead. In the engine
 * worker, when it is given, connected at once: it is running, holds the session it resumed, and
 * writes the engine's snapshots itself (worker-session-writes.ts), so only reads cross to it.
 * Else a worker of the store's own, which a page that resumes starts at its first idle moment: the
 * first commit then finds it warmed up with the session, which takes a while to read.
 */
function sessionStore(idb: { namespace?: string; indexedDB?: IDBFactory }, options: OpenBrowserStoresOptions) {
  const { resumesNewest, sessionsIn } = options
  if (sessionsIn) return idbSessionStoreOffThread({ ...idb, connect: sessionStoreServedBy(sessionsIn), connectNow: true, inEngineWorker: true })
  return idbSessionStoreOffThread({ ...idb, ...(resumesNewest ? { startWorkerAfterMs: 0, warmNewest: true } : { startWorkerAfterMs: 300 }) })
}

/** Undefined when a write to `dbName` commits, else why it did not, for the notice. */
async function probeIndexedDB(factory: IDBFactory | undefined, dbName: string, timeoutMs: number): Promise<string | undefined> {
  if (factory === undefined) return 'IndexedDB is missing'
  let timedOut = false
  try {
    await guardCall('opening IndexedDB', timeoutMs, () => writeProbe(factory, dbName, () => timedOut))
    return undefined
  } catch (error) {
    timedOut = true
    if ((error as { code?: unknown }).code === ErrorCode.FX_STORE_TIMEOUT) return `IndexedDB did not answer within ${timeoutMs} ms`
    return describeFailure(error)
  }
}

/** Opens `dbName` (creating it like the config store does), writes and deletes a key, closes. */
function writeProbe(factory: IDBFactory, dbName: string, abandoned: () => boolean): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const request = factory.open(dbName) // throws at once in some private windows
    request.onupgradeneeded = () => request.result.createObjectStore(OBJECT_STORE)
    request.onerror = () => reject(request.error)
    request.onsuccess = () => {
      const db = request.result
      // An answer after the deadline: close the connection nobody will use.
      if (abandoned()) return db.close()
      try {
        const transaction = db.transaction(OBJECT_STORE, 'readwrite')
        const store = transaction.objectStore(OBJECT_STORE)
        store.put(true, PROBE_KEY)
        store.delete(PROBE_KEY)
        transaction.oncomplete = () => {
          db.close()
          resolve()
        }
        transaction.onabort = () => {
          db.close()
          reject(transaction.error)
        }
      } catch (error) {
        db.close()
        reject(error)
      }
    }
  })
}

/** `globalThis.indexedDB`, which some sandboxed frames make throw on access. */
function globalIndexedDB(): IDBFactory | undefined {
  try {
    return globalThis.indexedDB
  } catch {
    return undefined
  }
}

/** A short reason for the notice: the error's name, or its message when the name says nothing. */
function describeFailure(error: unknown): string {
  const { name, message, cause } = (typeof error === 'object' && error !== null ? error : {}) as {
    name?: unknown
    message?: unknown
    cause?: unknown
  }
  // guardCall wraps the browser's error; the browser's own name is the useful part.
  if (cause !== undefined) return describeFailure(cause)
  if (typeof name === 'string' && name !== '' && name !== 'Error' && name !== 'FxError') return `IndexedDB failed with ${name}`
  const text = typeof message === 'string' && message !== '' ? message : String(error)
  return `IndexedDB failed: ${text.replace(/[.\s]+$/, '')}`
}

let persistenceRequested = false

/**
 * Asks the browser once per page to keep this origin's storage under pressure instead of
 * evicting it. The answer does not matter (browsers may refuse or prompt), so it is not awaited.
 */
function requestPersistence(): void {
  if (persistenceRequested) return
  persistenceRequested = true
  try {
    const answer = globalThis.navigator?.storage?.persist?.()
    void answer?.catch(() => {})
  } catch {
    // A browser without the Storage API, or one that throws: storage still works, just evictable.
  }
}
