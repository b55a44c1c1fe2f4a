/**
 * Every model provider this page offers, and which one is active: the offline demo and the
 * local presets always, AI Gateway when a key is present, the server configured by base URL,
 * and each custom provider. `/provider` lists and switches among them; the choice is restored
 * through `preferred`. Building the list touches no network.
 */
import type { ModelProvider } from '../../shared/protocol/model-events.ts'
import { createAnthropicProvider } from './anthropic-messages.ts'
import { CLOUD_PRESETS, createCloudProvider, presetAtOrigin } from './cloud-presets.ts'
import { createDemoProvider, DEFAULT_DEMO_TAPE_URL } from './demo-provider.ts'
import type { ModelCatalog } from './model-list.ts'
import { createOpenAiCompatibleProvider, type OpenAiCompatibleOptions } from './openai-compatible.ts'
import { createPresetProvider, PROVIDER_PRESETS } from './provider-presets.ts'
import { AI_GATEWAY_BASE_URL, AI_GATEWAY_DEFAULT_MODEL, refuseBaseUrl, type ResolveProviderOptions, setting } from './provider-settings.ts'
import type { CustomProviderConfig, CustomModelConfig } from '../../shared/provider-types.ts'
export type { CustomProviderConfig, CustomModelConfig } from '../../shared/provider-types.ts'

/** What `/provider` shows of a provider besides its name: where it is and whether it takes a key. */
export type ProviderSummary = {
  name: string
  /** Its API root; empty for the offline demo. */
  baseUrl: string
  /**
   * `account`: AI Gateway's sign-in or key; `key`: a key saved with /key <name>; `optional`: a
   * person's own server, sent a key only once one is saved (asked for when it answers 401);
   * `not_needed`: none is ever sent.
   */
  key: 'account' | 'key' | 'optional' | 'not_needed'
}

/** Inputs to {@link resolveProviders}: today's single-provider settings plus the list's. */
export type ResolveProvidersOptions = ResolveProviderOptions & {
  /** Custom providers; one named like a preset replaces it (e.g. Ollama on another port). */
  providers?: CustomProviderConfig[]
  /**
   * The catalog of the configured provider (the base URL's server, else AI Gateway), so its
   * `listModels` asks nothing, e.g. behind a proxy that forwards only chat requests.
   */
  modelCatalog?: ModelCatalog
  /** A provider name restored from settings; it becomes active when it exists, else it is ignored. */
  preferred?: string
  /** The clock for `Retry-After` dates. */
  now?: () => number
  /**
   * The keys saved with /key, by provider name and the URL a request goes to (a key is given
   * only for the origin it was saved for). With it the hosted presets (OpenAI, Anthropic, …) are
   * offered, and a provider without a key of its own reads its saved one at each request.
   */
  keys?: (provider: string, url: string) => Promise<string | undefined>
  /** True when requests go through the app's `fetch` (a proxy): presets that refuse browsers work. */
  proxied?: boolean
}

/**
 * The page's providers, the active one's name, a one-line notice when a setting was refused, and
 * each provider's summary (with AI Gateway's even when the account provider is added later).
 */
export type ResolvedProviders = { providers: ModelProvider[]; active: string; notice?: string; summaries: ProviderSummary[] }

/** Names a custom provider may not take: they mean a specific place for the key. */
const RESERVED_NAMES = new Set(['demo', 'ai-gateway', ...CLOUD_PRESETS.map((preset) => preset.name)])

function customProvider(config: CustomProviderConfig, shared: Partial<OpenAiCompatibleOptions>, keys: ResolveProvidersOptions['keys']): ModelProvider {
  const models = Object.entries(config.models ?? {})
  const preset = PROVIDER_PRESETS.find((candidate) => candidate.name === config.name)
  const apiKey = setting(config.apiKey)
  // Its own key only: the one configured, else the one saved with /key <its name>.
  const key = apiKey !== undefined ? async () => apiKey : keys ? (url: string) => keys(config.name, url) : undefined
  if (config.wire === 'anthropic') {
    return createAnthropicProvider({ ...shared, name: config.name, label: config.name, baseUrl: config.baseUrl, model: models[0]?.[0] ?? '', key: key ?? (async () => undefined) })
  }
  return createOpenAiCompatibleProvider({
    ...shared,
    name: config.name,
    label: config.name,
    baseUrl: config.baseUrl,
    model: models[0]?.[0] ?? '',
    ...(apiKey ? { apiKey } : key ? { key } : {}),
    ...(preset ? { server: preset.name } : {}),
    ...(models.length > 0 ? { modelCatalog: models.map(([id, info]) => ({ id, ...info })) } : {}),
  })
}

/**
 * The name of the provider a base URL setting (`?baseUrl=`, FX_BASE_URL) configures: its host,
 * unless the host is spelled like a built-in hosted provider (`https://openai/v1`), which would
 * pass it off as that provider; then `<host>-url`. A local preset's name stays usable (a
 * container called `ollama`), since no key is kept for one.
 */
export function linkProviderName(baseUrl: string): string {
  const host = new URL(baseUrl).host
  return RESERVED_NAMES.has(host) ? `${host}-url` : host
}

/** Why a custom provider is refused (a notice), or undefined when it is accepted. */
export function refuseCustomProvider(name: string, baseUrl: string): string | undefined {
  if (name === '') return 'a custom provider needs a name'
  if (RESERVED_NAMES.has(name)) return `custom provider "${name}": the name "${name}" is taken by a built-in provider; choose another`
  const refusal = refuseBaseUrl(baseUrl)
  return refusal === undefined ? undefined : `custom provider "${name}": ${refusal}`
}

