/**
 * The errors the stores raise. Callers branch on `code` (see src/shared/errors.ts), never on a message;
 * the messages say what happened and what to do.
 */
import { ErrorCode, FxError } from '../errors.ts'

/** `revision` for a message: revisions are not secret, and "none" reads better than undefined. */
function shown(revision: string | undefined): string {
  return revision === undefined ? 'none' : revision
}

/** The error a stale session commit throws; `found` is the stored revision. */
export function sessionConflict(id: string, expected: string | undefined, found: string | undefined): FxError {
  return new FxError(
    ErrorCode.FX_SESSION_REVISION_CONFLICT,
    `session "${id}" was changed elsewhere (expected revision ${shown(expected)}, stored ${shown(found)}); ` +
      'load it again before saving',
  )
}

/** The error a stale OAuth commit or removal throws; `found` is the stored revision. */
export function oauthConflict(action: 'commit' | 'remove', expected: string | undefined, found: string | undefined): FxError {
  return new FxError(
    ErrorCode.FX_OAUTH_SESSION_REVISION_CONFLICT,
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
