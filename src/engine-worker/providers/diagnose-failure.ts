/**
 * Turns a failed model request into one line that says what failed and what to try, with a
 * stable code. A browser hides why a cross-origin fetch failed (CORS, mixed content and "nothing
 * listening" all look like the same TypeError), so the network case probes to tell them apart.
 */
import { ErrorCode, type FxErrorCode } from '../../shared/errors.ts'
import { isLocalNetworkHost, isLoopbackHost } from './loopback-host.ts'
import { quoteForMessage } from './mask-secrets.ts'
import { requestModelList } from './model-list.ts'
import { httpRetryHints, type RetryHints } from './retry-hints.ts'
import { corsFix, LLAMACPP_KEY_FIX, type LocalServerKind, localServerKind, startHint } from './server-advice.ts'

/** A diagnosed failure, ready to become an `error` ModelEvent (retry hints included). */
export type Diagnosis = { code: FxErrorCode; message: string } & RetryHints

/** A response that came back with a non-2xx status. */
export type HttpFailure = {
  status: number
  /** The response body as text (may be empty). */
  bodyText: string
  /** The response headers (`Retry-After`, `x-should-retry`). */
  headers?: Pick<Headers, 'get'>
  /** The clock `Retry-After` dates are measured against (ms since the epoch); defaults to `Date.now()`. */
  now?: number
  baseUrl: string
  model: string
  /** Names the server in messages, e.g. `ai-gateway`. */
  label: string
  apiKey?: string
  /** Used for the GET {baseUrl}/models look-up after a 404. */
  fetch: typeof fetch
  signal?: AbortSignal
}

/** A fetch that rejected before any response (network error, CORS, mixed content). */
export type NetworkFailure = {
  baseUrl: string
  /** The page's origin (e.g. `https://fxterm.dev`); undefined outside a browser. */
  origin: string | undefined
  /** Used for the probes. */
  fetch: typeof fetch
  signal?: AbortSignal
  /** Which local server this is, when the provider knows (a preset); picks the exact fix. */
  server?: LocalServerKind
  /** True when the failed request carried an Authorization header (changes the CORS story). */
  sentKey?: boolean
  /**
   * The failed request's headers. With them a last probe sends the same preflight (to the same
   * base URL): when that passes too, the request's connection was reset, not refused by CORS.
   */
  headers?: Record<string, string>
  /**
   * The Permissions API, for Chrome's Local Network Access; defaults to `navigator.permissions`.
   * `null` skips the check (a browser without it).
   */
  permissions?: PermissionsLike | null
}

/** The part of `navigator.permissions` we use (its descriptor names vary by Chrome version). */
export type PermissionsLike = { query(descriptor: { name: string }): Promise<{ state: string }> }

const MAX_LISTED_MODELS = 8

/** Pulls the human part out of an error body: JSON `error.message`/`message`/`detail`, else text. */
export function serverErrorText(bodyText: string): string {
  try {
    const body: unknown = JSON.parse(bodyText)
    if (typeof body === 'object' && body !== null) {
      const record = body as Record<string, unknown>
      const error = record['error']
      if (typeof error === 'string') return error
      if (typeof error === 'object' && error !== null) {
        const message = (error as Record<string, unknown>)['message']
        if (typeof message === 'string') return message
      }
      for (const key of ['message', 'detail']) {
        const value = record[key]
        if (typeof value === 'string') return value
      }
    }
  } catch {
    // Not JSON: an HTML error page from a proxy, or plain text.
  }
  return bodyText.replace(/<[^>]*>/g, ' ')
}

/** The model ids a server lists at GET {baseUrl}/models, or [] when it lists none we can read. */
async function listModelIds(failure: HttpFailure): Promise<string[]> {
  try {
    const request = { baseUrl: failure.baseUrl, fetch: failure.fetch, ...(failure.apiKey ? { apiKey: failure.apiKey } : {}) }
    const listed = await requestModelList(failure.signal ? { ...request, signal: failure.signal } : request)
    return listed.kind === 'models' ? listed.models.map((model) => model.id) : []
  } catch {
    // The list is a hint; without it the message still says what failed.
    return []
  }
}


/** Why the server needs a key, and how to give it one: /login signs in to AI Gateway. */
function keyAdvice(label: string, sentKey: boolean): string {
  return sentKey ? `${label} rejected the key` : `${label} needs a key`
}

