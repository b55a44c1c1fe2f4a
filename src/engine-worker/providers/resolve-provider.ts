/**
 * Picks the one model provider a page uses when it does not offer a choice: AI Gateway when its
 * key is present, any OpenAI-compatible server when a base URL is given, and the offline demo
 * otherwise. A setting we refuse (e.g. a plain-http URL on the open network) falls back to the
 * demo with a notice, so the page still works and says why. A thin view of `resolveProviders`.
 */
import type { ModelProvider } from '../../shared/protocol/model-events.ts'
import { resolveProviders } from './provider-registry.ts'
import type { ResolveProviderOptions } from './provider-settings.ts'

export {
  AI_GATEWAY_BASE_URL,
  AI_GATEWAY_DEFAULT_MODEL,
  refuseBaseUrl,
  type ResolveProviderOptions,
} from './provider-settings.ts'

/** The chosen provider, and a one-line notice when a setting was refused. */
export type ResolvedProvider = { provider: ModelProvider; notice?: string }

/** Chooses the provider for this page load: the active one of {@link resolveProviders}. */
export function resolveProvider(options: ResolveProviderOptions = {}): ResolvedProvider {
  const { providers, active, notice } = resolveProviders(options)
  // resolveProviders always includes the provider it names active.
  const provider = providers.find((candidate) => candidate.name === active) ?? providers[0]!
  return notice === undefined ? { provider } : { provider, notice }
}
