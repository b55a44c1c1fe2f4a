/**
 * Bash worker side: what a failed network subcommand says. isomorphic-git's errors name a
 * class and a code; a person (or a model) needs one line in git's words saying which thing
 * failed: a login wanted (401), a refusal (403), no such repository (404), a network cut, or a
 * size cap.
 */

import { fail, type GitOutput } from './git-context'
import { RemoteNetworkError, RemoteTooBigError } from './remote-http'

type CodedError = Error & { code?: string; data?: { statusCode?: number; statusMessage?: string } }

/** One line, exit 128 (git's fatal), for an error thrown while talking to `url`. */
export function remoteFailure(error: unknown, url: string, signal?: AbortSignal): GitOutput {
  if (signal?.aborted) return fail('fatal: interrupted; the transfer was stopped', 130)
  const e = error as CodedError
  if (e instanceof RemoteNetworkError || e instanceof RemoteTooBigError) return fail(`fatal: ${e.message}`, 128)
  if (e?.code === 'HttpError') {
    const status = e.data?.statusCode ?? 0
    if (status === 401) {
      return fail(`fatal: Authentication failed for '${url}' (HTTP 401: the server wants a login, and fxterm's git has no credentials for it)`, 128)
    }
    if (status === 403) {
      return fail(`fatal: unable to access '${url}': The requested URL returned error: 403 (forbidden: no permission for this repository)`, 128)
    }
    if (status === 404) return fail(`fatal: repository '${url}' not found (HTTP 404)`, 128)
    return fail(`fatal: unable to access '${url}': The requested URL returned error: ${status}`, 128)
  }
  if (e?.code === 'SmartHttpError') return fail(`fatal: '${url}' does not answer as a git smart-HTTP server`, 128)
  const message = e instanceof Error ? e.message : String(error)
  return fail(`fatal: ${message.split('\n')[0]}`, 128)
}
