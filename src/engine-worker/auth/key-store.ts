/**
 * API keys saved with /key, one per provider, each bound to the origin it was saved for, sealed
 * at rest like the sign-in (an OAuthSessionStore-shaped store: AES-GCM under a non-extractable
 * key in IndexedDB, see src/page/stores/seal.ts). One record holds them all,
 * `{v: 3, keys: {<provider>: {key, origin}}}`. A key is given out only for a request to its own
 * origin (key-origin.ts), whatever name asks for it. Older records carry no origin: `{v: 1, key}`
 * held only AI Gateway's key, `{v: 2, keys: {<provider>: <key>}}` one per name; their keys are
 * bound by `legacyOrigin` (the preset or configured provider of that name), and a key no rule
 * binds is kept but sent nowhere until it is saved again. The app's `env.AI_GATEWAY_API_KEY`
 * never comes here.
 */
import { AI_GATEWAY_BASE_URL } from '../providers/provider-settings.ts'
import type { OAuthSessionStore } from '../../shared/stores/types.ts'
import { keyMayGoTo, originOf } from '../providers/key-origin.ts'

/** One provider's saved key, at one origin. */
export type KeyStore = {
  load(): Promise<string | undefined>
  save(key: string): Promise<void>
  /** True when a key was removed. */
  clear(): Promise<boolean>
}

/** Every provider's saved key. */
export type KeyRing = {
  /** `provider`'s key when it was saved for `requestUrl`'s origin; undefined otherwise. */
  load(provider: string, requestUrl: string): Promise<string | undefined>
  /** Saves `key` for `provider`, bound to `url`'s origin; rejects when `url` is not an http(s) URL. */
  save(provider: string, key: string, url: string): Promise<void>
  /** True when that provider had a key. */
  clear(provider: string): Promise<boolean>
  /** The providers that have a key now. */
  names(): Promise<string[]>
  /** The view of one provider's key at one URL's origin. */
  forProvider(provider: string, url: string): KeyStore
}

/** The provider a version 1 record's key belongs to. */
export const LEGACY_KEY_PROVIDER = 'ai-gateway'

type Entry = { key: string; origin?: string }

const encoder = new TextEncoder()
const decoder = new TextDecoder()

function decode(bytes: Uint8Array, legacyOrigin: (provider: string) => string | undefined): Record<string, Entry> {
  const legacy = (provider: string, key: string): Entry => {
    const origin = originOf(legacyOrigin(provider) ?? '')
    return origin === undefined ? { key } : { key, origin }
  }
  try {
    const value = JSON.parse(decoder.decode(bytes)) as { v?: unknown; key?: unknown; keys?: unknown }
    if (value.v === 1) return typeof value.key === 'string' && value.key !== '' ? { [LEGACY_KEY_PROVIDER]: legacy(LEGACY_KEY_PROVIDER, value.key) } : {}
    if ((value.v !== 2 && value.v !== 3) || typeof value.keys !== 'object' || value.keys === null) return {}
    const keys: Record<string, Entry> = {}
    for (const [name, item] of Object.entries(value.keys)) {
      if (value.v === 2) {
        if (typeof item === 'string' && item !== '') keys[name] = legacy(name, item)
        continue
      }
      const { key, origin } = (item ?? {}) as { key?: unknown; origin?: unknown }
      if (typeof key !== 'string' || key === '') continue
      keys[name] = typeof origin === 'string' ? { key, origin } : { key }
    }
    return keys
  } catch {
    return {}
  }
}

/** Options for {@link createKeyRing}. */
export type KeyRingOptions = {
  /** Where a key saved before keys had origins belongs: a preset's or a configured provider's base URL. */
  legacyOrigin?: (provider: string) => string | undefined
}

/** A key ring over sealed bytes; `null` for none (keys cannot be saved). */
export function createKeyRing(store: OAuthSessionStore | null, options: KeyRingOptions = {}): KeyRing {
  const legacyOrigin = options.legacyOrigin ?? (() => undefined)
  let lastRevision: string | undefined
  const read = async (): Promise<Record<string, Entry>> => {
    if (store === null) return {}
    const found = await store.load()
    lastRevision = found?.revision
    return found ? decode(found.bytes, legacyOrigin) : {}
  }
  /** Applies `change` to the stored keys; a stale revision (another tab wrote) is read again once. */
  const update = async (change: (keys: Record<string, Entry>) => void): Promise<void> => {
    if (store === null) throw new Error('this page has no store for keys')
    const write = async () => {
      const keys = await read()
      change(keys)
      if (Object.keys(keys).length === 0) {
        await store.remove(lastRevision)
        lastRevision = undefined
      } else lastRevision = (await store.commit(encoder.encode(JSON.stringify({ v: 3, keys })), lastRevision)).revision
    }
    try {
      await write()
    } catch {
      await write()
    }
  }
  const ring: KeyRing = {
    async load(provider, requestUrl) {
      const entry = (await read())[provider]
      return entry !== undefined && keyMayGoTo(entry.origin, requestUrl) ? entry.key : undefined
    },
    async save(provider, key, url) {
      const origin = originOf(url)
      if (origin === undefined) throw new Error(`${provider} has no https address to bind its key to`)
      await update((keys) => void (keys[provider] = { key, origin }))
    },
    async clear(provider) {
      if (store === null) return false
      if ((await read())[provider] === undefined) return false
      await update((keys) => void delete keys[provider])
      return true
    },
    names: async () => Object.keys(await read()),
    forProvider: (provider, url) => ({
      load: () => ring.load(provider, url),
      save: (key) => ring.save(provider, key, url),
      clear: () => ring.clear(provider),
    }),
  }
  return ring
}

/**
 * AI Gateway's key alone (the account provider's), as before keys were kept per provider: bound
 * to `url`'s origin, where the account provider sends it.
 */
export function createKeyStore(store: OAuthSessionStore | null, url: string = AI_GATEWAY_BASE_URL): KeyStore {
  return createKeyRing(store, { legacyOrigin: (provider) => (provider === LEGACY_KEY_PROVIDER ? url : undefined) }).forProvider(LEGACY_KEY_PROVIDER, url)
}
