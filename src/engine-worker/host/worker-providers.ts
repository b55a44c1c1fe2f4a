/**
 * The engine worker's model providers: resolved at start from the presets, the page's options
 * and the servers added with `/provider add` (kept in the configStore as `providers`), each one's
 * API root by name (where `/key` binds a key), and the question before the first request to a
 * server a link named (`?baseUrl=`). A server added later, here or in another tab, is built the
 * same way (same fetch, keys and origin) and handed to the engine.
 */
import type * as Comlink from 'comlink'
import { linkProviderName, resolveProviders, type ResolveProvidersOptions } from '../providers/provider-registry.ts'
import { type AddedProvider, asCustomProviders, nameForServer, parseAddedProviders, refuseAddedProvider, typedServerUrl, withAddedProvider } from '../providers/added-providers.ts'
import type { ModelProvider } from '../../shared/protocol/model-events.ts'
import { refuseBaseUrl } from '../providers/provider-settings.ts'
import { createLinkConsent, type LinkConsent } from '../providers/link-consent.ts'
import { isLoopbackHost } from '../providers/loopback-host.ts'
import { demoWorkspaceOver } from '../providers/demo-files.ts'
import { browserRefusalFor } from '../providers/cloud-presets.ts'
import type { BootProvider, HostAction, HostNotice } from '../../shared/messages/engine-frames.ts'
import type { HostCallbacks, WorkerStartConfig } from '../../shared/messages/worker-api.ts'
import { createHostFetch } from './host-fetch.ts'
import type { HostLoop } from './host-loop.ts'
import type { ProviderUrls } from './worker-auth.ts'
import type { KeyRing } from '../auth/key-store.ts'

/** Every provider's API root by name, filled as providers are built: `/key` binds a key there. */
export type ProviderAddresses = ProviderUrls & { set(name: string, baseUrl: string): void; linked(name: string): void }

export function providerAddresses(): ProviderAddresses {
  const baseUrls = new Map<string, string>()
  const linked = new Set<string>()
  return {
    baseUrlOf: (name) => baseUrls.get(name),
    legacyBaseUrlOf: (name) => (linked.has(name) ? undefined : baseUrls.get(name)),
    set: (name, baseUrl) => void baseUrls.set(name, baseUrl),
    linked: (name) => void linked.add(name),
  }
}

export type WorkerProviders = {
  /** Every provider the engine offers; the one a link named asks its question first. */
  providers: ModelProvider[]
  /** The provider the engine starts with, looked up in `providers` as they are when asked (sign-in adds its own). */
  active(): ModelProvider
  /** A setting that was refused, in one line. */
  notice: string | undefined
  /** The question before the first request to the server a link named; null when none is asked. */
  consent: LinkConsent | null
  /** The providers as the boot frame lists them. */
  bootList(): BootProvider[]
  /** `/provider add <name> <baseUrl> [anthropic]`, or a URL typed after the picker's "another server". */
  add(action: Extract<HostAction, { action: 'provider_add' }>, loop: HostLoop): void
  /** `/provider remove <name>`: the engine has dropped it already; its address and key are forgotten here. */
  remove(name: string, loop: HostLoop | null): void
  /** Another tab added a server (the configStore's `providers` changed): offered here too. */
  addedElsewhere(value: string, loop: HostLoop): void
  /** The servers an earlier visit added, from the stored settings, for the engine before it restores them. */
  addedBefore(storedConfig: Record<string, string>, loop: HostLoop): void
}

export type WorkerProvidersOptions = {
  config: WorkerStartConfig
  host: Comlink.Remote<HostCallbacks>
  keys: KeyRing
  addresses: ProviderAddresses
  /** A line for the person (the link's question says what it asks this way). */
  say(notice: HostNotice): void
}

