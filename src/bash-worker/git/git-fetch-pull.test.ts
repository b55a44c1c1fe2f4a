import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fxGit } from '../../../test/support/git-harness'
import { startGitRemoteFixture, type GitRemoteFixture } from '../../../test/support/git-remote-fixture'
import { scratchClone } from '../../../test/support/git-scratch-repo'

let remote: GitRemoteFixture
beforeEach(async () => {
  remote = await startGitRemoteFixture()
})
afterEach(() => remote.close())

/** The server's repository moves on: main gets a commit, a long-named branch and a tag appear. */
const MOVE_ON =
  "cd work-proj && printf 'one\\ntwo\\n' > a.txt && echo new > n.txt && git add . && git commit -qm next && git tag v2 && git branch a-long-branch-name && git push -q ../proj.git main a-long-branch-name v2"

describe('git fetch and git pull', () => {
  it('fetch reports new commits, branches and tags as native git does', async () => {
    const url = remote.repo('proj', 'echo one > a.txt && git add . && git commit -qm one && git tag v1')
    const fx = await fxGit()
    await fx.run(`git clone -q ${url}`)
    await remote.native(`git clone -q ${url} nat`)
    remote.sh(MOVE_ON)
    const native = await remote.native('cd nat && git fetch')
    expect(await fx.run('cd proj && git fetch')).toEqual(native)
    expect(native.stderr).toMatch(/\[new branch\]/)
    expect(await fx.run('cd proj && git fetch')).toEqual({ stdout: '', stderr: '', exitCode: 0 })
    expect((await fx.run('cat proj/.git/refs/remotes/origin/main')).stdout).toBe(remote.sh('git -C proj.git rev-parse main'))
    const all = `git remote add other ${url} && git fetch --all`
    expect(await fx.run(`cd proj && ${all}`)).toEqual(await remote.native(`cd nat && ${all}`))
  })

  it('pull fast-forwards with the output, files and refs native git has', async () => {
    const url = remote.repo('proj', 'echo one > a.txt && echo gone > gone.txt && git add . && git commit -qm one')
    const fx = await fxGit()
    await fx.run(`git clone -q ${url}`)
    await remote.native(`git clone -q ${url} nat`)
    remote.sh("cd work-proj && git rm -q gone.txt && printf 'one\\ntwo\\n' > a.txt && mkdir d && echo new > d/n.txt && git add . && git commit -qm next && git push -q ../proj.git main")
    const native = await remote.native('cd nat && git pull')
    expect(native.stdout).toMatch(/^Updating .*\nFast-forward\n/)
    expect(await fx.run('cd proj && git pull')).toEqual(native)
    expect((await fx.run('cd proj && cat a.txt d/n.txt && ls')).stdout).toBe('one\ntwo\nnew\na.txt\nd\n')
    expect((await fx.run('cat proj/.git/refs/heads/main')).stdout).toBe(remote.sh('git -C proj.git rev-parse main'))
    expect(await fx.run('cd proj && git pull')).toEqual(await remote.native('cd nat && git pull'))
  })

  it('pull refuses a diverged branch in one line and moves nothing; push then says non-fast-forward', async () => {
    const url = remote.repo('proj', 'echo one > a.txt && git add . && git commit -qm one')
    const fx = await fxGit()
    await fx.run(`git clone -q ${url}`)
    const scratch = await scratchClone(url)
    const mine = await scratch.commit({ 'mine.txt': 'mine\n' }, 'mine\n')
    await scratch.copyInto(fx.session, '/workspace/proj')
    remote.sh('cd work-proj && echo theirs > t.txt && git add . && git commit -qm theirs && git push -q ../proj.git main')
    const pulled = await fx.run('cd proj && git pull -q')
    expect(pulled).toEqual({
      stdout: '',
      stderr:
        "fatal: Not possible to fast-forward: main and origin/main have diverged, and fxterm's git pull only fast-forwards (combine them with git merge origin/main)\n",
      exitCode: 1,
    })
    expect((await fx.run('cat proj/.git/refs/heads/main && ls proj')).stdout).toBe(`${mine}\na.txt\nmine.txt\n`)
    const pushed = await fx.run('cd proj && git push')
    expect(pushed.exitCode).toBe(1)
    expect(pushed.stderr.split('\n')[1]).toBe(' ! [rejected]        main -> main (non-fast-forward)')
    expect(remote.sh('git -C proj.git log --format=%s main')).toBe('theirs\none\n')
  })

  it('pull stops before moving anything when local changes would be overwritten', async () => {
    const url = remote.repo('proj', 'echo one > a.txt && git add . && git commit -qm one')
    const fx = await fxGit()
    await fx.run(`git clone -q ${url}`)
    remote.sh("cd work-proj && echo two > a.txt && git commit -qam two && git push -q ../proj.git main")
    await fx.run('echo local > proj/a.txt')
    const before = (await fx.run('cat proj/.git/refs/heads/main')).stdout
    const pulled = await fx.run('cd proj && git pull -q')
    expect(pulled.exitCode).toBe(1)
    expect(pulled.stderr).toMatch(/^error: Your local changes to the following files would be overwritten by merge:\n\ta.txt\n/)
    expect((await fx.run('cat proj/a.txt proj/.git/refs/heads/main')).stdout).toBe(`local\n${before}`)
  })
})
