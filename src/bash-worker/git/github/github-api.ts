/**
 * Bash worker side: a small client for GitHub's REST API and raw file host, over a `fetch` the
 * caller injects. The token never enters this code: the page holds it and its fetch attaches it
 * only to https://api.github.com and https://raw.githubusercontent.com. Every failure becomes a
 * GithubError whose message is one line a person can act on.
 */

import type { GithubRepo } from './github-url'

/** The fetch this client is handed; the caller's own adds the token for GitHub's hosts. */
export type GithubFetch = (url: string, init: RequestInit) => Promise<Response>

/** GitHub's REST API, where the page attaches the token. */
export const GITHUB_API = 'https://api.github.com'
/** GitHub's raw file host, where the page attaches the token too. */
export const GITHUB_RAW = 'https://raw.githubusercontent.com'

/** The one-line messages for GitHub's refusals, as the shell prints them. */
export const GITHUB_MESSAGES = {
  unauthorized: 'GitHub refused the token (401): check it with /key github',
  rateLimit: "GitHub's rate limit is used up (60 requests an hour without a token); /key github saves a token (5,000 an hour)",
  forbidden: 'GitHub refused this (403): the token lacks the scope it needs (Contents: write to push, Pull requests: write for gh pr create); /key github saves another',
  notFound: 'not found: a private repository needs a token with access (/key github), or the name is wrong',
} as const

/** A GithubError's stable code, for callers that branch on the kind of failure. */
export type GithubErrorCode =
  | 'GITHUB_UNAUTHORIZED'
  | 'GITHUB_RATE_LIMIT'
  | 'GITHUB_FORBIDDEN'
  | 'GITHUB_NOT_FOUND'
  | 'GITHUB_UNPROCESSABLE'
  | 'GITHUB_HTTP'
  | 'GITHUB_NETWORK'
  | 'GITHUB_REFUSED'

/** A failure on the GitHub path; `message` is the line to print. */
export class GithubError extends Error {
  constructor(
    readonly code: GithubErrorCode,
    message: string,
    readonly status = 0,
  ) {
    super(message)
    this.name = 'GithubError'
  }
}

/** The error for a response that is not ok, from its status and rate-limit header. */
export async function errorFor(response: Response, what: string): Promise<GithubError> {
  const status = response.status
  if (status === 401) return new GithubError('GITHUB_UNAUTHORIZED', GITHUB_MESSAGES.unauthorized, status)
  if (status === 429 || (status === 403 && response.headers.get('x-ratelimit-remaining') === '0'))
    return new GithubError('GITHUB_RATE_LIMIT', GITHUB_MESSAGES.rateLimit, status)
  if (status === 403) return new GithubError('GITHUB_FORBIDDEN', GITHUB_MESSAGES.forbidden, status)
  if (status === 404) return new GithubError('GITHUB_NOT_FOUND', GITHUB_MESSAGES.notFound, status)
  const detail = await response.json().then(githubMessage, () => '')
  if (status === 422) return new GithubError('GITHUB_UNPROCESSABLE', `GitHub refused ${what} (422)${detail ? `: ${detail}` : ''}`, status)
  return new GithubError('GITHUB_HTTP', `GitHub answered ${status} to ${what}${detail ? `: ${detail}` : ''}`, status)
}

/** GitHub's `message`, with the first of its `errors` when it gives them. */
function githubMessage(body: unknown): string {
  if (typeof body !== 'object' || body === null) return ''
  const { message, errors } = body as { message?: unknown; errors?: Array<{ message?: unknown } | string> }
  const first = errors?.[0]
  const extra = typeof first === 'string' ? first : typeof first?.message === 'string' ? first.message : ''
  return [typeof message === 'string' ? message : '', extra].filter(Boolean).join(': ')
}

/** The requests the GitHub path makes, for one repository. */
export type GithubApi = {
  /** GET a path under /repos/OWNER/REPO ('' for the repository itself) as JSON. */
  get<T>(path: string): Promise<T>
  /** GET that answers null for a 404 instead of failing (a branch that does not exist yet). */
  getOrNull<T>(path: string): Promise<T | null>
  post<T>(path: string, body: unknown): Promise<T>
  patch<T>(path: string, body: unknown): Promise<T>
  /** A file's bytes at a commit from the raw host (which does not count against the API's limit). */
  raw(commit: string, path: string): Promise<Uint8Array>
}

/** A client for one repository. */
export function githubApi(fetch: GithubFetch, { owner, repo }: GithubRepo, signal?: AbortSignal): GithubApi {
  const base = `${GITHUB_API}/repos/${owner}/${repo}`
  const headers = { Accept: 'application/vnd.github+json', 'X-GitHub-Api-Version': '2022-11-28' }
  const send = async (url: string, init: RequestInit, what: string): Promise<Response> => {
    let response: Response
    try {
      response = await fetch(url, { ...init, ...(signal ? { signal } : {}) })
    } catch (error) {
      if (signal?.aborted) throw new GithubError('GITHUB_NETWORK', 'interrupted')
      throw new GithubError('GITHUB_NETWORK', `could not reach GitHub (${error instanceof Error ? error.message : String(error)})`)
    }
    if (!response.ok) throw await errorFor(response, what)
    return response
  }
  const json = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    // GitHub lets browsers cache API answers for 60 s; a branch read just after a push must be
    // fresh. 'no-cache' revalidates with the ETag, and a 304 costs no rate limit.
    const init: RequestInit =
      body === undefined
        ? { method, headers, cache: 'no-cache' }
        : { method, headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) }
    const response = await send(`${base}${path}`, init, `${method} ${path || '/'}`)
    return (await response.json()) as T
  }
  return {
    get: (path) => json('GET', path),
    async getOrNull(path) {
      try {
        return await json('GET', path)
      } catch (error) {
        if (error instanceof GithubError && error.code === 'GITHUB_NOT_FOUND') return null
        throw error
      }
    },
    post: (path, body) => json('POST', path, body),
    patch: (path, body) => json('PATCH', path, body),
    async raw(commit, path) {
      const encoded = path.split('/').map(encodeURIComponent).join('/')
      const response = await send(`${GITHUB_RAW}/${owner}/${repo}/${commit}/${encoded}`, { method: 'GET' }, `the file ${path}`)
      return new Uint8Array(await response.arrayBuffer())
    },
  }
}
