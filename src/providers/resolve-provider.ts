/**
 * Picks the model provider from configuration: AI Gateway when its key is present, any
 * OpenAI-compatible server when a base URL is given, and the offline demo otherwise. A setting
 * we refuse (e.g. a plain-http URL on the open network) falls back to the demo with a notice,
 * so the page still works and says why.
 */
import type { ModelProvider } from '../protocol/model-events.ts'
import type { DemoTape } from './demo-tape.ts'
import { createDemoProvider, DEFAULT_DEMO_TAPE_URL } from './demo-provider.ts'
import { isLoopbackHost } from './loopback-host.ts'
import { createOpenAiCompatibleProvider } from './openai-compatible.ts'

/** The AI Gateway's OpenAI-compatible API root. */
export const AI_GATEWAY_BASE_URL = 'https://ai-gateway.vercel.sh/v1'
/** The model used on AI Gateway when none is configured. */
export const AI_GATEWAY_DEFAULT_MODEL = 'anthropic/claude-sonnet-4.5'

/** Inputs to {@link resolveProvider}; explicit values win over `env`. */
export type ResolveProviderOptions = {
  /** Reads AI_GATEWAY_API_KEY, FX_BASE_URL, FX_MODEL, FX_API_KEY. */
  env?: Record<string, string | undefined>
  baseUrl?: string
  model?: string
  apiKey?: string
  fetch?: typeof fetch
  /** The demo tape's URL (default `./demos/tour.json`) or a loaded tape. */
  demoTapeUrl?: string | DemoTape
  /** The page's origin, for CORS advice (defaults to `location.origin`). */
  origin?: string
}

/** The chosen provider, and a one-line notice when a setting was refused. */
export type ResolvedProvider = { provider: ModelProvider; notice?: string }

/** Empty and whitespace-only settings count as unset (an empty query parameter, a blank field). */
function setting(...values: (string | undefined)[]): string | undefined {
  for (const value of values) if (value !== undefined && value.trim() !== '') return value.trim()
  return undefined
}

/** Why `baseUrl` may not be used, or undefined when it is acceptable. */
export function refuseBaseUrl(baseUrl: string): string | undefined {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    return `the model server URL "${baseUrl}" is not a valid URL`
  }
  if (url.protocol === 'https:') return undefined
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined
  if (url.protocol === 'http:') {
    return `refused ${url.origin}: plain http is allowed only for localhost, because prompts and keys would cross the network unencrypted; use https`
  }
  return `refused "${baseUrl}": the model server URL must start with https:// (or http://localhost)`
}

/** Chooses the provider for this page load. */
export function resolveProvider(options: ResolveProviderOptions = {}): ResolvedProvider {
  const env = options.env ?? {}
  const fetchOption = options.fetch ? { fetch: options.fetch } : {}
  const originOption = options.origin ? { origin: options.origin } : {}
  const demo = (notice?: string): ResolvedProvider => {
    const provider = createDemoProvider({ tape: options.demoTapeUrl ?? DEFAULT_DEMO_TAPE_URL, ...fetchOption })
    return notice === undefined ? { provider } : { provider, notice: `${notice}; using the offline demo` }
  }

  const baseUrl = setting(options.baseUrl, env['FX_BASE_URL'])
  const model = setting(options.model, env['FX_MODEL'])
  if (baseUrl !== undefined) {
    const refusal = refuseBaseUrl(baseUrl)
    if (refusal !== undefined) return demo(refusal)
    if (model === undefined) return demo(`a model server is set (${baseUrl}) but no model; set FX_MODEL or add &model=<id>`)
    // Only FX_API_KEY goes to a custom server: the gateway key must never leak to another host.
    const apiKey = setting(options.apiKey, env['FX_API_KEY'])
    const provider = createOpenAiCompatibleProvider({
      baseUrl,
      model,
      label: new URL(baseUrl).host,
      ...(apiKey ? { apiKey } : {}),
      ...fetchOption,
      ...originOption,
    })
    return { provider }
  }

  const gatewayKey = setting(options.apiKey, env['AI_GATEWAY_API_KEY'], env['FX_API_KEY'])
  if (gatewayKey !== undefined) {
    const provider = createOpenAiCompatibleProvider({
      baseUrl: AI_GATEWAY_BASE_URL,
      apiKey: gatewayKey,
      model: model ?? AI_GATEWAY_DEFAULT_MODEL,
      label: 'ai-gateway',
      ...fetchOption,
      ...originOption,
    })
    return { provider }
  }
  if (model !== undefined) return demo(`a model is set (${model}) but no key or model server; set AI_GATEWAY_API_KEY or FX_BASE_URL`)
  return demo()
}
