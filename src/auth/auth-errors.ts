/**
 * Why a sign-in step failed, with a stable code and a message a person can act on. Messages never
 * carry a token: anything a server said back passes through `maskSecrets` first.
 */
import { FxError } from '../terminal/fx-error.ts'

/** The sign-in error codes (documented in the README's error table). */
export const SIGN_IN_CODES = {
  /** No issuer or client id is configured. */
  notConfigured: 'FX_SIGNIN_NOT_CONFIGURED',
  /** The issuer answered but does not allow requests from this page's origin. */
  corsRefused: 'FX_SIGNIN_CORS_REFUSED',
  /** Nothing answered at the issuer. */
  unreachable: 'FX_SIGNIN_UNREACHABLE',
  /** The issuer's discovery document or an answer was not what RFC 8628 / OpenID describe. */
  badResponse: 'FX_SIGNIN_BAD_RESPONSE',
  /** The person declined on the verification page (`access_denied`). */
  denied: 'FX_SIGNIN_DENIED',
  /** The code expired before the person approved it (`expired_token` or `expires_in`). */
  expired: 'FX_SIGNIN_EXPIRED',
  /** The issuer refused the request for another reason (`invalid_client`, …). */
  refused: 'FX_SIGNIN_REFUSED',
  /** Esc, /logout or a closed tab stopped the flow. */
  cancelled: 'FX_SIGNIN_CANCELLED',
  /** The refresh token was rejected: the person must sign in again. */
  refreshRejected: 'FX_SIGNIN_REFRESH_REJECTED',
} as const

export type SignInCode = (typeof SIGN_IN_CODES)[keyof typeof SIGN_IN_CODES]

/** A failed sign-in step. */
export class SignInError extends FxError {
  constructor(code: SignInCode, message: string) {
    super(code, message)
    this.name = 'SignInError'
  }
}

export function isSignInError(error: unknown, code?: SignInCode): error is SignInError {
  return error instanceof SignInError && (code === undefined || error.code === code)
}
