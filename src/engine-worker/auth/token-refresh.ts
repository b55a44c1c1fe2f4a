/**
 * Refreshing the access token (RFC 6749 §6). Refresh tokens rotate, so a refresh happens only
 * under the origin-wide lock, and the store is read again after taking it: another tab may have
 * refreshed already, and then its new token is used instead of spending the old refresh token.
 */
import { ErrorCode } from '../../shared/errors.ts'
import { SignInError } from './auth-errors.ts'
import { describeOAuthError, postForm } from './auth-http.ts'
import type { CredentialStore } from './credential-store.ts'
import { recordFromTokenResponse, secretsOf, type TokenRecord } from './token-record.ts'
import type { WithLock } from './web-lock.ts'

/** Refresh when less than this much of the access token's life is left. */
export const REFRESH_MARGIN_MS = 60_000

/** Whether `record` should be refreshed before use at `nowMs`. */
export function isDue(record: TokenRecord, nowMs: number): boolean {
  return record.expiresAtMs !== undefined && record.refreshToken !== undefined && nowMs >= record.expiresAtMs - REFRESH_MARGIN_MS
}

/** One refresh request; rejected refresh tokens throw `FX_SIGNIN_REFRESH_REJECTED`. */
export async function refreshRecord(record: TokenRecord, fetchFn: typeof fetch, nowMs: () => number): Promise<TokenRecord> {
  if (!record.refreshToken) throw new SignInError(ErrorCode.FX_SIGNIN_REFRESH_REJECTED, 'The sign-in has expired and cannot be renewed. Run /login again.')
  const answer = await postForm(fetchFn, record.tokenEndpoint, { grant_type: 'refresh_token', refresh_token: record.refreshToken, client_id: record.clientId })
  if (answer.status === 200) {
    return recordFromTokenResponse(answer.json, nowMs(), {
      clientId: record.clientId,
      tokenEndpoint: record.tokenEndpoint,
      refreshToken: record.refreshToken,
      ...(record.revocationEndpoint ? { revocationEndpoint: record.revocationEndpoint } : {}),
    })
  }
  const why = describeOAuthError(answer.json, answer.status, secretsOf(record))
  if (answer.status === 400 || answer.status === 401) {
    throw new SignInError(ErrorCode.FX_SIGNIN_REFRESH_REJECTED, `The sign-in has expired and could not be renewed (${why}). Run /login again.`)
  }
  throw new SignInError(ErrorCode.FX_SIGNIN_REFUSED, `The sign-in could not be renewed (${why}).`)
}

export type RefreshOptions = {
  store: CredentialStore
  fetch: typeof fetch
  now: () => number
  withLock: WithLock
  lockName: string
}

/**
 * The record to use, refreshed under the lock when it is due, or when `rejected` is the access
 * token a server just refused (a 401). Null when nobody is signed in (any more).
 */
export async function freshRecord(options: RefreshOptions, rejected?: string): Promise<TokenRecord | null> {
  const stale = (record: TokenRecord) => (rejected !== undefined ? record.accessToken === rejected : isDue(record, options.now()))
  // Most requests find a good token: no lock for them (a tab refreshing elsewhere never delays them).
  const seen = await options.store.load()
  if (seen === null || !stale(seen)) return seen
  return options.withLock(options.lockName, async () => {
    const current = await options.store.load()
    if (current === null || !stale(current)) return current
    const next = await refreshRecord(current, options.fetch, options.now)
    await options.store.save(next)
    return next
  })
}
