/**
 * The oauthSessionStore and the key store live on the page (IndexedDB, the app's own stores);
 * sign-in runs in the engine worker. comlink keeps only an error's name and message, so the page
 * answers with result values and the worker rebuilds errors with their `code` (the revision
 * conflict above all, which the worker must recognize).
 */
import { ErrorCode, errorOf, failureOf, FxError, type FxFailure } from '../../shared/errors.ts'
import type { OAuthSessionStore, RevisionedBytes } from '../../shared/stores/types.ts'
import type { SealedStoreHost } from '../../shared/messages/worker-api.ts'
import type { SealedStoreName, StoreAnswer } from '../../shared/messages/worker-api.ts'
export type { SealedStoreName, StoreAnswer } from '../../shared/messages/worker-api.ts'
export type { SealedStoreHost } from '../../shared/messages/worker-api.ts'

async function answer<T>(call: () => T | Promise<T>): Promise<StoreAnswer<T>> {
  try {
    return { ok: true, value: await call() }
  } catch (error) {
    return failureOf(error, ErrorCode.FX_STORE_FAILED)
  }
}

/** The page's end: `stores` by name (the memory store stands in for a missing one). */
export function serveSealedStores(stores: Record<SealedStoreName, OAuthSessionStore | null>): SealedStoreHost {
  const pick = (name: SealedStoreName): OAuthSessionStore => {
    const store = stores[name]
    if (!store) throw new FxError(ErrorCode.FX_STORE_FAILED, `this page has no ${name === 'key' ? 'key' : 'sign-in'} store`)
    return store
  }
  return {
    // A store is optional: one the page did not pass holds nothing (saving to it still fails).
    storeLoad: (name) => answer(() => (stores[name] ? stores[name].load() : null)),
    storeCommit: (name, bytes, expected) => answer(() => pick(name).commit(bytes, expected)),
    storeRemove: (name, expected) => answer(() => pick(name).remove(expected)),
  }
}

function unwrap<T>(result: StoreAnswer<T>): T {
  if (result.ok) return result.value
  throw errorOf(result)
}

/** The worker's end: an OAuthSessionStore whose calls go to the page. */
export function sealedStoreOf(host: SealedStoreHost, name: SealedStoreName): OAuthSessionStore {
  return {
    load: async () => unwrap(await host.storeLoad(name)),
    commit: async (bytes, expected) => unwrap(await host.storeCommit(name, bytes, expected)),
    remove: async (expected) => unwrap(await host.storeRemove(name, expected)),
  }
}
