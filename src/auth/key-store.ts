/**
 * The API key saved with /key, sealed at rest like the sign-in (an OAuthSessionStore-shaped
 * store: AES-GCM under a non-extractable key in IndexedDB, see src/stores/seal.ts). The app's
 * `env.AI_GATEWAY_API_KEY` never comes here.
 */
import type { OAuthSessionStore } from '../stores/types.ts'

export type KeyStore = {
  load(): Promise<string | undefined>
  save(key: string): Promise<void>
  /** True when a key was removed. */
  clear(): Promise<boolean>
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** A key store over sealed bytes; `null` for none (the key cannot be saved). */
export function createKeyStore(store: OAuthSessionStore | null): KeyStore {
  if (store === null) {
    return {
      load: async () => undefined,
      save: async () => {
        throw new Error('this page has no store for keys')
      },
      clear: async () => false,
    }
  }
  let lastRevision: string | undefined
  const load = async () => {
    const found = await store.load()
    lastRevision = found?.revision
    if (!found) return undefined
    try {
      const value = JSON.parse(decoder.decode(found.bytes)) as { v?: unknown; key?: unknown }
      return value.v === 1 && typeof value.key === 'string' && value.key !== '' ? value.key : undefined
    } catch {
      return undefined
    }
  }
  return {
    load,
    async save(key) {
      const bytes = encoder.encode(JSON.stringify({ v: 1, key }))
      try {
        lastRevision = (await store.commit(bytes, lastRevision)).revision
      } catch {
        // Stale revision (another tab saved a key): read it again and retry once.
        await load()
        lastRevision = (await store.commit(bytes, lastRevision)).revision
      }
    },
    async clear() {
      await load()
      const answer = await store.remove(lastRevision)
      lastRevision = undefined
      return answer !== false && answer !== 'missing'
    },
  }
}
