/**
 * Turns a failed model request into one line that says what failed and what to try, with a
 * stable code. A browser hides why a cross-origin fetch failed (CORS, mixed content and "nothing
 * listening" all look like the same TypeError), so the network case probes to tell them apart.
 */
import { isLoopbackHost } from './loopback-host.ts'
import { quoteForMessage } from './mask-secrets.ts'

/** A diagnosed failure, ready to become an `error` ModelEvent. */
export type Diagnosis = { code: string; message: string }

/** A response that came back with a non-2xx status. */
export type HttpFailure = {
  status: number
  /** The response body as text (may be empty). */
  bodyText: string
  /** The `Retry-After` header, if any. */
  retryAfter?: string | null
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
  /** Used for the no-cors probe. */
  fetch: typeof fetch
  signal?: AbortSignal
}

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
async function listModels(failure: HttpFailure): Promise<string[]> {
  try {
    const headers: Record<string, string> = {}
    if (failure.apiKey) headers['Authorization'] = `Bearer ${failure.apiKey}`
    const init: RequestInit = { headers }
    if (failure.signal) init.signal = failure.signal
    const response = await failure.fetch(`${failure.baseUrl}/models`, init)
    if (!response.ok) return []
    const body: unknown = await response.json()
    const data = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['data'] : undefined
    if (!Array.isArray(data)) return []
    return data.flatMap((item: unknown) => {
      const id = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)['id'] : undefined
      return typeof id === 'string' ? [id] : []
    })
  } catch {
    // The list is a hint; without it the message still says what failed.
    return []
  }
}

/** Diagnoses a non-2xx response. */
export async function diagnoseHttpFailure(failure: HttpFailure): Promise<Diagnosis> {
  const { status, label, model, baseUrl, apiKey } = failure
  const detail = quoteForMessage(serverErrorText(failure.bodyText), 200, apiKey)
  const statusText = detail === '' ? `HTTP ${status}` : `HTTP ${status}: ${detail}`
  if (status === 401 || status === 403) {
    const what = apiKey ? `${label} rejected the key` : `${label} needs a key`
    return {
      code: 'FX_MODEL_UNAUTHORIZED',
      message: `${what} (${statusText}); set AI_GATEWAY_API_KEY or FX_API_KEY to a valid key and try again`,
    }
  }
  if (status === 404) {
    const models = await listModels(failure)
    if (models.length === 0) {
      return {
        code: 'FX_MODEL_NOT_FOUND',
        message: `${label} has no model "${model}" (HTTP 404); check the model id, and that ${baseUrl} is the API root (it usually ends in /v1)`,
      }
    }
    const shown = models.slice(0, MAX_LISTED_MODELS).join(', ')
    const more = models.length > MAX_LISTED_MODELS ? ` and ${models.length - MAX_LISTED_MODELS} more` : ''
    return {
      code: 'FX_MODEL_NOT_FOUND',
      message: `${label} has no model "${model}" (HTTP 404); it offers ${shown}${more}: set FX_MODEL to one of them`,
    }
  }
  if (status === 429) {
    const seconds = Number(failure.retryAfter ?? '')
    const wait = failure.retryAfter && Number.isFinite(seconds) ? `wait ${seconds} s` : 'wait a moment'
    return { code: 'FX_MODEL_RATE_LIMITED', message: `${label} is rate limiting requests (${statusText}); ${wait} and try again` }
  }
  if (status >= 500) {
    return { code: 'FX_MODEL_SERVER_ERROR', message: `${label} had a server error (${statusText}); try again in a moment` }
  }
  return {
    code: 'FX_MODEL_REQUEST_REJECTED',
    message: `${label} rejected the request (${statusText}); the model "${model}" may not support tool calls, so try another model`,
  }
}

function corsFix(baseUrl: URL, origin: string | undefined): string {
  if (baseUrl.port === '11434') return `restart Ollama with OLLAMA_ORIGINS=${origin ?? '<page origin>'} ollama serve`
  if (baseUrl.port === '1234') return "enable CORS in LM Studio's server settings"
  return `allow the origin ${origin ?? "of this page"} in the server's CORS settings`
}

/** Diagnoses a fetch that rejected without a response. */
export async function diagnoseNetworkFailure(failure: NetworkFailure): Promise<Diagnosis> {
  const { baseUrl, origin } = failure
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    return { code: 'FX_MODEL_UNREACHABLE', message: `"${baseUrl}" is not a valid URL; set FX_BASE_URL to the server's API root` }
  }
  const mixed = origin?.startsWith('https:') === true && url.protocol === 'http:'
  // Chrome and Firefox let an https page call http://localhost, so for loopback the probe below
  // decides; for any other host an https page's http request is always blocked.
  if (mixed && !isLoopbackHost(url.hostname)) {
    return {
      code: 'FX_MODEL_MIXED_CONTENT',
      message: `this page is served over https, so the browser blocks requests to ${baseUrl} (mixed content); serve the model over https, or open fxterm over http://localhost`,
    }
  }
  let answered: boolean
  try {
    // An opaque no-cors response proves something is listening even though CORS hid it from us.
    const init: RequestInit = { mode: 'no-cors' }
    if (failure.signal) init.signal = failure.signal
    await failure.fetch(`${baseUrl}/models`, init)
    answered = true
  } catch {
    answered = false
  }
  if (answered) {
    return {
      code: 'FX_MODEL_CORS_REFUSED',
      message: `${url.host} is running but refused requests from ${origin ?? "this page's origin"} (CORS); ${corsFix(url, origin)}`,
    }
  }
  if (mixed) {
    return {
      code: 'FX_MODEL_MIXED_CONTENT',
      message: `nothing answered at ${baseUrl} from this https page: the browser may block plain http here (mixed content) or the server is not running; start it and try Chrome or Firefox, or open fxterm over http://localhost`,
    }
  }
  return { code: 'FX_MODEL_UNREACHABLE', message: `nothing answered at ${baseUrl}; is the server running?` }
}
