/**
 * What a signed-in session stores (as opaque bytes in the oauthSessionStore): the tokens, when the
 * access token expires, and the endpoints needed to refresh and revoke it, so a restart needs no
 * request to the issuer. Never logged, never shown, never given to the engine.
 */
import { ErrorCode } from '../../shared/errors.ts'
import { SignInError } from './auth-errors.ts'

export type TokenRecord = {
  v: 1
  accessToken: string
  refreshToken?: string
  /** Milliseconds since the epoch; absent when the issuer gave no `expires_in`. */
  expiresAtMs?: number
  clientId: string
  tokenEndpoint: string
  revocationEndpoint?: string
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

export function encodeRecord(record: TokenRecord): Uint8Array {
  return encoder.encode(JSON.stringify(record))
}

/** The record in `bytes`, or null for bytes of another shape (another app's, a damaged record). */
export function decodeRecord(bytes: Uint8Array): TokenRecord | null {
  try {
    const value = JSON.parse(decoder.decode(bytes)) as Partial<TokenRecord>
    if (value.v !== 1 || typeof value.accessToken !== 'string' || typeof value.tokenEndpoint !== 'string' || typeof value.clientId !== 'string') return null
    return value as TokenRecord
  } catch {
    return null
  }
}

/**
 * A successful token response (RFC 6749 §5.1) as a record. A refresh that returns no new refresh
 * token keeps the old one (rotation is optional for the issuer).
 */
export function recordFromTokenResponse(
  json: Record<string, unknown> | null,
  nowMs: number,
  base: Pick<TokenRecord, 'clientId' | 'tokenEndpoint' | 'revocationEndpoint' | 'refreshToken'>,
): TokenRecord {
  const accessToken = json?.['access_token']
  if (typeof accessToken !== 'string' || accessToken === '') {
    throw new SignInError(ErrorCode.FX_SIGNIN_BAD_RESPONSE, 'The sign-in server answered without an access token.')
  }
  const tokenType = json?.['token_type']
  if (typeof tokenType === 'string' && tokenType.toLowerCase() !== 'bearer') {
    throw new SignInError(ErrorCode.FX_SIGNIN_BAD_RESPONSE, `The sign-in server issued a ${tokenType.slice(0, 20)} token; only bearer tokens can be used.`)
  }
  const refresh = json?.['refresh_token']
  const expiresIn = json?.['expires_in']
  const record: TokenRecord = { v: 1, accessToken, clientId: base.clientId, tokenEndpoint: base.tokenEndpoint }
  const refreshToken = typeof refresh === 'string' && refresh !== '' ? refresh : base.refreshToken
  if (refreshToken) record.refreshToken = refreshToken
  if (typeof expiresIn === 'number' && expiresIn > 0) record.expiresAtMs = nowMs + expiresIn * 1000
  if (base.revocationEndpoint) record.revocationEndpoint = base.revocationEndpoint
  return record
}

/** The secrets in a record, for masking anything a server says back. */
export function secretsOf(record: TokenRecord | null | undefined): string[] {
  if (!record) return []
  return record.refreshToken ? [record.accessToken, record.refreshToken] : [record.accessToken]
}
