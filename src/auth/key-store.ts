/**
 * API keys saved with /key, one per provider, sealed at rest like the sign-in (an
 * OAuthSessionStore-shaped store: AES-GCM under a non-extractable key in IndexedDB, see
 * src/stores/seal.ts). One record holds them all, `{v: 2, keys: {<provider>: <key>}}`; a record
 * of the first version (`{v: 1, key}`) held only AI Gateway's key and reads as that. The app's
 * `env.AI_GATEWAY_API_KEY` never comes here.
 */
import type { OAuthSessionStore } from '../stores/types.ts'

/** One provider's saved key. */
export type KeyStore = {
  load(): Promise<string | undefined>
  save(key: string): Promise<void>
  /** True when a key was removed. */
  clear(): Promise<boolean>
}

/** Every provider's saved key. */
export type KeyRing = {
  load(provider: string): Promise<string | undefined>
  save(provider: string, key: string): Promise<void>
  /** True when that provider had a key. */
  clear(provider: string): Promise<boolean>
  /** The providers that have a key now. */
  names(): Promise<string[]>
  /** The view of one provider's key. */
  forProvider(provider: string): KeyStore
}

/** The provider a version 1 record's key belongs to. */
export const LEGACY_KEY_PROVIDER = 'ai-gateway'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

function decode(bytes: Uint8Array): Record<string, string> {
  try {
    const value = JSON.parse(decoder.decode(bytes)) as { v?: unknown; key?: unknown; keys?: unknown }
    if (value.v === 1) return typeof value.key === 'string' && value.key !== '' ? { [LEGACY_KEY_PROVIDER]: value.key } : {}
    if (value.v !== 2 || typeof value.keys !== 'object' || value.keys === null) return {}
    const keys: Record<string, string> = {}
    for (const [name, key] of Object.entries(value.keys)) if (typeof key === 'string' && key !== '') keys[name] = key
    return keys
  } catch {
    return {}
  }
}

/** A key ring over sealed bytes; `null` for none (keys cannot be saved). */
export function createKeyRing(store: OAuthSessionStore | null): KeyRing {
  let lastRevision: string | undefined
  const read = async (): Promise<Record<string, string>> => {
    if (store === null) return {}
    const found = await store.load()
    lastRevision = found?.revision
    return found ? decode(found.bytes) : {}
  }
  /** Applies `change` to the stored keys; a stale revision (another tab wrote) is read again once. */
  const update = async (change: (keys: Record<string, string>) => void): Promise<void> => {
    if (store === null) throw new Error('this page has no store for keys')
    const write = async () => {
      const keys = await read()
      change(keys)
      if (Object.keys(keys).length === 0) {
        await store.remove(lastRevision)
        lastRevision = undefined
      } else lastRevision = (await store.commit(encoder.encode(JSON.stringify({ v: 2, keys })), lastRevision)).revision
    }
    try {
      await write()
    } catch {
      await write()
    }
  }
  const ring: KeyRing = {
    load: async (provider) => (await read())[provider],
    save: (provider, key) => update((keys) => void (keys[provider] = key)),
    async clear(provider) {
      if (store === null) return false
      if ((await read())[provider] === undefined) return false
      await update((keys) => void delete keys[provider])
      return true
    },
    names: async () => Object.keys(await read()),
    forProvider: (provider) => ({
      load: () => ring.load(provider),
      save: (key) => ring.save(provider, key),
      clear: () => ring.clear(provider),
    }),
  }
  return ring
}

/** AI Gateway's key alone (the account provider's), as before keys were kept per provider. */
export function createKeyStore(store: OAuthSessionStore | null): KeyStore {
  return createKeyRing(store).forProvider(LEGACY_KEY_PROVIDER)
}