/** Diagnoses a non-2xx response. */
export async function diagnoseHttpFailure(failure: HttpFailure): Promise<Diagnosis> {
  const { status, label, model, baseUrl, apiKey } = failure
  const hints = httpRetryHints(status, failure.headers ?? new Headers(), failure.now ?? Date.now())
  const detail = quoteForMessage(serverErrorText(failure.bodyText), 200, apiKey)
  const statusText = detail === '' ? `HTTP ${status}` : `HTTP ${status}: ${detail}`
  const diagnosis = (code: FxErrorCode, message: string): Diagnosis => ({ code, message, ...hints })
  if (status === 401 || status === 403) {
    return diagnosis(ErrorCode.FX_MODEL_UNAUTHORIZED, `${keyAdvice(label, Boolean(apiKey))} (${statusText}); run /login or set a key, then try again`)
  }
  if (status === 404) {
    const models = await listModelIds(failure)
    if (models.length === 0) {
      return diagnosis(
        ErrorCode.FX_MODEL_NOT_FOUND,
        `${label} has no model "${model}" (HTTP 404); check the model id, and that ${baseUrl} is the API root (it usually ends in /v1)`,
      )
    }
    const shown = models.slice(0, MAX_LISTED_MODELS).join(', ')
    const more = models.length > MAX_LISTED_MODELS ? ` and ${models.length - MAX_LISTED_MODELS} more` : ''
    return diagnosis(ErrorCode.FX_MODEL_NOT_FOUND, `${label} has no model "${model}" (HTTP 404); it offers ${shown}${more}: pick one with /model <id>`)
  }
  if (status === 429) {
    const wait = hints.retryAfterMs === undefined ? 'wait a moment' : `wait ${Math.ceil(hints.retryAfterMs / 1000)} s`
    return diagnosis(ErrorCode.FX_MODEL_RATE_LIMITED, `${label} is rate limiting requests (${statusText}); ${wait} and try again`)
  }
  if (status === 408) {
    return diagnosis(ErrorCode.FX_MODEL_TIMEOUT, `${label} timed out waiting for the request (${statusText}); try again`)
  }
  if (status === 409) {
    return diagnosis(ErrorCode.FX_MODEL_CONFLICT, `${label} was busy with a conflicting request (${statusText}); try again in a moment`)
  }
  if (status >= 500) {
    return diagnosis(ErrorCode.FX_MODEL_SERVER_ERROR, `${label} had a server error (${statusText}); try again in a moment`)
  }
  return diagnosis(
    ErrorCode.FX_MODEL_REQUEST_REJECTED,
    `${label} rejected the request (${statusText}); the model "${model}" may not support tool calls, so try another model`,
  )
}

/** Resolves to true when `url` answered at all, even with a response CORS hides from us. */
async function answers(fetchFn: typeof fetch, url: string, mode: RequestMode, signal: AbortSignal | undefined, headers?: Record<string, string>): Promise<boolean> {
  try {
    const init: RequestInit = headers ? { mode, headers } : { mode }
    if (signal) init.signal = signal
    await fetchFn(url, init)
    return true
  } catch {
    return false
  }
}

/**
 * True when Chrome's Local Network Access permission for this page is denied. Chrome 142 named
 * it `local-network-access`; later versions split it into `local-network` and `loopback-network`.
 * A name the browser does not know makes `query` reject, which counts as "not denied".
 */
async function localNetworkDenied(permissions: PermissionsLike | null | undefined, loopback: boolean): Promise<boolean> {
  if (!permissions) return false
  const names = [loopback ? 'loopback-network' : 'local-network', 'local-network-access']
  for (const name of names) {
    try {
      if ((await permissions.query({ name })).state === 'denied') return true
    } catch {
      // Unknown permission name in this browser.
    }
  }
  return false
}

function defaultPermissions(): PermissionsLike | undefined {
  const navigator = (globalThis as { navigator?: { permissions?: PermissionsLike } }).navigator
  return navigator?.permissions
}

function hostOf(origin: string | undefined): string | undefined {
  try {
    return origin === undefined ? undefined : new URL(origin).hostname
  } catch {
    return undefined
  }
}

/**
 * Diagnoses a fetch that rejected without a response. Probes, in order: a `no-cors` GET (did
 * anything answer?), then a plain CORS GET without credentials (does it accept this origin at
 * all?). Only what the probes prove is claimed; the rest is said as a likely cause.
 */
