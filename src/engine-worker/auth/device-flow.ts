/**
 * The OAuth 2.0 device authorization grant (RFC 8628) as a state machine over injected `fetch`,
 * clock and sleep, so every branch is testable without a network or real time:
 * preparing → waiting (URL and code shown) → signed in, or failed / cancelled.
 */
import { ErrorCode } from '../../shared/errors.ts'
import { SignInError } from './auth-errors.ts'
import { describeOAuthError, postForm } from './auth-http.ts'
import type { Endpoints } from './issuer-config.ts'
import { recordFromTokenResponse, type TokenRecord } from './token-record.ts'

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code'
/** RFC 8628 §3.2: the interval when the issuer names none, and §3.5: what slow_down adds. */
export const DEFAULT_INTERVAL_S = 5
export const SLOW_DOWN_S = 5

/** What the person sees while the flow runs. */
export type DeviceFlowState =
  | { state: 'preparing' }
  | { state: 'waiting'; verificationUri: string; verificationUriComplete?: string; userCode: string; expiresAtMs: number }

export type DeviceFlowOptions = {
  endpoints: Endpoints
  clientId: string
  scope: string
  fetch: typeof fetch
  now: () => number
  /** Waits `ms`, rejecting when `signal` aborts. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>
  signal: AbortSignal
  onState: (state: DeviceFlowState) => void
}

/** Runs the flow to a token record; throws a SignInError saying why it did not get one. */
export async function runDeviceFlow(options: DeviceFlowOptions): Promise<TokenRecord> {
  const { endpoints, clientId, signal } = options
  options.onState({ state: 'preparing' })
  const auth = await postForm(options.fetch, endpoints.deviceAuthorizationEndpoint, { client_id: clientId, scope: options.scope }, signal)
  if (auth.status !== 200 || auth.json === null) {
    throw new SignInError(ErrorCode.FX_SIGNIN_REFUSED, `The sign-in server refused to start a device sign-in (${describeOAuthError(auth.json, auth.status)}).`)
  }
  const deviceCode = text(auth.json['device_code'])
  const userCode = text(auth.json['user_code'])
  const verificationUri = safeUrl(auth.json['verification_uri'] ?? auth.json['verification_url'])
  const complete = safeUrl(auth.json['verification_uri_complete'])
  if (!deviceCode || !userCode || !verificationUri) {
    throw new SignInError(ErrorCode.FX_SIGNIN_BAD_RESPONSE, 'The sign-in server answered the device sign-in without a code or a verification URL.')
  }
  const expiresIn = positive(auth.json['expires_in']) ?? 900
  const expiresAtMs = options.now() + expiresIn * 1000
  let intervalS = positive(auth.json['interval']) ?? DEFAULT_INTERVAL_S
  options.onState({ state: 'waiting', verificationUri, ...(complete ? { verificationUriComplete: complete } : {}), userCode, expiresAtMs })

  for (;;) {
    await options.sleep(intervalS * 1000, signal).catch(() => {
      throw new SignInError(ErrorCode.FX_SIGNIN_CANCELLED, 'Sign-in cancelled.')
    })
    if (signal.aborted) throw new SignInError(ErrorCode.FX_SIGNIN_CANCELLED, 'Sign-in cancelled.')
    if (options.now() >= expiresAtMs) throw expired()
    const answer = await postForm(options.fetch, endpoints.tokenEndpoint, { grant_type: DEVICE_CODE_GRANT, device_code: deviceCode, client_id: clientId }, signal)
    if (answer.status === 200) {
      return recordFromTokenResponse(answer.json, options.now(), {
        clientId,
        tokenEndpoint: endpoints.tokenEndpoint,
        ...(endpoints.revocationEndpoint ? { revocationEndpoint: endpoints.revocationEndpoint } : {}),
      })
    }
    const error = typeof answer.json?.['error'] === 'string' ? answer.json['error'] : ''
    if (error === 'authorization_pending') continue
    if (error === 'slow_down') {
      intervalS += SLOW_DOWN_S
      continue
    }
    if (error === 'access_denied') throw new SignInError(ErrorCode.FX_SIGNIN_DENIED, 'Sign-in was declined on the verification page. Run /login to try again.')
    if (error === 'expired_token') throw expired()
    throw new SignInError(ErrorCode.FX_SIGNIN_REFUSED, `The sign-in server refused the sign-in (${describeOAuthError(answer.json, answer.status, [deviceCode])}).`)
  }
}

function expired(): SignInError {
  return new SignInError(ErrorCode.FX_SIGNIN_EXPIRED, 'The sign-in code expired before it was approved. Run /login for a new one.')
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined
}

/** Only an http(s) URL is shown and opened: the issuer's answer is untrusted. */
function safeUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined
  } catch {
    return undefined
  }
}
