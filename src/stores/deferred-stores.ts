/**
 * Stores usable before IndexedDB has been probed: each call waits for `openBrowserStores` and
 * then goes to the store it chose (IndexedDB, or memory when storage is blocked). The page can
 * hand these to createFxTerminal at once, so probing never delays the first frame.
 */
import type { BrowserStores } from './open-browser-stores.ts'

type StoreKey = 'config' | 'history' | 'sessions' | 'oauth'

const METHODS: Record<StoreKey, readonly string[]> = {
  config: ['get', 'set'],
  history: ['load', 'append', 'clear'],
  sessions: ['load', 'commit', 'list', 'remove'],
  oauth: ['load', 'commit', 'remove'],
}

/** Plain objects with own methods (guardStore wraps own methods; a Proxy would have none). */
function defer<K extends StoreKey>(stores: Promise<BrowserStores>, key: K): BrowserStores[K] {
  const out: Record<string, (...args: unknown[]) => Promise<unknown>> = {}
  for (const method of METHODS[key]) {
    out[method] = async (...args) => {
      const store = (await stores)[key] as unknown as Record<string, (...a: unknown[]) => unknown>
      return store[method]!(...args)
    }
  }
  return out as unknown as BrowserStores[K]
}

export function deferStores(stores: Promise<BrowserStores>): Pick<BrowserStores, StoreKey> {
  return {
    config: defer(stores, 'config'),
    history: defer(stores, 'history'),
    sessions: defer(stores, 'sessions'),
    oauth: defer(stores, 'oauth'),
  }
}
