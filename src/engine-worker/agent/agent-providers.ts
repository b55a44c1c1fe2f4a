/**
 * The agent's model provider, built from its options and the credential of the turn about to
 * run. The key goes to the provider adapter only: it never enters the engine, a stored session
 * or an `onEvent` diagnostic.
 */
import type { ChatImage, ModelProvider, ModelRequest } from '../../shared/protocol/model-events.ts'
import { resolveProviders, type ResolveProvidersOptions } from '../providers/provider-registry.ts'
import { ErrorCode, FxError } from '../../shared/errors.ts'
import type { FxAgentOptions, FxModel } from '../../shared/agent-api/types.ts'
import { demoTapeUrl } from '../host/engine-url.ts'
import { withImages } from './prompt-input.ts'

/** The providers of one turn, the active one's name and the model. */
export type AgentProviders = {
  providers: ModelProvider[]
  /** The active provider's name. */
  active: string
  /** The model id the engine asks for. */
  model: string
}

/** The provider name the options choose: AI Gateway unless another is named (the demo only when asked for). */
export function providerName(options: FxAgentOptions): string {
  const p = options.provider
  if (typeof p === 'object') return p.name
  return p ?? 'ai-gateway'
}

/** `AI_GATEWAY_API_KEY` from the `env` option, else (in Node) from `process.env`. */
export function environmentKey(options: FxAgentOptions): string | undefined {
  const env = options.env ?? (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env
  return env?.['AI_GATEWAY_API_KEY'] || undefined
}

/**
 * The turn's key, in the reference's order. On AI Gateway: `apiKey`, then `AI_GATEWAY_API_KEY`,
 * then `credentials()` (the sign-in, asked only when neither is there). On another provider:
 * `credentials()`, then `apiKey` (the environment key is AI Gateway's, never sent elsewhere).
 */
export async function turnKey(options: FxAgentOptions, sessionId: string): Promise<string | undefined> {
  const provider = providerName(options)
  const signedIn = async () => (options.credentials ? (await options.credentials({ provider, sessionId }))?.apiKey : undefined)
  if (provider === 'ai-gateway') return options.apiKey ?? environmentKey(options) ?? (await signedIn())
  return (await signedIn()) ?? options.apiKey
}

/** The id of a model option. */
export function modelId(model: FxModel | undefined): string | undefined {
  return typeof model === 'string' ? model : model?.id
}

/** What a custom provider's `models` says of `id`, as a catalog entry. */
export function customModelInfo(options: FxAgentOptions, id: string): { efforts?: string[]; fast?: boolean; ultrafast?: boolean } | undefined {
  return typeof options.provider === 'object' ? options.provider.models?.[id] : undefined
}

/**
 * The demo tape's address: the app's, made absolute against the page (a worker resolves against
 * its script), or the tour shipped beside this module (engine-url.ts).
 */
export function demoTapeUrlOf(options: FxAgentOptions): string {
  if (options.demoTapeUrl === undefined) return demoTapeUrl()
  const page = (globalThis as { location?: { href: string } }).location?.href
  return page ? new URL(options.demoTapeUrl, page).href : options.demoTapeUrl
}

/** Builds the providers for one turn with `apiKey` (from `credentials()` or the option). */
export function buildProviders(options: FxAgentOptions, model: FxModel | undefined, apiKey: string | undefined): AgentProviders {
  const name = providerName(options)
  const id = modelId(model)
  const shared: ResolveProvidersOptions = {
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.modelCatalog ? { modelCatalog: options.modelCatalog } : {}),
    ...(options.demoTapeUrl ? { demoTapeUrl: options.demoTapeUrl } : {}),
  }
  let resolved
  if (typeof options.provider === 'object') {
    resolved = resolveProviders({ ...shared, providers: [{ ...options.provider, ...(apiKey ? { apiKey } : {}) }], preferred: name })
  } else if (name === 'ai-gateway') {
    if (!apiKey) {
      throw new FxError(ErrorCode.FX_AI_GATEWAY_API_KEY_MISSING, 'AI Gateway needs a key and AI_GATEWAY_API_KEY is not set: set it, or pass apiKey or credentials (provider: "demo" plays the offline demo).')
    }
    resolved = resolveProviders({ ...shared, apiKey, ...(id ? { model: id } : {}) })
  } else {
    resolved = resolveProviders({ ...shared, preferred: name })
  }
  if (resolved.active !== name) throw new FxError(ErrorCode.FX_MODEL_PROVIDER_UNKNOWN, `There is no provider named ${name}${resolved.notice ? ` (${resolved.notice})` : ''}.`)
  const provider = resolved.providers.find((p) => p.name === name)!
  const chosen = id ?? provider.defaultModel
  if (chosen === '') throw new FxError(ErrorCode.FX_MODEL_NOT_CHOSEN, `The provider ${name} has no default model: pass model to createFxAgent.`)
  return { providers: [provider], active: name, model: chosen }
}

/**
 * A request as the turn sends it: images in place of their markers, and `ultrafast` when the
 * session asked for it (the engine knows `fast` and `effort`; the tier above them is the host's).
 */
export function turnRequest(request: ModelRequest, images: (key: string, index: number) => ChatImage | undefined, ultrafast: boolean): ModelRequest {
  const sent = withImages(request, images)
  return ultrafast ? { ...sent, options: { ...sent.options, ultrafast: true } } : sent
}
