/**
 * Why a sign-in step failed, with a stable code and a message a person can act on. Messages never
 * carry a token: anything a server said back passes through `maskSecrets` first.
 */
import { FxError, type FxErrorCode } from '../../shared/errors.ts'

/** The sign-in codes (`FX_SIGNIN_*` in the registry). */
export type SignInCode = Extract<FxErrorCode, `FX_SIGNIN_${string}`>

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