export async function diagnoseNetworkFailure(failure: NetworkFailure): Promise<Diagnosis> {
  const { baseUrl, origin, signal } = failure
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    return { code: ErrorCode.FX_MODEL_INVALID_URL, message: `"${baseUrl}" is not a valid URL; set FX_BASE_URL to the server's API root`, retryable: false }
  }
  const kind = localServerKind(url, failure.server)
  const loopback = isLoopbackHost(url.hostname)
  const mixed = origin?.startsWith('https:') === true && url.protocol === 'http:'
  // Chrome and Firefox let an https page call http://localhost, so for loopback the probe below
  // decides; for any other host an https page's http request is always blocked.
  if (mixed && !loopback) {
    return {
      code: ErrorCode.FX_MODEL_MIXED_CONTENT,
      message: `this page is served over https, so the browser blocks requests to ${baseUrl} (mixed content); serve the model over https, or open fxterm over http://localhost`,
      retryable: false,
    }
  }
  // An opaque no-cors response proves something is listening even though CORS hid it from us.
  if (await answers(failure.fetch, `${baseUrl}/models`, 'no-cors', signal)) {
    if (!(await answers(failure.fetch, `${baseUrl}/models`, 'cors', signal))) {
      return {
        code: ErrorCode.FX_MODEL_CORS_REFUSED,
        message: `${url.host} is running but refused requests from ${origin ?? "this page's origin"} (CORS); ${corsFix(kind, url, origin)}`,
        retryable: false,
      }
    }
    // It accepts this origin for a simple GET, so either the connection failed on the way, or
    // the preflight for our POST (Content-Type, Authorization) was refused.
    if (failure.sentKey && kind === 'llamacpp') {
      return { code: ErrorCode.FX_MODEL_CORS_REFUSED, message: `${url.host} refused the request that carries the key (CORS); ${LLAMACPP_KEY_FIX}`, retryable: false }
    }
    if (failure.headers !== undefined && (await answers(failure.fetch, `${baseUrl}/models`, 'cors', signal, failure.headers))) {
      return {
        code: ErrorCode.FX_MODEL_NETWORK_ERROR,
        message: `the connection to ${url.host} was dropped before the answer was complete (the server is up and accepts this page's requests); try again`,
        retryable: true,
      }
    }
    const headers = failure.sentKey ? 'the Authorization and Content-Type headers' : 'the Content-Type header'
    return {
      code: ErrorCode.FX_MODEL_NETWORK_ERROR,
      message: `the connection to ${url.host} failed before an answer arrived although the server is up; try again, and if it keeps failing allow ${headers} in its CORS settings`,
      retryable: true,
    }
  }
  const pageHost = hostOf(origin)
  const pageIsLocal = pageHost !== undefined && isLoopbackHost(pageHost)
  if (isLocalNetworkHost(url.hostname) && !pageIsLocal) {
    const permissions = failure.permissions === undefined ? defaultPermissions() : failure.permissions
    if (await localNetworkDenied(permissions, loopback)) {
      return {
        code: ErrorCode.FX_MODEL_LOCAL_NETWORK_DENIED,
        message: `the browser blocked this page from reaching ${url.host} because local network access was denied; allow it for this site (the icon at the left of the address bar, then Local network access) and reload`,
        retryable: false,
      }
    }
  }
  if (mixed && loopback && kind !== undefined) {
    // A known local server on this machine: most likely not started (Chrome and Firefox allow it
    // from an https page), so the start line comes first; Safari is the one that blocks it.
    return {
      code: ErrorCode.FX_MODEL_UNREACHABLE,
      message: `nothing answered at ${baseUrl}; ${startHint(kind, origin)} (Safari blocks http://localhost from an https page: use Chrome or Firefox)`,
      retryable: false,
    }
  }
  if (mixed) {
    return {
      code: ErrorCode.FX_MODEL_MIXED_CONTENT,
      message: `nothing answered at ${baseUrl} from this https page: the browser may block plain http here (mixed content) or the server is not running; start it and try Chrome or Firefox, or open fxterm over http://localhost`,
      retryable: false,
    }
  }
  if (isLocalNetworkHost(url.hostname)) {
    // A local server that is not listening stays down for the seconds a retry would wait.
    return { code: ErrorCode.FX_MODEL_UNREACHABLE, message: `nothing answered at ${baseUrl}; ${startHint(kind, origin)}`, retryable: false }
  }
  return { code: ErrorCode.FX_MODEL_UNREACHABLE, message: `nothing answered at ${baseUrl}; check the network connection and the address, then try again`, retryable: true }
}
