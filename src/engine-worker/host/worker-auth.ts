/**
 * Sign-in in the engine worker, assembled: the account's credentials over the page's sealed
 * stores, the account provider that uses them, and the controller behind /login, /logout and
 * /key. engine-worker.ts only adds the provider, routes auth effects and keys here, and attaches
 * the host loop once it exists.
 */
import * as Comlink from 'comlink'
import { createHostFetch } from './host-fetch.ts'
import type { AuthDisplayState } from '../../shared/messages/engine-frames.ts'
import type { HostLoop } from './host-loop.ts'
import type { HostCallbacks, WorkerStartConfig } from '../../shared/messages/worker-api.ts'
import type { ModelProvider } from '../../shared/protocol/model-events.ts'
import { browserRefusalFor } from '../providers/cloud-presets.ts'
import { AI_GATEWAY_BASE_URL, refuseBaseUrl, setting } from '../providers/provider-settings.ts'
import { createAccountCredentials } from '../auth/account-credentials.ts'
import { ACCOUNT_PROVIDER, createAccountProvider, envGatewayKey } from '../auth/account-provider.ts'
import { createAuthController, type AuthController } from '../auth/auth-controller.ts'
import { createCredentialStore } from '../auth/credential-store.ts'
import { createKeyRing, type KeyRing, LEGACY_KEY_PROVIDER } from '../auth/key-store.ts'
import { sealedStoreOf } from '../auth/sealed-store-bridge.ts'
import { GITHUB_API_URL, GITHUB_KEY_NAME } from '../../shared/workspace/git/git-host.ts'
import { createWithLock } from '../auth/web-lock.ts'

export type WorkerAuth = {
  /** Boot fields: the provider a sign-in is for. */
  /** `signIn`: whether /login can sign in here (the app gave a client id). */
  bootFields: { account: string; signIn: boolean }
  /** Puts the account provider in place of the registry's `ai-gateway` (or adds it). */
  addTo(providers: ModelProvider[]): void
  /** Starts showing states; tells the engine which credential there is. */
  attach(loop: HostLoop): void
  /** The engine has its stored state (after a `restorePending` boot). */
  restored(): void
  /** A fresh engine replaced one that trapped: it must learn the credential again. */
  engineRestarted(): void
  controller: AuthController
  /** Every provider's key saved with /key (read by the providers at each request). */
  keys: KeyRing
  /** Input for a key being typed with /key; false when it is ordinary input. */
  captureKeys(bytes: Uint8Array): boolean
  signedOutElsewhere(): void
  signedInElsewhere(): void
  /** A one-line notice when the sign-in settings were refused. */
  notice?: string
}

const decoder = new TextDecoder()

/** Where the page's providers are, for binding keys to origins. */
export type ProviderUrls = {
  /** A provider's API root: /key <provider> binds the key to its origin. */
  baseUrlOf(provider: string): string | undefined
  /**
   * Where a key saved before keys had origins belongs: the presets', the app's and /provider
   * add's providers only, never one named by a URL setting (a link could spell its host so).
   */
  legacyBaseUrlOf(provider: string): string | undefined
}

