/**
 * The worker's source of the bearer for the account provider: the signed-in access token
 * (refreshed when due, and once after a 401), else a key saved with /key, else the app's
 * `env.AI_GATEWAY_API_KEY`. Also the one place that signs in and out.
 */
import { ErrorCode } from '../../shared/errors.ts'
import { isSignInError, SignInError } from './auth-errors.ts'
import { postForm } from './auth-http.ts'
import type { CredentialStore } from './credential-store.ts'
import type { KeyStore } from './key-store.ts'
import { freshRecord, type RefreshOptions } from './token-refresh.ts'
import type { TokenRecord } from './token-record.ts'

/** Which credential the account provider uses now. */
export type CredentialKind = 'signed_in' | 'key' | 'env' | 'none'

export type AccountCredentials = {
  /** The bearer for the next request, refreshing first when due; undefined without any. */
  bearer(): Promise<string | undefined>
  /** After a 401 for `rejected`: a refreshed (or another tab's newer) token, once; else undefined. */
  retryBearer(rejected: string): Promise<string | undefined>
  kind(): Promise<CredentialKind>
  /** Stores a new sign-in. */
  signIn(record: TokenRecord): Promise<void>
  /** Revokes (a failure is only a warning) and forgets the sign-in; answers the warning, if any. */
  signOut(): Promise<{ wasSignedIn: boolean; warning?: string }>
  /** Every secret in use now, so messages can mask them. */
  secrets(): string[]
}

export type AccountCredentialsOptions = Omit<RefreshOptions, 'store'> & {
  store: CredentialStore
  keys: KeyStore
  envKey?: string
  /** Told when a refresh token was rejected: the sign-in is gone. */
  onExpired?: (message: string) => void
}

export function createAccountCredentials(options: AccountCredentialsOptions): AccountCredentials {
  const known = new Set<string>()
  const remember = (secret: string | undefined) => {
    if (secret) known.add(secret)
    return secret
  }
  if (options.envKey) known.add(options.envKey)

  const signedIn = async (rejected?: string): Promise<TokenRecord | null> => {
    try {
      const record = await freshRecord(options, rejected)
      if (record) {
        remember(record.accessToken)
        remember(record.refreshToken)
      }
      return record
    } catch (error) {
      if (isSignInError(error, ErrorCode.FX_SIGNIN_REFRESH_REJECTED)) {
        await options.store.clear().catch(() => false)
        options.onExpired?.(error.message)
        return null
      }
      throw error
    }
  }

  return {
    async bearer() {
      const record = await signedIn()
      if (record) return record.accessToken
      return remember((await options.keys.load()) ?? options.envKey)
    },
    async retryBearer(rejected) {
      const record = await options.store.load()
      if (!record || record.accessToken !== rejected) return undefined
      const next = await signedIn(rejected)
      return next && next.accessToken !== rejected ? next.accessToken : undefined
    },
    async kind() {
      if (await options.store.load().catch(() => null)) return 'signed_in'
      if (await options.keys.load().catch(() => undefined)) return 'key'
      return options.envKey ? 'env' : 'none'
    },
    async signIn(record) {
      remember(record.accessToken)
      remember(record.refreshToken)
      await options.store.save(record)
    },
    async signOut() {
      const record = await options.store.load()
      if (!record) return { wasSignedIn: false }
      const warning = await revoke(record, options.fetch)
      await options.store.clear()
      return warning ? { wasSignedIn: true, warning } : { wasSignedIn: true }
    },
    secrets: () => [...known],
  }
}

/** RFC 7009: revokes the refresh token (which ends the grant) or else the access token. */
async function revoke(record: TokenRecord, fetchFn: typeof fetch): Promise<string | undefined> {
  if (!record.revocationEndpoint) return undefined
  const token = record.refreshToken ?? record.accessToken
  const hint = record.refreshToken ? 'refresh_token' : 'access_token'
  try {
    const answer = await postForm(fetchFn, record.revocationEndpoint, { token, token_type_hint: hint, client_id: record.clientId })
    if (answer.status === 200) return undefined
    return `The sign-in server did not confirm the sign-out (HTTP ${answer.status}); this tab forgot the sign-in anyway.`
  } catch (error) {
    const why = error instanceof SignInError ? error.message : 'network error'
    return `The sign-in could not be revoked at the server (${why}); this tab forgot it anyway.`
  }
}
