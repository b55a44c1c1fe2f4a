// `createFxTerminal({ terminal, env: { AI_GATEWAY_API_KEY } })` with no keyStore: the worker's
// credentials read the page's stores through the bridge, and a store the page did not pass holds
// nothing, so the environment key is the bearer. A credential that cannot be read at all is
// reported as that, at once, not as a network failure.
import { describe, expect, it } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import type { ModelEvent } from '../../shared/protocol/model-events.ts'
import { createOpenAiCompatibleProvider } from '../providers/openai-compatible.ts'
import { memoryOAuthSessionStore } from '../../page/stores/memory-stores.ts'
import { createAccountCredentials, type AccountCredentials } from './account-credentials.ts'
import { createAuthorizedFetch } from './authorized-fetch.ts'
import { createCredentialStore } from './credential-store.ts'
import { createKeyRing, LEGACY_KEY_PROVIDER } from './key-store.ts'
import { AI_GATEWAY_BASE_URL } from '../providers/provider-settings.ts'
import { sealedStoreOf, serveSealedStores } from './sealed-store-bridge.ts'
import { createWithLock } from './web-lock.ts'

/** The worker's credentials over a page that passed an oauth store and no key store. */
function workerCredentials(envKey: string): AccountCredentials {
  const host = serveSealedStores({ oauth: memoryOAuthSessionStore(), key: null })
  return createAccountCredentials({
    store: createCredentialStore(sealedStoreOf(host, 'oauth')),
    keys: createKeyRing(sealedStoreOf(host, 'key')).forProvider(LEGACY_KEY_PROVIDER, AI_GATEWAY_BASE_URL),
    fetch,
    now: () => 0,
    withLock: createWithLock(undefined),
    lockName: 'fxterm-signin:test',
    envKey,
  })
}

describe('a page with no key store', () => {
  it('a store the page did not pass loads as empty, and saving to it still says there is none', async () => {
    const host = serveSealedStores({ oauth: memoryOAuthSessionStore(), key: null })
    expect(await host.storeLoad('key')).toEqual({ ok: true, value: null })
    expect(await host.storeCommit('key', new Uint8Array([1]), undefined)).toMatchObject({ ok: false, code: ErrorCode.FX_STORE_FAILED, message: 'this page has no key store' })
  })

  it("the env key is the bearer and what the credential kind says", async () => {
    const credentials = workerCredentials('sk-env-0123')
    expect({ bearer: await credentials.bearer(), kind: await credentials.kind() }).toEqual({ bearer: 'sk-env-0123', kind: 'env' })
  })

  it('the model request carries the env key', async () => {
    const seen: Array<string | null> = []
    const base: typeof fetch = async (_input, init) => (seen.push(new Headers(init?.headers).get('authorization')), new Response('ok'))
    await createAuthorizedFetch(workerCredentials('sk-env-0123'), () => base)('https://ai-gateway.vercel.sh/v1/chat/completions', { method: 'POST' })
    expect(seen).toEqual(['Bearer sk-env-0123'])
  })
})

describe('a credential that cannot be read', () => {
  const broken: AccountCredentials = {
    bearer: async () => {
      throw new Error('the key store is locked')
    },
    retryBearer: async () => undefined,
    kind: async () => 'none',
    signIn: async () => {},
    signOut: async () => ({ wasSignedIn: false }),
    secrets: () => [],
  }

  it('ends the request with FX_MODEL_KEY_UNAVAILABLE at once: one error, not retryable, nothing sent or probed', async () => {
    let sent = 0
    const base: typeof fetch = async () => (sent++, new Response('ok'))
    const provider = createOpenAiCompatibleProvider({ name: 'ai-gateway', label: 'ai-gateway', baseUrl: 'https://ai-gateway.vercel.sh/v1', model: 'm', fetch: createAuthorizedFetch(broken, () => base) })
    const events: ModelEvent[] = []
    await provider.stream({ model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: [] }, (event) => events.push(event), new AbortController().signal)
    expect(events).toEqual([{ type: 'error', code: ErrorCode.FX_MODEL_KEY_UNAVAILABLE, message: 'the key could not be read, so nothing was sent: the key store is locked', retryable: false }])
    expect(sent).toBe(0)
  })
})
