import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fxGit } from '../../../test/support/git-harness'
import { startGitRemoteFixture, type GitRemoteFixture } from '../../../test/support/git-remote-fixture'

let remote: GitRemoteFixture
beforeEach(async () => {
  remote = await startGitRemoteFixture()
})
afterEach(() => remote.close())

const TWO_COMMITS = `mkdir -p src && echo 'hello' > README.md && echo 'x = 1' > src/a.py && git add . && git commit -qm first && echo 'more' >> README.md && git commit -qam second && git branch feature`

describe('git clone over smart HTTP', () => {
  it('says "Cloning into" and leaves the files and history native git cloned', async () => {
    const url = remote.repo('proj', TWO_COMMITS)
    const fx = await fxGit()
    const cloned = await fx.run(`git clone ${url}`)
    expect(cloned).toEqual({ stdout: '', stderr: "Cloning into 'proj'...\n", exitCode: 0 })
    expect((await fx.run('cat proj/README.md proj/src/a.py')).stdout).toBe('hello\nmore\nx = 1\n')
    const head = remote.sh('git -C proj.git rev-parse main').trim()
    expect((await fx.run('cat proj/.git/HEAD')).stdout).toBe('ref: refs/heads/main\n')
    expect((await fx.run('cat proj/.git/refs/heads/main')).stdout).toBe(`${head}\n`)
    expect((await fx.run('ls proj/.git/refs/remotes/origin')).stdout.split('\n')).toContain('feature')
    expect((await fx.run('ls -a')).stdout).not.toMatch(/clone-/)
  })

  it('clones into a named directory, a branch with -b, and quietly with -q', async () => {
    const url = remote.repo('proj', TWO_COMMITS)
    const fx = await fxGit()
    expect(await fx.run(`git clone -q -b feature --depth 1 ${url} here`)).toEqual({ stdout: '', stderr: '', exitCode: 0 })
    expect((await fx.run('cat here/.git/HEAD')).stdout).toBe('ref: refs/heads/feature\n')
    expect((await fx.run('cat here/.git/shallow')).stdout).toBe(`${remote.sh('git -C proj.git rev-parse feature')}`)
    const missing = await fx.run(`git clone -b nope ${url} other`)
    expect(missing.exitCode).toBe(128)
    expect(missing.stderr).toBe("Cloning into 'other'...\nfatal: Remote branch nope not found in upstream origin\n")
    expect((await fx.run('ls')).stdout).toBe('here\n')
  })

  it('refuses a non-empty destination, and URLs that are not http(s) or carry credentials', async () => {
    const url = remote.repo('proj', TWO_COMMITS)
    const fx = await fxGit()
    await fx.run('mkdir proj && echo keep > proj/mine.txt')
    expect(await fx.run(`git clone ${url}`)).toEqual({
      stdout: '',
      stderr: "fatal: destination path 'proj' already exists and is not an empty directory.\n",
      exitCode: 128,
    })
    for (const bad of ['file:///tmp/x.git', 'git@github.com:a/b.git', 'ssh://host/x.git']) {
      const refused = await fx.run(`git clone ${bad} dest`)
      expect(refused.exitCode).toBe(128)
      expect(refused.stderr.trim().split('\n')).toHaveLength(1)
    }
    const creds = await fx.run(`git clone ${url.replace('http://', 'http://ada:secret@')} dest`)
    expect(creds.stderr).toBe(
      `fatal: '${url.replace('http://', 'http://***@')}' has credentials in the URL; fxterm's git does not send them (remove the user:password@ part)\n`,
    )
    expect(remote.server.requests).toEqual([])
    expect((await fx.run('ls')).stdout).toBe('proj\n')
  })
})
