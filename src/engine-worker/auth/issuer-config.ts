/**
 * Where sign-in goes: an issuer found by OpenID discovery, or explicit endpoints. The default is
 * Vercel's issuer, whose access tokens AI Gateway accepts as a bearer.
 */
import { ErrorCode } from '../../shared/errors.ts'
import { refuseBaseUrl } from '../providers/provider-settings.ts'
import { SignInError } from './auth-errors.ts'
import { describeOAuthError, getJson } from './auth-http.ts'
import type { SignInOptions } from '../../shared/messages/worker-api.ts'
export type { SignInOptions } from '../../shared/messages/worker-api.ts'

/** The endpoints a device sign-in uses. */
export type Endpoints = { deviceAuthorizationEndpoint: string; tokenEndpoint: string; revocationEndpoint?: string }

/** Vercel's issuer: the default preset. */
export const VERCEL_DISCOVERY_URL = 'https://vercel.com/.well-known/openid-configuration'
export const DEFAULT_SCOPE = 'openid offline_access'

/** The discovery document's URL for an issuer (the URL itself when it already is one). */
export function discoveryUrl(issuer: string): string {
  if (issuer.includes('/.well-known/')) return issuer
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`
}

/** The endpoints of `options`: explicit ones as given, else read from the issuer's discovery. */
export async function resolveEndpoints(options: SignInOptions, fetchFn: typeof fetch, signal?: AbortSignal): Promise<Endpoints> {
  if (options.deviceAuthorizationEndpoint && options.tokenEndpoint) {
    return checked({
      deviceAuthorizationEndpoint: options.deviceAuthorizationEndpoint,
      tokenEndpoint: options.tokenEndpoint,
      ...(options.revocationEndpoint ? { revocationEndpoint: options.revocationEndpoint } : {}),
    })
  }
  const url = discoveryUrl(options.issuer ?? VERCEL_DISCOVERY_URL)
  const { status, json } = await getJson(fetchFn, url, signal)
  if (status !== 200 || json === null) {
    throw new SignInError(ErrorCode.FX_SIGNIN_BAD_RESPONSE, `The sign-in server's discovery document (${url}) could not be read (${describeOAuthError(json, status)}).`)
  }
  const device = options.deviceAuthorizationEndpoint ?? stringField(json, 'device_authorization_endpoint')
  const token = options.tokenEndpoint ?? stringField(json, 'token_endpoint')
  const revocation = options.revocationEndpoint ?? stringField(json, 'revocation_endpoint')
  if (!device || !token) {
    throw new SignInError(ErrorCode.FX_SIGNIN_BAD_RESPONSE, `The sign-in server (${url}) does not offer device sign-in (no device_authorization_endpoint).`)
  }
  return checked({ deviceAuthorizationEndpoint: device, tokenEndpoint: token, ...(revocation ? { revocationEndpoint: revocation } : {}) })
}

/** Endpoints must be https (or http on loopback), like model servers: tokens cross them. */
function checked(endpoints: Endpoints): Endpoints {
  for (const url of Object.values(endpoints)) {
    const refusal = refuseBaseUrl(url)
    if (refusal !== undefined) throw new SignInError(ErrorCode.FX_SIGNIN_NOT_CONFIGURED, `A sign-in endpoint was refused: ${refusal.replace('model server', 'sign-in')}.`)
  }
  return endpoints
}

function stringField(json: Record<string, unknown>, name: string): string | undefined {
  const value = json[name]
  return typeof value === 'string' && value !== '' ? value : undefined
}
