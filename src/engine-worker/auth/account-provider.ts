/**
 * The account provider: AI Gateway (or the model API `signIn.modelBaseUrl` names), authorized at
 * each request by the account's credential — the signed-in access token, a key saved with /key,
 * or the app's `env.AI_GATEWAY_API_KEY` — and never by anything else. It takes the place of the
 * registry's own `ai-gateway` entry, so there is one provider whichever credential is in use.
 */
import type { ModelProvider } from '../../shared/protocol/model-events.ts'
import type { ModelCatalog } from '../providers/model-list.ts'
import { createOpenAiCompatibleProvider } from '../providers/openai-compatible.ts'
import { AI_GATEWAY_BASE_URL, AI_GATEWAY_DEFAULT_MODEL, refuseBaseUrl, setting } from '../providers/provider-settings.ts'
import type { AccountCredentials } from './account-credentials.ts'
import { createAuthorizedFetch } from './authorized-fetch.ts'

export const ACCOUNT_PROVIDER = 'ai-gateway'

export type AccountProviderOptions = {
  credentials: AccountCredentials
  /** The model API the credential is for; default AI Gateway's. */
  modelBaseUrl?: string
  model?: string
  /** The app's `modelCatalog` for this provider: no `/models` request. */
  modelCatalog?: ModelCatalog
  fetch: () => typeof fetch
}

/** The account provider, or why `modelBaseUrl` was refused (then AI Gateway's is used). */
export function createAccountProvider(options: AccountProviderOptions): { provider: ModelProvider; notice?: string } {
  const refusal = options.modelBaseUrl === undefined ? undefined : refuseBaseUrl(options.modelBaseUrl)
  const baseUrl = options.modelBaseUrl !== undefined && refusal === undefined ? options.modelBaseUrl : AI_GATEWAY_BASE_URL
  const provider = createOpenAiCompatibleProvider({
    name: ACCOUNT_PROVIDER,
    label: ACCOUNT_PROVIDER,
    baseUrl,
    model: options.model ?? AI_GATEWAY_DEFAULT_MODEL,
    fastServiceTier: 'priority',
    ...(options.modelCatalog ? { modelCatalog: options.modelCatalog } : {}),
    fetch: createAuthorizedFetch(options.credentials, options.fetch),
  })
  return refusal === undefined ? { provider } : { provider, notice: `sign-in: ${refusal}` }
}

/** AI_GATEWAY_API_KEY as the registry reads it (with FX_API_KEY when no base URL is set). */
export function envGatewayKey(env: Record<string, string | undefined>, baseUrl: string | undefined, apiKey: string | undefined): string | undefined {
  return baseUrl === undefined ? setting(apiKey, env.AI_GATEWAY_API_KEY, env.FX_API_KEY) : setting(env.AI_GATEWAY_API_KEY)
}
