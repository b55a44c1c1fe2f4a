/**
 * Stores usable before IndexedDB has been probed: each call waits for `openBrowserStores` and
 * then goes to the store it chose (IndexedDB, or memory when storage is blocked). The page can
 * hand these to createFxTerminal at once, so probing never delays the first frame.
 *
 * Reads need not wait for the probe either. Given `early` (the same stores on IndexedDB, opened
 * now), a read runs on them at once, in parallel with the probe, and its answer is used only if
 * the probe then chose IndexedDB; otherwise the read is asked again of the store it chose. The
 * probe (open, write, delete, commit) and the start-up reads (a 4 MB session, say) no longer
 * queue one behind the other. Once a store has been written through, its reads wait like writes,
 * so a read never misses a write made before it.
 */
import { openBrowserStores, startupReadStores, type BrowserStores, type OpenBrowserStoresOptions } from '../stores/open-browser-stores.ts'

type StoreKey = 'config' | 'history' | 'sessions' | 'oauth'
type AnyStore = Record<string, (...args: unknown[]) => Promise<unknown>>

const METHODS: Record<StoreKey, readonly string[]> = {
  config: ['get', 'set'],
  history: ['load', 'append', 'clear'],
  sessions: ['load', 'commit', 'list', 'remove', 'commitHandingOver', 'lastCommitted', 'loadHead', 'writtenInEngineWorker'],
  oauth: ['load', 'commit', 'remove'],
}

/** What a chosen store without the off-thread store's additions (types.ts) answers instead. */
const STAND_INS: Record<string, (store: AnyStore, args: unknown[]) => Promise<unknown>> = {
  commitHandingOver: (store, args) => store['commit']!(...args),
  lastCommitted: async () => null,
  loadHead: (store, args) => store['load']!(args[0]),
  writtenInEngineWorker: async () => null,
}

/** The methods that only read, which may run ahead of the probe. */
const READS = new Set(['get', 'load', 'list', 'loadHead'])
/** Neither a read nor a write: answered by the chosen store once the probe has chosen. */
const ASKS = new Set(['writtenInEngineWorker'])

/** Plain objects with own methods (guardStore wraps own methods; a Proxy would have none). */
function defer<K extends StoreKey>(stores: Promise<BrowserStores>, key: K, early: AnyStore | undefined): BrowserStores[K] {
  const out: Record<string, (...args: unknown[]) => Promise<unknown>> = {}
  let written = false
  const chosen = async (method: string, args: unknown[]) => {
    const store = (await stores)[key] as unknown as AnyStore
    return store[method] ? store[method](...args) : STAND_INS[method]!(store, args)
  }
  for (const method of METHODS[key]) {
    out[method] = (...args) => {
      if (ASKS.has(method)) return chosen(method, args)
      if (!READS.has(method)) written = true
      if (!early || written || !READS.has(method)) return chosen(method, args)
      const ahead = early[method]!(...args)
      ahead.catch(() => {}) // answered below, or asked again of the chosen store
      return stores.then(
        (opened) => (opened.persistent ? ahead.catch(() => chosen(method, args)) : chosen(method, args)),
        () => chosen(method, args),
      )
    }
  }
  return out as unknown as BrowserStores[K]
}

/** `stores` usable now; reads run ahead on `early` (see the file comment). */
export function deferStores(stores: Promise<BrowserStores>, early?: Partial<Pick<BrowserStores, StoreKey>>): Pick<BrowserStores, StoreKey> {
  const ahead = (key: StoreKey) => early?.[key] as unknown as AnyStore | undefined
  return {
    config: defer(stores, 'config', ahead('config')),
    history: defer(stores, 'history', ahead('history')),
    sessions: defer(stores, 'sessions', ahead('sessions')),
    oauth: defer(stores, 'oauth', ahead('oauth')),
  }
}

/**
 * Opens the browser stores (openBrowserStores) and hands out deferred ones that read ahead.
 * `readAhead: false` opens no database for reads before the probe: for a page whose engine worker
 * reads what start-up restores (src/engine-worker/host/worker-start-reads.ts), where they would be opened for nothing.
 */
export function openDeferredStores(options: OpenBrowserStoresOptions & { readAhead?: boolean } = {}): { opening: Promise<BrowserStores>; stores: Pick<BrowserStores, StoreKey> } {
  const { readAhead = true, ...open } = options
  const early = readAhead ? startupReadStores(open) : undefined
  const opening = openBrowserStores({ ...open, ...(early ? { early } : {}) })
  return { opening, stores: deferStores(opening, early) }
}
