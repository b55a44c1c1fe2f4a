/**
 * The error codes the stores raise, and the errors that carry them. Callers branch on `code`,
 * never on a message, so the codes are stable; the messages say what happened and what to do.
 */
import { FxError } from '../terminal/fx-error.ts'

/** A session commit whose expected revision is not the stored one (reference contract). */
export const FX_SESSION_REVISION_CONFLICT = 'FX_SESSION_REVISION_CONFLICT'
/** An OAuth commit or removal whose expected revision is not the stored one (reference contract). */
export const FX_OAUTH_SESSION_REVISION_CONFLICT = 'FX_OAUTH_SESSION_REVISION_CONFLICT'
/** A store call that did not settle within its deadline (see guardStore). */
export const FX_STORE_TIMEOUT = 'FX_STORE_TIMEOUT'
/** The browser refused to store more for this origin. */
export const FX_STORE_QUOTA_EXCEEDED = 'FX_STORE_QUOTA_EXCEEDED'
/** A store call failed for another reason (the original error is the `cause`). */
export const FX_STORE_FAILED = 'FX_STORE_FAILED'
/** A stored record does not have the shape this version of fxterm writes. */
export const FX_STORE_RECORD_INVALID = 'FX_STORE_RECORD_INVALID'
/** OAuth bytes cannot be sealed because Web Crypto is missing (an insecure http:// page). */
export const FX_STORE_CRYPTO_UNAVAILABLE = 'FX_STORE_CRYPTO_UNAVAILABLE'

/** `revision` for a message: revisions are not secret, and "none" reads better than undefined. */
function shown(revision: string | undefined): string {
  return revision === undefined ? 'none' : revision
}

/** The error a stale session commit throws; `found` is the stored revision. */
export function sessionConflict(id: string, expected: string | undefined, found: string | undefined): FxError {
  return new FxError(
    FX_SESSION_REVISION_CONFLICT,
    `session "${id}" was changed elsewhere (expected revision ${shown(expected)}, stored ${shown(found)}); ` +
      'load it again before saving',
  )
}

/** The error a stale OAuth commit or removal throws; `found` is the stored revision. */
export function oauthConflict(action: 'commit' | 'remove', expected: string | undefined, found: string | undefined): FxError {
  return new FxError(
    FX_OAUTH_SESSION_REVISION_CONFLICT,
    `the sign-in was changed elsewhere, so this ${action} was refused (expected revision ${shown(expected)}, ` +
      `stored ${shown(found)}); load it again first`,
  )
}

/** True for the browsers' ways of saying the origin's storage is full. */
export function isQuotaError(error: unknown): boolean {
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined
  // Older Firefox names it NS_ERROR_DOM_QUOTA_REACHED instead of the standard name.
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED'
}

/** The message of any thrown value, for error messages of our own. */
export function messageOf(error: unknown): string {
  if (error instanceof Error || (typeof error === 'object' && error !== null && 'message' in error)) {
    return String((error as { message: unknown }).message)
  }
  return String(error)
}
