/**
 * Where the page keeps a key saved with /key: the same sealed IndexedDB store as the sign-in
 * (AES-GCM under a non-extractable key), in a database of its own (`<namespace>-key-oauth`), so
 * signing out never touches the key and clearing the key never touches the sign-in.
 */
import { idbOAuthSessionStore } from './idb-oauth-session-store.ts'
import type { AsyncOAuthSessionStore, IdbStoreOptions } from '../../shared/stores/types.ts'

/** A sealed store for one API key. */
export function idbKeyStore(options: IdbStoreOptions = {}): AsyncOAuthSessionStore {
  return idbOAuthSessionStore({ ...options, namespace: `${options.namespace ?? 'fxterm'}-key` })
}
