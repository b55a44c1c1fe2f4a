import { describe, expect, it } from 'vitest'
import { createKeyRing } from '../../engine-worker/auth/key-store'
import { memoryOAuthSessionStore } from '../stores/memory-stores'
import { fetchThroughHost, GITHUB_API_URL, GITHUB_KEY_NAME, type PushPlan } from '../../shared/workspace/git/git-host'
import { createPageGitHost } from './page-git-host'

type Sent = { url: string; headers: Record<string, string>; redirect: RequestRedirect | undefined }

async function hostWithToken() {
  const ring = createKeyRing(memoryOAuthSessionStore())
  await ring.save(GITHUB_KEY_NAME, 'ghp_personToken0123456789abcdefghijklmn', GITHUB_API_URL)
  const sent: Sent[] = []
  const host = createPageGitHost({
    githubToken: (url) => ring.load(GITHUB_KEY_NAME, url),
    fetch: async (input, init) => {
      sent.push({ url: String(input), headers: { ...(init?.headers as Record<string, string>) }, redirect: init?.redirect })
      return new Response('{"ok":true}', { status: 200, headers: { 'content-type': 'application/json' } })
    },
  })
  return { host, sent }
}

describe("the page's side of git", () => {
  it("sends GitHub's API requests with the saved token, and the raw host's without it", async () => {
    const { host, sent } = await hostWithToken()
    const fetch = fetchThroughHost(host)
    const api = await fetch('https://api.github.com/repos/ada/demo', { headers: { accept: 'application/vnd.github+json' } })
    expect(await api.json()).toEqual({ ok: true })
    await fetch('https://raw.githubusercontent.com/ada/demo/abc/README.md')
    expect(sent.map((s) => [s.url, s.headers.authorization])).toEqual([
      ['https://api.github.com/repos/ada/demo', 'Bearer ghp_personToken0123456789abcdefghijklmn'],
      ['https://raw.githubusercontent.com/ada/demo/abc/README.md', undefined],
    ])
    // With the token attached, a redirect is an answer, never followed with it.
    expect(sent[0]!.redirect).toBe('manual')
  })

  it('says a redirect was not followed with the token, in words', async () => {
    const ring = createKeyRing(memoryOAuthSessionStore())
    await ring.save(GITHUB_KEY_NAME, 'ghp_personToken0123456789abcdefghijklmn', GITHUB_API_URL)
    const host = createPageGitHost({
      githubToken: (url) => ring.load(GITHUB_KEY_NAME, url),
      fetch: async () => new Response(null, { status: 301, headers: { location: 'https://evil.test/' } }),
    })
    await expect(host.githubFetch('https://api.github.com/repos/a/b', { method: 'GET', headers: {} })).rejects.toThrow(/redirect .* not followed with your token/)
  })

  it('refuses every other host before anything is sent, look-alikes included', async () => {
    const { host, sent } = await hostWithToken()
    for (const url of ['https://api.github.com.evil.test/repos', 'http://api.github.com/repos', 'https://api.github.com:8443/x', 'https://evil.test/']) {
      await expect(host.githubFetch(url, { method: 'GET', headers: {} })).rejects.toThrow(/only to GitHub's hosts/)
    }
    expect(sent).toEqual([])
  })

  it("drops an Authorization header the caller set: only the person's token is ever sent", async () => {
    const { host, sent } = await hostWithToken()
    await host.githubFetch('https://raw.githubusercontent.com/a/b/c/d', { method: 'GET', headers: { Authorization: 'Bearer forged' } })
    expect(sent[0]!.headers).toEqual({})
  })

  it('asks once per remote and action in a session, and again after the session changes', async () => {
    const asked: string[] = []
    const host = createPageGitHost({ approvePush: async (plan) => (asked.push(`${plan.action} ${plan.url}`), true) })
    const plan: PushPlan = { remote: 'origin', url: 'https://github.com/ada/demo', branch: 'main', newBranch: false, commits: [], action: 'push' }
    expect([await host.approvePush(plan), await host.approvePush(plan), await host.approvePush({ ...plan, action: 'pull request' })]).toEqual([true, true, true])
    expect(await host.approvePush({ ...plan, url: 'https://github.com/ada/other' })).toBe(true)
    host.newSession()
    await host.approvePush(plan)
    expect(asked).toEqual(['push https://github.com/ada/demo', 'pull request https://github.com/ada/demo', 'push https://github.com/ada/other', 'push https://github.com/ada/demo'])
  })

  it('a no is not remembered: the next push asks again', async () => {
    const answers = [false, true]
    const host = createPageGitHost({ approvePush: async () => answers.shift()! })
    const plan: PushPlan = { remote: 'origin', url: 'https://x.test/r.git', branch: 'main', newBranch: false, commits: [], action: 'push' }
    expect([await host.approvePush(plan), await host.approvePush(plan)]).toEqual([false, true])
  })

  it('declines every push when no one can be asked', async () => {
    const plan: PushPlan = { remote: 'origin', url: 'https://github.com/ada/demo', branch: 'main', newBranch: false, commits: [], action: 'push' }
    expect(await createPageGitHost({}).approvePush(plan)).toBe(false)
    expect(await createPageGitHost({ approvePush: async () => true }).approvePush(plan)).toBe(true)
  })
})