export function createWorkerProviders({ config, host, keys, addresses, say }: WorkerProvidersOptions): WorkerProviders {
  let added = parseAddedProviders(config.config?.['providers'])
  // What every provider is built with, at start and when a server is added later.
  const shared: ResolveProvidersOptions = {
    env: {},
    ...(config.useHostFetch ? { fetch: createHostFetch(host) } : {}),
    keys: (name, url) => keys.load(name, url),
    proxied: config.useHostFetch,
  }
  const build = (list: AddedProvider[]) => {
    const built = resolveProviders({ ...shared, providers: asCustomProviders(list) })
    for (const { name, baseUrl } of list) addresses.set(name, baseUrl)
    return list.flatMap(({ name }) => {
      const provider = built.providers.find((p) => p.name === name)
      const summary = built.summaries.find((s) => s.name === name)
      return provider && summary ? [{ provider, entry: { name, label: provider.label, model: provider.defaultModel, baseUrl: summary.baseUrl, key: summary.key, added: true } }] : []
    })
  }
  const { providers, active, notice, summaries } = resolveProviders({
    ...shared,
    env: config.provider.env,
    ...(config.provider.baseUrl ? { baseUrl: config.provider.baseUrl } : {}),
    ...(config.provider.model ? { model: config.provider.model } : {}),
    ...(config.provider.apiKey ? { apiKey: config.provider.apiKey } : {}),
    providers: [...(config.customProviders ?? []), ...asCustomProviders(added)],
    ...(config.modelCatalog ? { modelCatalog: config.modelCatalog } : {}),
    demoTapeUrl: config.provider.demoTapeUrl,
    demoWorkspace: demoWorkspaceOver((id, request) => host.exec(id, request), config.workspaceCwd),
  })
  for (const { name, baseUrl } of summaries) if (baseUrl !== '') addresses.set(name, baseUrl)
  const linkedName = linkedProviderName(config.provider.baseUrl ?? config.provider.env['FX_BASE_URL'])
  if (linkedName !== undefined) addresses.linked(linkedName)
  const linkedAt = linkedName === undefined ? -1 : providers.findIndex((p) => p.name === linkedName)
  let consent: LinkConsent | null = null
  // A server on this machine keeps the prompts on it: only another host is asked about.
  const linkedUrl = linkedName === undefined ? undefined : addresses.baseUrlOf(linkedName)
  if (config.provider.confirm && linkedAt >= 0 && linkedUrl !== undefined && !isLoopbackHost(new URL(linkedUrl).hostname)) {
    consent = createLinkConsent({ origin: new URL(linkedUrl).origin, say: (text, level) => say({ text, level }) })
    providers[linkedAt] = consent.guard(providers[linkedAt]!)
  }
  const summary = new Map(summaries.map((s) => [s.name, s]))
  const remember = () => void host.config('providers', JSON.stringify(added))

  return {
    providers,
    active: () => providers.find((p) => p.name === active) ?? providers[0]!,
    notice,
    consent,
    bootList: () =>
      providers.map((p) => ({
        name: p.name,
        label: p.label,
        model: p.defaultModel,
        baseUrl: summary.get(p.name)?.baseUrl ?? '',
        key: summary.get(p.name)?.key ?? 'not_needed',
        // An API that refuses browser pages works only through the app's fetch (a proxy).
        ...(!config.useHostFetch && browserRefusalFor(p.name) !== undefined ? { proxy: true } : {}),
      })),
    add(action, loop) {
      // Checked here (the engine knows no URL rules), remembered in the configStore, and handed
      // to the engine, which lists it and switches to it. A typed URL is named after its host.
      const typed = action.name === ''
      const baseUrl = typed ? typedServerUrl(action.baseUrl) : action.baseUrl
      const wire = action.wire === 'anthropic' ? 'anthropic' : 'openai'
      const builtIn = (candidate: string) => loop.providerNames().includes(candidate) && !added.some((a) => a.name === candidate)
      const sameServer = added.find((a) => a.baseUrl === baseUrl.replace(/\/+$/, '') && a.wire === wire)
      const name = !typed ? action.name : (sameServer?.name ?? nameForServer(baseUrl, (n) => loop.providerNames().includes(n)))
      const refusal = refuseAddedProvider(name, baseUrl, builtIn)
      if (refusal !== undefined) {
        loop.notice({ text: typed ? `That URL cannot be used: ${refusal}. Run /model and choose "another server" to try again.` : `/provider add: ${refusal}.`, level: 'error' })
        return
      }
      const entry: AddedProvider = { name, baseUrl: baseUrl.replace(/\/+$/, ''), wire }
      added = withAddedProvider(added, entry)
      remember()
      loop.notice({ text: `Added ${name} (${entry.baseUrl}, ${wire === 'anthropic' ? 'Anthropic Messages' : 'OpenAI-compatible'}). /provider remove ${name} forgets it.`, level: 'info' })
      loop.addProviders(build([entry]), name)
    },
    remove(name, loop) {
      if (!added.some((a) => a.name === name)) return
      added = added.filter((a) => a.name !== name)
      remember()
      loop?.removeProvider(name)
      void keys.clear(name)
    },
    addedElsewhere(value, loop) {
      const fresh = parseAddedProviders(value).filter((p) => !added.some((a) => a.name === p.name && a.baseUrl === p.baseUrl && a.wire === p.wire))
      if (fresh.length === 0) return
      added = fresh.reduce(withAddedProvider, added)
      loop.addProviders(build(fresh))
    },
    addedBefore(storedConfig, loop) {
      const remembered = parseAddedProviders(storedConfig['providers']).filter((p) => !added.some((a) => a.name === p.name))
      if (remembered.length === 0) return
      added = [...added, ...remembered]
      loop.addProviders(build(remembered))
    },
  }
}

/** The provider a base URL setting names, unless it is a preset's (see resolveProviders). */
function linkedProviderName(baseUrl: string | undefined): string | undefined {
  if (baseUrl === undefined || baseUrl.trim() === '' || refuseBaseUrl(baseUrl.trim()) !== undefined) return undefined
  return linkProviderName(baseUrl.trim())
}
