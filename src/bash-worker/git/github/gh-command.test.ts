import { afterEach, describe, expect, it } from 'vitest'
import git from 'isomorphic-git'
import { Bash } from 'just-bash/browser'
import { gitFs } from '../git-fs'
import { cloneFromGithub } from './github-clone'
import { pushToGithub } from './github-push'
import { ghCommand } from './gh-command'
import { GITHUB_MESSAGES } from './github-api'
import { githubFixture, type GithubFixture } from '../../../../test/support/github-fixture'

const disposers: Array<() => void> = []
afterEach(() => disposers.splice(0).forEach((d) => d()))

const repo = { owner: 'octo', repo: 'demo' }
const dir = '/w'

async function pushedTopic(): Promise<GithubFixture & { bash: Bash }> {
  const f = githubFixture()
  disposers.push(f.dispose)
  await cloneFromGithub({ fs: f.fs, dir, repo, fetch: f.mock.server })
  const fsp = gitFs(f.fs)
  await git.branch({ fs: fsp, dir, ref: 'topic', checkout: true })
  await f.fs.writeFile(`${dir}/t.txt`, 't\n')
  await git.add({ fs: fsp, dir, filepath: 't.txt' })
  await git.commit({ fs: fsp, dir, message: 'Add t\n\nBecause t.\n', author: { name: 'G', email: 'g@example.com', timestamp: 1700000000, timezoneOffset: 0 } })
  await pushToGithub({ fs: f.fs, dir, repo, fetch: f.mock.server })
  const bash = new Bash({ fs: f.fs, cwd: `${dir}/src`, customCommands: [ghCommand('/', { fetch: f.mock.pageFetch('tok') })] })
  return { ...f, bash }
}

describe('gh', () => {
  it('opens a pull request from the current branch and prints its URL', async () => {
    const { bash, mock } = await pushedTopic()
    const ran = await bash.exec(`gh pr create --title 'Add t' --body 'It adds t.'`)
    expect(ran).toMatchObject({ exitCode: 0, stdout: 'https://github.com/octo/demo/pull/1\n' })
    expect(mock.pulls).toEqual([{ title: 'Add t', body: 'It adds t.', head: 'topic', base: 'main' }])
    const pullRequest = mock.requests.find((r) => r.url.endsWith('/pulls'))!
    expect(pullRequest).toMatchObject({ method: 'POST', url: 'https://api.github.com/repos/octo/demo/pulls', headers: { authorization: 'Bearer tok' } })
  })

  it('takes --fill, --base and --draft', async () => {
    const { bash, mock } = await pushedTopic()
    expect((await bash.exec('gh pr create --fill --base main --draft')).stdout).toBe('https://github.com/octo/demo/pull/1\n')
    expect(mock.pulls).toEqual([{ title: 'Add t', body: 'Because t.', head: 'topic', base: 'main', draft: true }])
  })

  it('says in one line what it does not do, or why GitHub refused', async () => {
    const { bash, mock } = await pushedTopic()
    expect(await bash.exec('gh repo clone octo/demo')).toMatchObject({ exitCode: 1, stderr: "gh: 'gh repo clone' is not supported in fxterm (only gh pr create)\n" })
    expect(await bash.exec('gh pr create --title x')).toMatchObject({ exitCode: 1, stderr: 'must provide `--title` and `--body` (or `--fill`) when not running interactively\n' })
    expect((await bash.exec('gh pr create -t x -b y --web')).stderr).toBe('gh pr create: --web is not supported in fxterm\n')
    expect((await bash.exec('gh pr create -t x -b y -H nowhere')).stderr).toBe('aborted: you must first push the current branch to a remote, or use the --head flag\n')
    mock.mode = 'unauthorized'
    expect(await bash.exec('gh pr create -t x -b y')).toMatchObject({ exitCode: 1, stderr: `pull request create failed: ${GITHUB_MESSAGES.unauthorized}\n` })
    expect(mock.pulls).toEqual([])
  })

  it('asks before opening, and opens nothing when the person declines', async () => {
    const { fs, mock } = await pushedTopic()
    const asked: unknown[] = []
    const approve = async (request: unknown) => (asked.push(request), false)
    const bash = new Bash({ fs, cwd: dir, customCommands: [ghCommand('/', { fetch: mock.server, approve })] })
    expect(await bash.exec('gh pr create -t T -b B')).toMatchObject({ exitCode: 1, stderr: 'pull request create cancelled: the person declined it\n' })
    expect(asked).toEqual([{ url: 'https://github.com/octo/demo', head: 'topic', base: 'main', title: 'T' }])
    expect(mock.pulls).toEqual([])
  })
})
