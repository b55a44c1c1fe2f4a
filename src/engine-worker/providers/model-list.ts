/**
 * Reading a server's model catalog: `GET {baseUrl}/models` in OpenAI's `{ data: [{ id }] }`
 * shape, plus the extras some servers add (AI Gateway's `context_window`, `max_tokens`, `type`
 * and `tags`; OpenRouter's `context_length` and `supported_parameters`). No diagnosis here, so
 * both `listModels` and the 404 hint in `diagnose-failure.ts` can use it.
 */
import type { ModelInfo } from '../../shared/protocol/model-events.ts'
import { isRedirect, KEYED_REQUEST } from './keyed-request.ts'
import type { ModelCatalog } from '../../shared/provider-types.ts'
export type { ModelCatalog } from '../../shared/provider-types.ts'

/** What `GET {baseUrl}/models` came back with (a network failure rejects instead). */
export type ModelListResponse =
  | { kind: 'models'; models: ModelInfo[] }
  | { kind: 'status'; status: number; bodyText: string; headers: Headers }
  | { kind: 'malformed' }
  /** A keyed request was answered with a redirect, which is not followed (the key stays at its origin). */
  | { kind: 'redirect' }

/** Catalog entries whose `type` is one of these are language models; any other type is dropped. */
const LANGUAGE_TYPES = new Set(['language', 'llm', 'vlm', 'chat', 'text'])

/**
 * The efforts assumed for a model the catalog tags `reasoning` without listing its efforts:
 * the three that every reasoning model behind AI Gateway and OpenRouter accepts.
 */
export const DEFAULT_REASONING_EFFORTS: readonly string[] = ['low', 'medium', 'high']

function positiveInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined
}

/** One catalog entry → ModelInfo, or undefined when it has no id or is not a language model. */
function toModelInfo(item: unknown): ModelInfo | undefined {
  if (typeof item !== 'object' || item === null) return undefined
  const record = item as Record<string, unknown>
  const id = record['id']
  if (typeof id !== 'string' || id === '') return undefined
  const type = record['type']
  if (typeof type === 'string' && !LANGUAGE_TYPES.has(type)) return undefined
  const info: ModelInfo = { id }
  const contextWindow = positiveInteger(record['context_window']) ?? positiveInteger(record['context_length'])
  if (contextWindow !== undefined) info.contextWindow = contextWindow
  const maxOutputTokens = positiveInteger(record['max_tokens']) ?? positiveInteger(record['max_output_tokens'])
  if (maxOutputTokens !== undefined) info.maxOutputTokens = maxOutputTokens
  const tags = stringList(record['tags'])
  const parameters = stringList(record['supported_parameters'])
  if (tags !== undefined || parameters !== undefined) {
    const all = [...(tags ?? []), ...(parameters ?? [])]
    info.supportsToolUse = all.includes('tool-use') || all.includes('tools')
    // Only tags describe inputs; supported_parameters says nothing about images.
    if (tags !== undefined) info.supportsImages = tags.includes('vision')
    const listed = stringList(record['reasoning_efforts']) ?? stringList(record['efforts'])
    const reasons = all.includes('reasoning') || all.includes('reasoning_effort')
    info.efforts = listed ?? (reasons ? [...DEFAULT_REASONING_EFFORTS] : [])
  }
  const tiers = stringList(record['service_tiers'])
  if (typeof record['ultrafast'] === 'boolean') info.ultrafast = record['ultrafast']
  else if (tiers !== undefined) info.ultrafast = tiers.includes('ultrafast')
  else if (tags?.includes('ultrafast')) info.ultrafast = true
  return info
}

/** Parses a `/models` body; undefined when it is not `{ data: [...] }`. Duplicate ids keep the first. */
export function parseModelList(body: unknown): ModelInfo[] | undefined {
  const data = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['data'] : undefined
  if (!Array.isArray(data)) return undefined
  const seen = new Set<string>()
  const models: ModelInfo[] = []
  for (const item of data) {
    const info = toModelInfo(item)
    if (info === undefined || seen.has(info.id)) continue
    seen.add(info.id)
    models.push(info)
  }
  return models
}

/** A configured catalog as ModelInfo (a bare id becomes `{ id }`); copies, so callers may not mutate ours. */
export function catalogToModelInfo(catalog: ModelCatalog): ModelInfo[] {
  return catalog.map((entry) => (typeof entry === 'string' ? { id: entry } : { ...entry }))
}

/** Inputs to {@link requestModelList}. */
export type ModelListRequest = {
  baseUrl: string
  /** Sent as `Authorization: Bearer`; only ever to this provider's own `{baseUrl}/models`. */
  apiKey?: string
  fetch: typeof fetch
  signal?: AbortSignal
}

/** Fetches `{baseUrl}/models`. Rejects only when fetch itself rejects (network, CORS, abort). */
export async function requestModelList(request: ModelListRequest): Promise<ModelListResponse> {
  const headers: Record<string, string> = { Accept: 'application/json' }
  if (request.apiKey) headers['Authorization'] = `Bearer ${request.apiKey}`
  const init: RequestInit = request.apiKey ? { headers, ...KEYED_REQUEST } : { headers }
  if (request.signal) init.signal = request.signal
  const response = await request.fetch(`${request.baseUrl}/models`, init)
  if (request.apiKey && isRedirect(response)) return { kind: 'redirect' }
  if (!response.ok) {
    const bodyText = await response.text().catch(() => '')
    return { kind: 'status', status: response.status, bodyText, headers: response.headers }
  }
  let body: unknown
  try {
    body = await response.json()
  } catch {
    return { kind: 'malformed' }
  }
  const models = parseModelList(body)
  return models === undefined ? { kind: 'malformed' } : { kind: 'models', models }
}
