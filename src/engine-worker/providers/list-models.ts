/**
 * `listModels` for OpenAI-compatible servers: `GET {baseUrl}/models`, with failures turned
 * into a `ModelCatalogError` (an `FxError`: a stable `code` and a one-sentence message), like a
 * failed stream's `error` event. The catalog feeds `/model` and `/models`.
 */
import { ErrorCode, FxError, type FxErrorCode } from '../../shared/errors.ts'
import type { ModelInfo } from '../../shared/protocol/model-events.ts'
import { diagnoseNetworkFailure, type PermissionsLike, serverErrorText } from './diagnose-failure.ts'
import { redirectRefusal } from './keyed-request.ts'
import { quoteForMessage } from './mask-secrets.ts'
import { requestModelList, type ModelListResponse } from './model-list.ts'
import { httpRetryHints } from './retry-hints.ts'
import type { LocalServerKind } from './server-advice.ts'

/** Why a catalog could not be listed; `code` is stable, `message` one sentence to show. */
export class ModelCatalogError extends FxError {
  override readonly name = 'ModelCatalogError'
  constructor(
    code: FxErrorCode,
    message: string,
    /** True when asking again later may work (network trouble, 429, 5xx). */
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(code, message)
  }
}

/** Inputs to {@link listServerModels}. */
export type ListServerModelsOptions = {
  baseUrl: string
  /** Sent only to `{baseUrl}/models`, the provider's own address. */
  apiKey?: string
  label: string
  fetch: typeof fetch
  signal: AbortSignal
  origin?: string
  server?: LocalServerKind
  permissions?: PermissionsLike | null
  /** The clock for `Retry-After` dates. */
  now?: () => number
}

/** Lists the models at `{baseUrl}/models`; rejects with a {@link ModelCatalogError}. */
export async function listServerModels(options: ListServerModelsOptions): Promise<ModelInfo[]> {
  const { baseUrl, apiKey, label, signal } = options
  let listed: ModelListResponse
  try {
    listed = await requestModelList({ baseUrl, fetch: options.fetch, signal, ...(apiKey ? { apiKey } : {}) })
  } catch {
    if (signal.aborted) throw new ModelCatalogError(ErrorCode.FX_MODEL_CATALOG_CANCELLED, `listing the models of ${label} was cancelled`, false)
    const diagnosis = await diagnoseNetworkFailure({
      baseUrl,
      origin: options.origin,
      fetch: options.fetch,
      signal,
      sentKey: Boolean(apiKey),
      ...(options.server ? { server: options.server } : {}),
      ...(options.permissions !== undefined ? { permissions: options.permissions } : {}),
    })
    throw new ModelCatalogError(diagnosis.code, diagnosis.message, diagnosis.retryable)
  }
  if (listed.kind === 'models') return listed.models
  if (listed.kind === 'redirect') {
    const refused = redirectRefusal(label, `${baseUrl}/models`)
    throw new ModelCatalogError(refused.code, refused.message, false)
  }
  if (listed.kind === 'malformed') {
    throw new ModelCatalogError(
      ErrorCode.FX_MODEL_CATALOG_MALFORMED,
      `${label} answered ${baseUrl}/models with something other than a model list; name a model with /model <id>`,
      false,
    )
  }
  const { status } = listed
  const hints = httpRetryHints(status, listed.headers, options.now?.() ?? Date.now())
  const detail = quoteForMessage(serverErrorText(listed.bodyText), 200, apiKey)
  const statusText = detail === '' ? `HTTP ${status}` : `HTTP ${status}: ${detail}`
  if (status === 401 || status === 403) {
    const what = apiKey ? `${label} rejected the key` : `${label} needs a key`
    throw new ModelCatalogError(ErrorCode.FX_MODEL_UNAUTHORIZED, `${what} for listing models (${statusText}); run /login or set a key, then try again`, false, status)
  }
  if (status === 404) {
    throw new ModelCatalogError(
      ErrorCode.FX_MODEL_CATALOG_UNAVAILABLE,
      `${label} does not list its models at ${baseUrl}/models (HTTP 404); name a model with /model <id>, or list the models in the provider's settings`,
      false,
      status,
    )
  }
  if (status === 429) {
    throw new ModelCatalogError(ErrorCode.FX_MODEL_RATE_LIMITED, `${label} is rate limiting requests (${statusText}); wait a moment and list the models again`, true, status)
  }
  throw new ModelCatalogError(ErrorCode.FX_MODEL_CATALOG_UNAVAILABLE, `${label} could not list its models (${statusText}); try again in a moment`, hints.retryable, status)
}
