/**
 * The two kinds of request sign-in makes (a form POST and a discovery GET), and what a failed one
 * means. A browser hides why a cross-origin request failed, so a failure is probed once with a
 * `no-cors` request: if that one gets through, the issuer is up and refused this page's origin.
 */
import { ErrorCode } from '../../shared/errors.ts'
import { maskSecrets, quoteForMessage } from '../providers/mask-secrets.ts'
import { SignInError } from './auth-errors.ts'

/** A parsed JSON answer (or null when the body was not JSON) and its status. */
export type JsonAnswer = { status: number; json: Record<string, unknown> | null }

/** POSTs `params` form-encoded (RFC 6749 §4.1.3) and reads the JSON answer. */
export async function postForm(fetchFn: typeof fetch, url: string, params: Record<string, string>, signal?: AbortSignal): Promise<JsonAnswer> {
  const body = new URLSearchParams(params).toString()
  return request(fetchFn, url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body,
    ...(signal ? { signal } : {}),
  })
}

/** GETs a JSON document (the OpenID discovery document). */
export function getJson(fetchFn: typeof fetch, url: string, signal?: AbortSignal): Promise<JsonAnswer> {
  return request(fetchFn, url, { method: 'GET', headers: { accept: 'application/json' }, ...(signal ? { signal } : {}) })
}

async function request(fetchFn: typeof fetch, url: string, init: RequestInit): Promise<JsonAnswer> {
  let response: Response
  try {
    response = await fetchFn(url, init)
  } catch (error) {
    if (init.signal?.aborted) throw new SignInError(ErrorCode.FX_SIGNIN_CANCELLED, 'Sign-in cancelled.')
    throw await diagnoseNetworkFailure(fetchFn, url, error)
  }
  const text = await response.text().catch(() => '')
  let json: Record<string, unknown> | null = null
  try {
    const parsed: unknown = JSON.parse(text)
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) json = parsed as Record<string, unknown>
  } catch {
    json = null
  }
  return { status: response.status, json }
}

/** CORS refusal or nothing answering, told apart by a `no-cors` probe of the same URL. */
async function diagnoseNetworkFailure(fetchFn: typeof fetch, url: string, error: unknown): Promise<SignInError> {
  const origin = originOf(url)
  let reachable = false
  try {
    await fetchFn(url, { method: 'GET', mode: 'no-cors' })
    reachable = true
  } catch {
    reachable = false
  }
  if (reachable) {
    return new SignInError(
      ErrorCode.FX_SIGNIN_CORS_REFUSED,
      `The sign-in server ${origin} does not allow requests from this page (CORS). ` +
        "Pass createFxTerminal a `fetch` option that sends them through your app's own server.",
    )
  }
  const detail = error instanceof Error ? quoteForMessage(error.message, 120) : 'network error'
  return new SignInError(ErrorCode.FX_SIGNIN_UNREACHABLE, `Nothing answered at the sign-in server ${origin} (${detail}). Check the network and try /login again.`)
}

function originOf(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return url
  }
}

/** The issuer's `error` / `error_description` as one short line, masked. */
export function describeOAuthError(json: Record<string, unknown> | null, status: number, secrets: string[] = []): string {
  const code = typeof json?.['error'] === 'string' ? json['error'] : `HTTP ${status}`
  const description = typeof json?.['error_description'] === 'string' ? json['error_description'] : ''
  const text = description ? `${code}: ${description}` : code
  return quoteForMessage(secrets.reduce((masked, secret) => maskSecrets(masked, secret), text), 200)
}
