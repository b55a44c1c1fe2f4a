/**
 * `listModels({ apiKey, fetch })`: the ids of AI Gateway's language models (or, with `baseUrl`,
 * of another OpenAI-compatible server's). Fails with an error whose `code` says why
 * (`FX_MODEL_UNAUTHORIZED`, `FX_MODEL_CATALOG_UNAVAILABLE`, …); the key is never quoted back.
 */
import { listServerModels } from '../../engine-worker/providers/list-models.ts'
import { AI_GATEWAY_BASE_URL } from '../../engine-worker/providers/provider-settings.ts'

/** Where to list models, and with which key and fetch. */
export type ListModelsOptions = {
  apiKey?: string
  fetch?: typeof fetch
  /** Another OpenAI-compatible server (default: AI Gateway). */
  baseUrl?: string
  signal?: AbortSignal
}

/** The model ids of AI Gateway (or of `baseUrl`); rejects with a coded error. */
export async function listModels(options: ListModelsOptions = {}): Promise<string[]> {
  const baseUrl = (options.baseUrl ?? AI_GATEWAY_BASE_URL).replace(/\/+$/, '')
  const models = await listServerModels({
    baseUrl,
    label: options.baseUrl ? new URL(baseUrl).host : 'ai-gateway',
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    signal: options.signal ?? new AbortController().signal,
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
  })
  return models.map((model) => model.id)
}
