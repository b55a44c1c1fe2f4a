/**
 * Page thread: the page's side of `git` (see git/git-host.ts). Pushes wait for the person's yes;
 * GitHub's requests are sent from here so that the token, read from the key ring at each
 * request, is attached only for the exact origin it was saved for and never crosses to the
 * bash worker. Any other address is refused before anything is sent.
 */
import { GITHUB_TOKEN_ORIGINS, type GitHost, type HostFetchInit, type HostFetchReply, type PushPlan } from '../../shared/workspace/git/git-host'

export type PageGitHostOptions = {
  /**
   * Asks the person (the page's push dialog); without it every push is declined. `signal`: the
   * command that asks was stopped, so the question closes as a no.
   */
  approvePush?: (plan: PushPlan, signal?: AbortSignal) => Promise<boolean>
  /** The person's GitHub token for `url` (undefined: none, or not for that origin). */
  githubToken?: (url: string) => Promise<string | undefined>
  fetch?: typeof fetch
}

/** The page's git host; `newSession()` forgets which remotes the person has said yes to. */
export function createPageGitHost(options: PageGitHostOptions): GitHost & { newSession(): void } {
  // The first push (or pull request) to a remote in a session asks; later ones to the same
  // remote, for the same kind of action, go on that yes until the session changes.
  const approved = new Set<string>()
  return {
    newSession: () => approved.clear(),
    async approvePush(plan) {
      const key = `${plan.action} ${plan.url}`
      if (approved.has(key)) return true
      const yes = options.approvePush ? await options.approvePush(plan) : false
      if (yes) approved.add(key)
      return yes
    },
    async githubFetch(url: string, init: HostFetchInit): Promise<HostFetchReply> {
      const origin = URL.canParse(url) ? new URL(url).origin : ''
      if (!GITHUB_TOKEN_ORIGINS.includes(origin)) throw new Error(`fxterm sends GitHub requests only to GitHub's hosts, not to ${origin || url}`)
      const headers: Record<string, string> = { ...init.headers }
      // The caller never sets the token; anything claiming to be one is dropped.
      for (const name of Object.keys(headers)) if (name.toLowerCase() === 'authorization') delete headers[name]
      const token = await options.githubToken?.(url)
      if (token) headers.authorization = `Bearer ${token}`
      const response = await (options.fetch ?? globalThis.fetch)(url, {
        method: init.method,
        headers,
        ...(init.body === undefined ? {} : { body: init.body as BodyInit }),
        // A redirect could carry the token elsewhere: it is an answer, not followed.
        redirect: token ? 'manual' : 'follow',
        credentials: 'omit',
        // A branch read just after a push must not come from the HTTP cache (GitHub allows 60 s).
        cache: 'no-cache',
      })
      if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
        throw new Error('GitHub answered with a redirect (a renamed or moved repository?), which is not followed with your token: use its new address')
      }
      return {
        status: response.status,
        statusText: response.statusText,
        headers: [...response.headers],
        body: new Uint8Array(await response.arrayBuffer()),
      }
    },
  }
}