/** Builds every provider and picks the active one (see the module comment). */
export function resolveProviders(options: ResolveProvidersOptions = {}): ResolvedProviders {
  const env = options.env ?? {}
  const shared: Partial<OpenAiCompatibleOptions> = {
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.origin ? { origin: options.origin } : {}),
    ...(options.now ? { now: options.now } : {}),
  }
  const catalog = options.modelCatalog ? { modelCatalog: options.modelCatalog } : {}
  const byName = new Map<string, ModelProvider>()
  const add = (provider: ModelProvider): void => {
    // Re-adding a name replaces the provider but keeps its place in the list.
    byName.set(provider.name, provider)
  }
  const notices: string[] = []
  const summaries = new Map<string, ProviderSummary>()
  const summary = (name: string, baseUrl: string, key: ProviderSummary['key']) => summaries.set(name, { name, baseUrl, key })
  const keys = options.keys
  summary('demo', '', 'not_needed')
  // Set when today's rules fall back to the demo; said only if the demo really ends up active.
  let fallback: string | undefined
  let active = 'demo'

  add(createDemoProvider({ tape: options.demoTapeUrl ?? DEFAULT_DEMO_TAPE_URL, ...(options.fetch ? { fetch: options.fetch } : {}), ...(options.demoWorkspace !== undefined ? { workspace: options.demoWorkspace } : {}) }))

  const baseUrl = setting(options.baseUrl, env.FX_BASE_URL)
  const model = setting(options.model, env.FX_MODEL)
  // With a base URL, the explicit key and FX_API_KEY belong to that server; the gateway gets
  // only its own variable, so one provider's key never reaches another host.
  const gatewayKey = baseUrl === undefined ? setting(options.apiKey, env.AI_GATEWAY_API_KEY, env.FX_API_KEY) : setting(env.AI_GATEWAY_API_KEY)
  if (gatewayKey !== undefined) {
    add(
      createOpenAiCompatibleProvider({
        ...shared,
        ...(baseUrl === undefined ? catalog : {}),
        name: 'ai-gateway',
        label: 'ai-gateway',
        baseUrl: AI_GATEWAY_BASE_URL,
        apiKey: gatewayKey,
        model: (baseUrl === undefined ? model : undefined) ?? AI_GATEWAY_DEFAULT_MODEL,
        fastServiceTier: 'priority',
      }),
    )
  }
  // The account provider takes ai-gateway's place when sign-in or /key is wired (worker-auth.ts).
  if (gatewayKey !== undefined || keys) summary('ai-gateway', AI_GATEWAY_BASE_URL, 'account')
  if (keys) {
    for (const preset of CLOUD_PRESETS) {
      add(createCloudProvider(preset, { ...shared, key: keys, ...(options.proxied ? { proxied: true } : {}) }))
      summary(preset.name, preset.baseUrl, 'key')
    }
  }

  if (baseUrl !== undefined) {
    const refusal = refuseBaseUrl(baseUrl)
    const apiKey = setting(options.apiKey, env.FX_API_KEY)
    // A base URL at exactly a preset's origin is that preset, with its own saved key; any other
    // is a provider of its own, whatever its host is called (see linkProviderName).
    const preset = refusal === undefined && apiKey === undefined && keys ? presetAtOrigin(baseUrl) : undefined
    if (refusal !== undefined) fallback = refusal
    else if (preset !== undefined && keys) {
      add(createCloudProvider({ ...preset, baseUrl, model: model ?? preset.model }, { ...shared, key: keys, ...(options.proxied ? { proxied: true } : {}) }))
      summary(preset.name, baseUrl, 'key')
      active = preset.name
    } else {
      const name = linkProviderName(baseUrl)
      // A key saved with /key <name> for this origin goes to this server only; a configured one wins.
      const key = apiKey ? { apiKey } : keys ? { key: (url: string) => keys(name, url) } : {}
      add(createOpenAiCompatibleProvider({ ...shared, ...catalog, name, label: name, baseUrl, model: model ?? '', ...key }))
      summary(name, baseUrl, apiKey ? 'key' : keys ? 'optional' : 'not_needed')
      if (model === undefined) fallback = `a model server is set (${baseUrl}) but no model; set FX_MODEL or add &model=<id>`
      else active = name
    }
  } else if (gatewayKey !== undefined) active = 'ai-gateway'
  else if (model !== undefined) fallback = `a model is set (${model}) but no key or model server; set AI_GATEWAY_API_KEY or FX_BASE_URL`

  // A configured server whose host is literally `ollama` (a container name) keeps its settings.
  for (const preset of PROVIDER_PRESETS) {
    if (byName.has(preset.name)) continue
    add(createPresetProvider(preset, shared))
    summary(preset.name, preset.baseUrl, 'not_needed')
  }

  for (const config of options.providers ?? []) {
    const name = config.name.trim()
    const refusal = refuseCustomProvider(name, config.baseUrl)
    if (refusal !== undefined) notices.push(refusal)
    else {
      add(customProvider({ ...config, name }, shared, keys))
      summary(name, config.baseUrl, config.apiKey ? 'key' : keys ? 'optional' : 'not_needed')
    }
  }

  if (options.preferred !== undefined && byName.has(options.preferred)) active = options.preferred
  if (fallback !== undefined) notices.unshift(active === 'demo' ? `${fallback}; using the offline demo` : fallback)
  const providers = [...byName.values()]
  const listed = [...summaries.values()]
  return notices.length === 0 ? { providers, active, summaries: listed } : { providers, active, notice: notices.join(' · '), summaries: listed }
}
