/**
 * A request that carries a key never follows a redirect: a server could otherwise send the key's
 * headers on to another origin (browsers drop `Authorization` on a cross-origin redirect, but not
 * `x-api-key`, and an app's own `fetch` may drop neither). Such a request is made with
 * `redirect: 'manual'` and any redirect it gets is refused with one clear line.
 */
import { ErrorCode } from '../../shared/errors.ts'

/** Spread into the init of a request that carries a key. */
export const KEYED_REQUEST = { redirect: 'manual' } as const satisfies RequestInit

/** True for a redirect answer: opaque in a browser, a 3xx with `Location` elsewhere (Node). */
export function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)
}

/** The error for a keyed request to `url` that was answered with a redirect. */
export function redirectRefusal(label: string, url: string): { type: 'error'; code: typeof ErrorCode.FX_MODEL_REDIRECT_REFUSED; message: string; retryable: false } {
  return {
    type: 'error',
    code: ErrorCode.FX_MODEL_REDIRECT_REFUSED,
    message: `${label} answered ${url} with a redirect; fxterm does not follow it, so your key goes only to ${new URL(url).origin}. Set the provider's base URL to where the server really answers.`,
    retryable: false,
  }
}
