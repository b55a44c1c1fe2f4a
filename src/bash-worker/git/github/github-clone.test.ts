import { afterEach, describe, expect, it } from 'vitest'
import git from 'isomorphic-git'
import { gitFs } from '../git-fs'
import { cloneFromGithub } from './github-clone'
import { GITHUB_MESSAGES } from './github-api'
import { githubFixture, toDisk, type GithubFixture } from '../../../../test/support/github-fixture'

const disposers: Array<() => void> = []
afterEach(() => disposers.splice(0).forEach((d) => d()))

function setup(): GithubFixture {
  const f = githubFixture()
  disposers.push(f.dispose)
  return f
}

const repo = { owner: 'octo', repo: 'demo' }

describe('a clone through GitHub’s API', () => {
  it('has GitHub’s commit id, its files, origin and a clean status, as native git sees it', async () => {
    const { native, mock, fs } = setup()
    const result = await cloneFromGithub({ fs, dir: '/workspace/demo', repo, fetch: mock.pageFetch('tok') })
    const head = native.run('git rev-parse HEAD').stdout.trim()
    expect(result).toEqual({ dir: '/workspace/demo', branch: 'main', oid: head, files: 6, bytes: expect.any(Number) })
    expect(await git.resolveRef({ fs: gitFs(fs), dir: '/workspace/demo', ref: 'HEAD' })).toBe(head)
    expect(await fs.readFile('/workspace/demo/README.md')).toBe('hello\ntwo\n')

    const out = await toDisk(fs, '/workspace/demo')
    disposers.push(out.dispose)
    expect(out.git('git fsck --strict 2>&1')).toBe('')
    expect(out.git('git status --porcelain --branch')).toBe('## main...origin/main\n')
    expect(out.git('git ls-files -s')).toBe(native.run('git ls-files -s').stdout)
    expect(out.git('cat .git/shallow')).toBe(`${head}\n`)
    expect(out.git('git remote -v')).toBe('origin\thttps://github.com/octo/demo (fetch)\norigin\thttps://github.com/octo/demo (push)\n')
    expect(out.git('git log --format=%H%n%B')).toBe(native.run('git log -1 --format=%H%n%B').stdout)
    expect(out.git('cmp bin.dat /dev/stdin < ' + native.dir + '/bin.dat && readlink link && test -x run.sh && echo ok')).toBe('README.md\nok\n')
  })

  it('sends the token only to GitHub’s API and raw hosts, and the library never adds one itself', async () => {
    const { mock, fs } = setup()
    await cloneFromGithub({ fs, dir: '/w', repo, fetch: mock.server })
    expect(mock.requests.every((r) => r.headers.authorization === undefined)).toBe(true)
    mock.requests.length = 0
    await cloneFromGithub({ fs, dir: '/w2', repo, fetch: mock.pageFetch('tok') })
    const hosts = new Set(mock.requests.map((r) => new URL(r.url).host))
    expect([...hosts].sort()).toEqual(['api.github.com', 'raw.githubusercontent.com'])
    expect(mock.requests.every((r) => r.headers.authorization === 'Bearer tok')).toBe(true)
  })

  it('clones a named branch, and says when it does not exist', async () => {
    const { native, mock, fs } = setup()
    native.run("git switch -q -c topic && echo t > t.txt && git add t.txt && git commit -q -m topic && git switch -q main")
    const result = await cloneFromGithub({ fs, dir: '/w', repo, branch: 'topic', fetch: mock.server })
    expect(result.oid).toBe(native.run('git rev-parse topic').stdout.trim())
    expect(await git.currentBranch({ fs: gitFs(fs), dir: '/w' })).toBe('topic')
    await expect(cloneFromGithub({ fs, dir: '/x', repo, branch: 'nope', fetch: mock.server })).rejects.toThrow('Remote branch nope not found in upstream origin')
    expect(await fs.exists('/x')).toBe(false)
  })

  it('rebuilds a signed commit exactly from the verification payload and signature', async () => {
    const { native, mock, fs } = setup()
    const tree = native.run('git rev-parse HEAD^{tree}').stdout.trim()
    const parent = native.run('git rev-parse HEAD').stdout.trim()
    const text =
      `tree ${tree}\nparent ${parent}\nauthor Ada <ada@example.com> 1700000300 +0100\ncommitter Ada <ada@example.com> 1700000300 +0100\n` +
      'gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEEfake\n =abcd\n -----END PGP SIGNATURE-----\n\nsigned\n'
    const sha = native.run(`printf '%s' '${text}' | git hash-object -t commit -w --literally --stdin`).stdout.trim()
    native.run(`git update-ref refs/heads/main ${sha}`)
    const result = await cloneFromGithub({ fs, dir: '/w', repo, fetch: mock.server })
    expect(result.oid).toBe(sha)
    const out = await toDisk(fs, '/w')
    disposers.push(out.dispose)
    expect(out.git('git cat-file commit HEAD')).toBe(text)
  })

  it('says in one line why GitHub refused, and leaves no directory', async () => {
    const { mock, fs } = setup()
    const cases = [
      ['unauthorized', GITHUB_MESSAGES.unauthorized],
      ['rate-limit', GITHUB_MESSAGES.rateLimit],
      ['forbidden', GITHUB_MESSAGES.forbidden],
      ['not-found', GITHUB_MESSAGES.notFound],
    ] as const
    for (const [mode, message] of cases) {
      mock.mode = mode
      await expect(cloneFromGithub({ fs, dir: '/w', repo, fetch: mock.server })).rejects.toThrow(message)
      expect(await fs.exists('/w')).toBe(false)
    }
    expect(GITHUB_MESSAGES.rateLimit).toBe("GitHub's rate limit is used up (60 requests an hour without a token); /key github saves a token (5,000 an hour)")
  })

  it('leaves no directory when the network fails mid-way or the listing is truncated', async () => {
    const { mock, fs } = setup()
    let calls = 0
    const flaky: typeof mock.server = (url, init) => (++calls > 4 ? Promise.reject(new TypeError('Failed to fetch')) : mock.server(url, init))
    await expect(cloneFromGithub({ fs, dir: '/w', repo, fetch: flaky })).rejects.toThrow('could not reach GitHub (Failed to fetch)')
    expect(await fs.exists('/w')).toBe(false)
    mock.truncate = true
    await expect(cloneFromGithub({ fs, dir: '/w', repo, fetch: mock.server })).rejects.toThrow(/truncated/)
    expect(await fs.exists('/w')).toBe(false)
  })

  it('refuses a destination that is not empty, as git does', async () => {
    const { mock, fs } = setup()
    await fs.mkdir('/w', { recursive: true })
    await fs.writeFile('/w/x', 'x')
    await expect(cloneFromGithub({ fs, dir: '/w', repo, fetch: mock.server })).rejects.toThrow("destination path 'w' already exists and is not an empty directory.")
    expect(await fs.readdir('/w')).toEqual(['x'])
  })
})
