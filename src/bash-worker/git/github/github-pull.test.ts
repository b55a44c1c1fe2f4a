import { afterEach, describe, expect, it } from 'vitest'
import git from 'isomorphic-git'
import { gitFs } from '../git-fs'
import { pullFromGithub } from './github-pull'
import { clonedGithubFixture, toDisk, type GithubFixture } from '../../../../test/support/github-fixture'

const disposers: Array<() => void> = []
afterEach(() => disposers.splice(0).forEach((d) => d()))

const repo = { owner: 'octo', repo: 'demo' }
const dir = '/w'

const cloned = (): Promise<GithubFixture> => clonedGithubFixture(dir, disposers)

describe('a pull through GitHub’s API', () => {
  it('brings two new commits, fast-forwards, and native git finds the repository whole', async () => {
    const { native, mock, fs } = await cloned()
    const before = native.run('git rev-parse main').stdout.trim()
    native.run("echo new > added.txt && git add added.txt && GIT_COMMITTER_DATE='1700000500 +0900' git commit -q -m three")
    native.run("echo more >> src/b.txt && git rm -q bin.dat && git commit -qam four")
    const after = native.run('git rev-parse main').stdout.trim()
    const result = await pullFromGithub({ fs, dir, repo, fetch: mock.server })
    expect(result).toEqual({
      exitCode: 0,
      stdout: `Updating ${before.slice(0, 7)}..${after.slice(0, 7)}\nFast-forward\n`,
      stderr: `From https://github.com/octo/demo\n   ${before.slice(0, 7)}..${after.slice(0, 7)}  main       -> origin/main\n`,
      from: before,
      to: after,
      commits: 2,
    })
    expect(await fs.readFile(`${dir}/added.txt`)).toBe('new\n')
    expect(await fs.exists(`${dir}/bin.dat`)).toBe(false)
    const out = await toDisk(fs, dir)
    disposers.push(out.dispose)
    expect(out.git('git fsck --strict 2>&1')).toBe('')
    expect(out.git('git status --porcelain --branch')).toBe('## main...origin/main\n')
    expect(out.git('git log --format=%H')).toBe(native.run(`git log --format=%H ${before}^..main`).stdout)
    expect((await pullFromGithub({ fs, dir, repo, fetch: mock.server })).stdout).toBe('Already up to date.\n')
  })

  it('refuses a diverged branch, and local changes a pull would overwrite', async () => {
    const { native, mock, fs } = await cloned()
    const fsp = gitFs(fs)
    native.run("echo remote >> README.md && git commit -qam remote")
    await fs.writeFile(`${dir}/README.md`, 'mine\n')
    const blocked = await pullFromGithub({ fs, dir, repo, fetch: mock.server })
    expect(blocked.exitCode).toBe(1)
    expect(blocked.stderr).toContain('error: Your local changes to the following files would be overwritten by merge:\n\tREADME.md\n')
    expect(await fs.readFile(`${dir}/README.md`)).toBe('mine\n')

    await git.add({ fs: fsp, dir, filepath: 'README.md' })
    const author = { name: 'Grace', email: 'g@example.com', timestamp: 1700009000, timezoneOffset: 0 }
    const mine = await git.commit({ fs: fsp, dir, message: 'mine', author })
    const diverged = await pullFromGithub({ fs, dir, repo, fetch: mock.server })
    expect(diverged).toMatchObject({ exitCode: 128, stderr: 'fatal: Not possible to fast-forward, aborting.\n' })
    expect(await git.resolveRef({ fs: fsp, dir, ref: 'HEAD' })).toBe(mine)
    expect(await git.resolveRef({ fs: fsp, dir, ref: 'refs/remotes/origin/main' })).toBe(native.run('git rev-parse main').stdout.trim())
  })

  it('keeps local changes and untracked files the pull does not touch', async () => {
    const { native, mock, fs } = await cloned()
    native.run("echo remote >> README.md && git commit -qam remote")
    await fs.writeFile(`${dir}/src/b.txt`, 'edited here\n')
    await fs.writeFile(`${dir}/untracked.txt`, 'mine\n')
    expect((await pullFromGithub({ fs, dir, repo, fetch: mock.server })).exitCode).toBe(0)
    expect(await fs.readFile(`${dir}/README.md`)).toBe('hello\ntwo\nremote\n')
    expect(await fs.readFile(`${dir}/src/b.txt`)).toBe('edited here\n')
    expect(await fs.readFile(`${dir}/untracked.txt`)).toBe('mine\n')
    const out = await toDisk(fs, dir)
    disposers.push(out.dispose)
    expect(out.git('git status --porcelain')).toBe(' M src/b.txt\n?? untracked.txt\n')
  })
})
