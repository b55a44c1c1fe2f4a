import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fxGit, nativeGit } from '../../../test/support/git-harness'
import { startGitRemoteFixture, type GitRemoteFixture } from '../../../test/support/git-remote-fixture'

let remote: GitRemoteFixture
const natives: Array<{ dispose(): void }> = []
beforeEach(async () => {
  remote = await startGitRemoteFixture()
})
afterEach(async () => {
  natives.splice(0).forEach((n) => n.dispose())
  await remote.close()
})

describe('git remote', () => {
  it('adds, lists, renames the URL of and removes remotes as native git does', async () => {
    const fx = await fxGit()
    const native = nativeGit()
    natives.push(native)
    const lines = [
      'git remote',
      'git remote add origin http://example.com/a.git',
      'git remote add upstream https://example.com/b.git',
      'git remote -v',
      'git remote add origin http://example.com/c.git',
      'git remote get-url origin',
      'git remote get-url nope',
      'git remote set-url origin http://example.com/d.git',
      'git remote set-url nope http://example.com/d.git',
      'git remote -v',
      'git remote remove upstream',
      'git remote remove upstream',
      'git remote add "bad name" http://example.com/e.git',
      'git remote',
    ]
    await fx.run('git init -q')
    native.run('git init -q -b main')
    for (const line of lines) {
      const mine = await fx.run(line)
      const theirs = native.run(line)
      expect({ line, ...mine }).toEqual({ line, ...theirs })
    }
  })

  it('refuses a URL with credentials, and says a subcommand it lacks is not supported', async () => {
    const fx = await fxGit()
    await fx.run('git init -q')
    expect(await fx.run('git remote add origin https://ada:secret@example.com/a.git')).toEqual({
      stdout: '',
      stderr: "fatal: 'https://***@example.com/a.git' has credentials in the URL; fxterm's git does not send them (remove the user:password@ part)\n",
      exitCode: 128,
    })
    expect((await fx.run('cat .git/config')).stdout).not.toMatch(/secret/)
    expect(await fx.run('git remote rename a b')).toEqual({ stdout: '', stderr: "git: git remote rename is not supported in fxterm's git\n", exitCode: 1 })
  })

  it('removes the remote-tracking branches with the remote', async () => {
    const url = remote.repo('proj', 'echo a > a && git add . && git commit -qm one')
    const fx = await fxGit()
    await fx.run(`git clone -q ${url}`)
    expect((await fx.run('cd proj && git remote remove origin && git remote -v && ls .git/refs/remotes')).stdout).toBe('')
  })
})

describe('git ls-remote', () => {
  it('lists the server refs as native git does, peeled tags and patterns included', async () => {
    const url = remote.repo('proj', 'echo a > a && git add . && git commit -qm one && git tag -a v1 -m v1 && git tag light && git branch feature')
    const fx = await fxGit()
    for (const line of [`git ls-remote ${url}`, `git ls-remote --heads ${url}`, `git ls-remote --tags ${url}`, `git ls-remote ${url} main`, `git ls-remote --refs ${url}`]) {
      expect({ line, ...(await fx.run(line)) }).toEqual({ line, ...(await remote.native(line)) })
    }
  })

  it('reads the URL of a remote name, and says when there is none', async () => {
    const url = remote.repo('proj', 'echo a > a && git add . && git commit -qm one')
    const fx = await fxGit()
    await fx.run(`git clone -q ${url}`)
    const head = remote.sh('git -C proj.git rev-parse main').trim()
    expect((await fx.run('cd proj && git ls-remote --heads')).stdout).toBe(`${head}\trefs/heads/main\n`)
    expect(await fx.run('cd proj && git ls-remote nope')).toEqual({
      stdout: '',
      stderr: "fatal: 'nope' does not appear to be a git repository (there is no remote of that name)\n",
      exitCode: 128,
    })
  })
})
