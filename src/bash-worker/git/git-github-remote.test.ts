import { afterEach, describe, expect, it } from 'vitest'
import { fxGit } from '../../../test/support/git-harness'
import { githubFixture, type GithubFixture } from '../../../test/support/github-fixture'
import type { GitHost } from '../../shared/workspace/git/git-host'

const fixtures: GithubFixture[] = []
afterEach(() => fixtures.splice(0).forEach((f) => f.dispose()))

const TOKEN = 'ghp_unitToken0123456789abcdefghijklmnopq'

/** The page's GitHub fetch over the mock: the token attached for GitHub's hosts, as the page does. */
function hostFetch(fixture: GithubFixture): GitHost['githubFetch'] {
  const fetch = fixture.mock.pageFetch(TOKEN)
  return async (url, init) => {
    const response = await fetch(url, { method: init.method, headers: init.headers, ...(init.body === undefined ? {} : { body: init.body as BodyInit }) })
    return { status: response.status, statusText: response.statusText, headers: [...response.headers], body: new Uint8Array(await response.arrayBuffer()) }
  }
}

describe('git with a github.com remote, through the page and GitHub\'s API', () => {
  it('clones with GitHub\'s own commit id, pushes after the person\'s yes, and gh opens a pull request', async () => {
    const fixture = githubFixture()
    fixtures.push(fixture)
    const fx = await fxGit({ githubFetch: hostFetch(fixture) })
    expect(await fx.run('git clone https://github.com/octo/demo')).toMatchObject({ stderr: "Cloning into 'demo'...\n", exitCode: 0 })
    expect((await fx.run('git -C demo rev-parse HEAD')).stdout).toBe(fixture.native.run('git rev-parse main').stdout)

    await fx.run('cd demo && git switch -q -c notes && echo hi > notes.md && git add notes.md && git commit -qm "add notes"')
    const pushed = await fx.run('cd demo && git push -u origin notes')
    expect(pushed.exitCode).toBe(0)
    expect(fx.asked).toEqual([
      expect.objectContaining({ remote: 'origin', url: 'https://github.com/octo/demo', branch: 'notes', newBranch: true, action: 'push', commits: [expect.objectContaining({ subject: 'add notes' })] }),
    ])
    expect(fixture.native.run('git rev-parse notes').stdout).toBe((await fx.run('git -C demo rev-parse HEAD')).stdout)

    const pr = await fx.run('cd demo && gh pr create --title "Add notes" --body "From the tab."')
    expect(pr.stdout).toMatch(/^https:\/\/github\.com\/octo\/demo\/pull\/\d+\n$/)
    expect(fx.asked.at(-1)).toMatchObject({ action: 'pull request', title: 'Add notes', branch: 'notes' })
    expect(fixture.mock.requests.filter((r) => r.headers.authorization).every((r) => /^https:\/\/(api\.github\.com|raw\.githubusercontent\.com)\//.test(r.url))).toBe(true)
  })

  it('a no to a GitHub push sends nothing and tells the model why', async () => {
    const fixture = githubFixture()
    fixtures.push(fixture)
    const fx = await fxGit({ githubFetch: hostFetch(fixture), approve: () => false })
    await fx.run('git clone -q https://github.com/octo/demo')
    await fx.run('cd demo && echo more >> README.md && git commit -qam "more"')
    const before = fixture.native.run('git rev-parse main').stdout
    const posts = fixture.mock.requests.filter((r) => r.method !== 'GET').length
    expect(await fx.run('cd demo && git push')).toEqual({ stdout: '', stderr: "error: the person declined this push, so nothing was sent to 'https://github.com/octo/demo'\n", exitCode: 1 })
    expect(fixture.native.run('git rev-parse main').stdout).toBe(before)
    expect(fixture.mock.requests.filter((r) => r.method !== 'GET').length).toBe(posts)
  })
})
