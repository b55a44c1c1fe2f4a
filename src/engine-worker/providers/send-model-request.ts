/**
 * Sends one model request and vets its answer before a byte of the body is read: the part both
 * adapters (openai-compatible.ts, anthropic-messages.ts) share, and the part a key's safety rests
 * on. A request with a key never follows a redirect (keyed-request.ts); a request that cannot be
 * sent, or is answered with an HTTP error, becomes one diagnosed `error` event (the key masked in
 * anything quoted back).
 */
import { ErrorCode } from '../../shared/errors.ts'
import type { ModelEvent } from '../../shared/protocol/model-events.ts'
import { diagnoseHttpFailure, diagnoseNetworkFailure, type NetworkFailure } from './diagnose-failure.ts'
import { isRedirect, KEYED_REQUEST, redirectRefusal } from './keyed-request.ts'

export type ModelRequestToSend = {
  url: string
  /** The headers as sent; the key (if any) is in them already. */
  headers: Record<string, string>
  body: unknown
  /** The key the headers carry, if any. */
  key: string | undefined
  signal: AbortSignal
  label: string
  baseUrl: string
  model: string
  fetch: typeof fetch
  /** Now, in ms since the epoch, for a `Retry-After` date. */
  now(): number
  /** What a failure to connect is diagnosed with: the page's origin, and the local server's kind. */
  diagnose: Pick<NetworkFailure, 'origin' | 'server' | 'permissions'>
}

/**
 * The response to read (an OK answer that is not a redirect), or null once `emit` has been told
 * why there is none; null with nothing emitted when `signal` aborted the request.
 */
export async function sendModelRequest(request: ModelRequestToSend, emit: (event: ModelEvent) => void): Promise<Response | null> {
  const { url, headers, key, signal, label, baseUrl, model } = request
  let response: Response
  try {
    response = await request.fetch(url, { method: 'POST', headers, body: JSON.stringify(request.body), signal, ...(key ? KEYED_REQUEST : {}) })
  } catch (error) {
    if (signal.aborted) return null
    // The app's fetch could not even get the key: say so, not "nothing answered".
    if ((error as { code?: unknown }).code === ErrorCode.FX_MODEL_KEY_UNAVAILABLE) {
      emit({ type: 'error', code: ErrorCode.FX_MODEL_KEY_UNAVAILABLE, message: (error as Error).message, retryable: false })
      return null
    }
    emit({ type: 'error', ...(await diagnoseNetworkFailure({ baseUrl, fetch: request.fetch, signal, sentKey: Boolean(key), headers, ...request.diagnose })) })
    return null
  }
  if (key && isRedirect(response)) {
    emit(redirectRefusal(label, url))
    return null
  }
  if (!response.ok) {
    const bodyText = await response.text().catch(() => '')
    const failure = { status: response.status, bodyText, headers: response.headers, now: request.now(), baseUrl, model, label, fetch: request.fetch, signal, ...(key ? { apiKey: key } : {}) }
    emit({ type: 'error', ...(await diagnoseHttpFailure(failure)) })
    return null
  }
  return response
}
