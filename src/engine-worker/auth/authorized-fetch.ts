/**
 * The account provider's `fetch`: adds `authorization: Bearer <token>` from the account's
 * credentials at the moment of each request (the token may have been refreshed, or signed out in
 * another tab), retries once with a refreshed token after a 401, and masks the token in any error
 * body a server sends back, since error bodies end up in messages on screen. A credential that
 * cannot be read (a store that failed) throws FX_MODEL_KEY_UNAVAILABLE before anything is sent:
 * the provider reports it as it is, at once, instead of diagnosing a network failure.
 */
import { ErrorCode, FxError } from '../../shared/errors.ts'
import { maskSecrets } from '../providers/mask-secrets.ts'
import type { AccountCredentials } from './account-credentials.ts'

export function createAuthorizedFetch(credentials: AccountCredentials, baseFetch: () => typeof fetch): typeof fetch {
  const send = (input: RequestInfo | URL, init: RequestInit | undefined, token: string | undefined) => {
    const headers = new Headers(init?.headers)
    headers.delete('authorization')
    if (token) headers.set('authorization', `Bearer ${token}`)
    return baseFetch()(input, { ...init, headers })
  }
  return async (input, init) => {
    const token = await credentials.bearer().catch((error: unknown) => {
      const why = error instanceof Error ? error.message : String(error)
      throw new FxError(ErrorCode.FX_MODEL_KEY_UNAVAILABLE, `the key could not be read, so nothing was sent: ${why}`)
    })
    let response = await send(input, init, token)
    if (response.status === 401 && token) {
      const retry = await credentials.retryBearer(token).catch(() => undefined)
      if (retry) {
        await response.body?.cancel().catch(() => {})
        response = await send(input, init, retry)
      }
    }
    return response.ok ? response : masked(response, credentials.secrets())
  }
}

/** The same response with every known secret in its body replaced by `***`. */
async function masked(response: Response, secrets: string[]): Promise<Response> {
  const text = await response.text().catch(() => '')
  const body = secrets.reduce((out, secret) => maskSecrets(out, secret), text)
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
}