export function createWorkerAuth(config: WorkerStartConfig, host: Comlink.Remote<HostCallbacks>, urls: ProviderUrls): WorkerAuth {
  const appFetch = config.useHostFetch ? createHostFetch(host) : null
  // Resolved per call, so a test can swap globalThis.fetch.
  const baseFetch = (): typeof fetch => appFetch ?? globalThis.fetch.bind(globalThis)
  const namespace = config.namespace ?? 'fxterm'
  const signIn = config.signIn ?? {}
  // Where the account provider sends its key (as createAccountProvider decides): the key is bound there.
  const accountUrl = signIn.modelBaseUrl !== undefined && refuseBaseUrl(signIn.modelBaseUrl) === undefined ? signIn.modelBaseUrl : AI_GATEWAY_BASE_URL
  // `github` is git's token for GitHub's API (src/page/workspace/page-git-host.ts reads it there).
  const baseUrlOf = (provider: string) => (provider === LEGACY_KEY_PROVIDER ? accountUrl : provider === GITHUB_KEY_NAME ? GITHUB_API_URL : urls.baseUrlOf(provider))
  const legacyOrigin = (provider: string) => (provider === LEGACY_KEY_PROVIDER ? accountUrl : urls.legacyBaseUrlOf(provider))
  const ring = createKeyRing(sealedStoreOf(host, 'key'), { legacyOrigin })
  const keys = ring.forProvider(LEGACY_KEY_PROVIDER, accountUrl)
  let loop: HostLoop | null = null
  const early: AuthDisplayState[] = []
  const show = (state: AuthDisplayState) => (loop ? loop.authState(state) : early.push(state))
  const env = config.provider.env
  const envKey = envGatewayKey(env, setting(config.provider.baseUrl, env.FX_BASE_URL), config.provider.apiKey)
  const credentials = createAccountCredentials({
    store: createCredentialStore(sealedStoreOf(host, 'oauth')),
    keys,
    fetch: baseFetch(),
    now: Date.now,
    withLock: createWithLock(),
    lockName: `fxterm-signin:${namespace}`,
    ...(envKey ? { envKey } : {}),
    onExpired: (message) => {
      void host.signedOut()
      void credentials.kind().then((credential) => show({ state: 'signed_out', message, credential }))
    },
  })
  const hasBaseUrl = setting(config.provider.baseUrl, env.FX_BASE_URL) !== undefined
  const model = hasBaseUrl ? undefined : setting(config.provider.model, env.FX_MODEL)
  const { provider, notice } = createAccountProvider({
    credentials,
    fetch: baseFetch,
    ...(signIn.modelBaseUrl ? { modelBaseUrl: signIn.modelBaseUrl } : {}),
    ...(model ? { model } : {}),
    // As the registry does: the configured catalog belongs to AI Gateway when no base URL is set.
    ...(!hasBaseUrl && config.modelCatalog ? { modelCatalog: config.modelCatalog } : {}),
  })
  const controller = createAuthController({
    signIn,
    credentials,
    keys,
    ring,
    baseUrlOf,
    fetch: baseFetch,
    openUrl: (url) => host.openUrl(url),
    show,
    notice: (n) => loop?.notice(n),
    // Through the app's fetch (a proxy) every preset is reachable, so every key is worth asking for.
    ...(config.useHostFetch ? {} : { refuses: browserRefusalFor }),
    onSignedOut: () => void host.signedOut(),
    onSignedIn: () => void host.signedIn(),
  })

  // Which credential there is goes to the engine once it is booted and, when its stored state
  // comes later (`restorePending`), after that: the banner and saved settings come first. Read
  // then, so start-up never waits for the sign-in store.
  let restored = !config.restorePending
  let told = false
  const startup = () => {
    const attached = loop
    if (!attached || !restored || told) return
    told = true
    controller.showSavedKeys()
    void credentials.kind().then(
      (credential) => attached.authState({ state: 'credential', credential, startup: true }),
      () => attached.authState({ state: 'credential', credential: 'none', startup: true }),
    )
  }

  return {
    bootFields: { account: ACCOUNT_PROVIDER, signIn: Boolean(signIn.clientId) },
    addTo(providers) {
      const at = providers.findIndex((p) => p.name === ACCOUNT_PROVIDER)
      if (at >= 0) providers[at] = provider
      else providers.splice(Math.min(1, providers.length), 0, provider)
    },
    attach(attached) {
      loop = attached
      for (const state of early.splice(0)) attached.authState(state)
      startup()
    },
    restored() {
      restored = true
      startup()
    },
    engineRestarted() {
      controller.showSavedKeys()
      const attached = loop
      void credentials.kind().then((credential) => attached?.authState({ state: 'credential', credential }), () => {})
    },
    controller,
    keys: ring,
    captureKeys: (bytes) => controller.captureKeys(decoder.decode(bytes)),
    signedOutElsewhere: () => controller.credentialChanged('Signed out in another tab.'),
    signedInElsewhere: () => controller.signedInElsewhere(),
    ...(notice ? { notice } : {}),
  }
}
