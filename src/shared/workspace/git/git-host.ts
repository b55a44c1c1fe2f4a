/**
 * What `git` (in the bash worker) asks of the page that made the workspace, over comlink: the
 * person's yes before anything is pushed, and GitHub requests sent with the person's token. The
 * token stays on the page side (githubFetch attaches it only for GitHub's own hosts), so the
 * bash worker, the model and the sandbox never hold it.
 */

/** What a push would send, shown to the person before it goes. */
export type PushPlan = {
  /** The remote's name (`origin`) and its URL. */
  remote: string
  url: string
  /** The remote branch that moves (`main`), and whether it is new there. */
  branch: string
  newBranch: boolean
  /** The commits that go, newest first. */
  commits: Array<{ oid: string; subject: string }>
  /** What asks: `git push` or `gh pr create`. */
  action: 'push' | 'pull request'
  /** A pull request's title and the branch it goes into. */
  title?: string
  base?: string
}

/** A response as it crosses a thread: status, headers and the whole body. */
export type HostFetchReply = { status: number; statusText: string; headers: Array<[string, string]>; body: Uint8Array }

export type HostFetchInit = { method: string; headers: Record<string, string>; body?: string | Uint8Array }

export type GitHost = {
  /** Asks the person; true only for their explicit yes. */
  approvePush(plan: PushPlan): Promise<boolean>
  /** A request to GitHub's API or raw host, with the saved token attached there (only there). */
  githubFetch(url: string, init: HostFetchInit): Promise<HostFetchReply>
}

/** `/key github` saves the token under this name, bound to GITHUB_API_URL's origin. */
export const GITHUB_KEY_NAME = 'github'
export const GITHUB_API_URL = 'https://api.github.com'

/** GitHub's hosts that may receive the person's token, and nothing else. */
export const GITHUB_TOKEN_ORIGINS: readonly string[] = ['https://api.github.com', 'https://raw.githubusercontent.com']

/** `host.githubFetch` as a fetch, for code that takes one. */
export function fetchThroughHost(host: GitHost): (url: string, init?: RequestInit) => Promise<Response> {
  return async (url, init = {}) => {
    const headers: Record<string, string> = {}
    new Headers(init.headers).forEach((value, name) => (headers[name] = value))
    const body = typeof init.body === 'string' || init.body instanceof Uint8Array ? init.body : undefined
    const reply = await host.githubFetch(url, { method: init.method ?? 'GET', headers, ...(body === undefined ? {} : { body }) })
    // A null-body status (204, 304) takes no body in the Response constructor.
    const noBody = reply.status === 204 || reply.status === 304
    return new Response(noBody ? null : (reply.body as Uint8Array<ArrayBuffer>), { status: reply.status, statusText: reply.statusText, headers: reply.headers })
  }
}
