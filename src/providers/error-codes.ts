/**
 * Every code a provider puts in an `error` ModelEvent or a `ModelCatalogError`, with what it
 * means and whether the adapter marks it retryable. One registry, so the README's table and the
 * engine's handling can be checked against it (a test fails when a code is emitted but missing here).
 */

/** A code's meaning, and its `retryable` flag ('depends' when the server's answer decides). */
export type ModelErrorCodeInfo = { meaning: string; retryable: boolean | 'depends' }

/** The registry, keyed by code. */
export const MODEL_ERROR_CODES = {
  FX_MODEL_UNAUTHORIZED: { meaning: '401/403: the key was rejected or is missing (run /login or set a key)', retryable: false },
  FX_MODEL_NOT_FOUND: { meaning: '404: unknown model; the message lists what the server has', retryable: false },
  FX_MODEL_RATE_LIMITED: { meaning: '429; `retryAfterMs` carries Retry-After', retryable: true },
  FX_MODEL_TIMEOUT: { meaning: '408: the server timed out waiting for the request', retryable: true },
  FX_MODEL_CONFLICT: { meaning: '409: a conflicting request upstream', retryable: true },
  FX_MODEL_SERVER_ERROR: { meaning: '5xx', retryable: true },
  FX_MODEL_REQUEST_REJECTED: { meaning: 'another 4xx', retryable: false },
  FX_MODEL_CORS_REFUSED: { meaning: "the server answered but refused this page's origin; the message has the server's exact fix", retryable: false },
  FX_MODEL_LOCAL_NETWORK_DENIED: { meaning: "the browser's Local Network Access permission is denied for this page", retryable: false },
  FX_MODEL_MIXED_CONTENT: { meaning: 'an http server from an https page', retryable: false },
  FX_MODEL_INVALID_URL: { meaning: 'the base URL does not parse', retryable: false },
  FX_MODEL_UNREACHABLE: { meaning: 'nothing answered at the base URL (retryable only for a remote host)', retryable: 'depends' },
  FX_MODEL_NETWORK_ERROR: { meaning: 'the connection failed although the server is up and accepts this origin', retryable: true },
  FX_MODEL_STREAM_MALFORMED: { meaning: 'a line of the stream was not valid JSON or not an event', retryable: false },
  FX_MODEL_STREAM_TRUNCATED: { meaning: 'the stream ended, or the connection dropped, before a finish_reason', retryable: true },
  FX_MODEL_STREAM_ERROR: { meaning: 'the server sent an error in the middle of a 200 stream', retryable: 'depends' },
  FX_MODEL_NOT_CHOSEN: { meaning: 'no model named and the provider has no default (pick one with /model)', retryable: false },
  FX_MODEL_UNSUPPORTED_FAST: { meaning: 'fast mode asked of a provider without a faster tier', retryable: false },
  FX_MODEL_PROVIDER_FAILED: { meaning: 'a bug in the adapter (it threw)', retryable: false },
  FX_MODEL_CATALOG_UNAVAILABLE: { meaning: 'listModels: the server does not list its models, or failed to', retryable: 'depends' },
  FX_MODEL_CATALOG_MALFORMED: { meaning: "listModels: the answer was not OpenAI's { data: [...] }", retryable: false },
  FX_MODEL_CATALOG_CANCELLED: { meaning: "listModels: the caller's signal aborted", retryable: false },
  FX_DEMO_TAPE_UNAVAILABLE: { meaning: "the offline demo's tape could not be loaded", retryable: true },
} as const satisfies Record<string, ModelErrorCodeInfo>

/** A code a provider may report. */
export type ModelErrorCode = keyof typeof MODEL_ERROR_CODES
