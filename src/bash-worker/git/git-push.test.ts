import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startCorsProxy } from '../../../mock-servers/cors-proxy.mjs'
import { fxGit } from '../../../test/support/git-harness'
import { startGitRemoteFixture, type GitRemoteFixture } from '../../../test/support/git-remote-fixture'
import { scratchClone } from '../../../test/support/git-scratch-repo'

let remote: GitRemoteFixture
beforeEach(async () => {
  remote = await startGitRemoteFixture()
})
afterEach(() => remote.close())

/** A clone in an fx session, plus a scratch copy of it that makes commits for it. */
async function cloned() {
  const url = remote.repo('proj', "echo one > a.txt && git add . && git commit -qm one")
  const fx = await fxGit()
  await fx.run(`git clone -q ${url}`)
  const scratch = await scratchClone(url)
  const serverLog = () => remote.sh('git -C proj.git log --format=%H main').trim().split('\n')
  return { url, fx, scratch, serverLog, first: serverLog()[0]! }
}

describe('git push', () => {
  it('asks the person first, with the remote, branch and commits; a no sends nothing and says so', async () => {
    const url = remote.repo('asked', 'echo one > a.txt && git add . && git commit -qm one')
    const fx = await fxGit({ approve: () => false })
    await fx.run(`git clone -q ${url}`)
    await fx.run('cd asked && echo two > a.txt && git commit -qam "second change" && echo three > b.txt && git add b.txt && git commit -qm "third change"')
    const before = remote.sh('git -C asked.git rev-parse main')
    expect(await fx.run('cd asked && git push')).toEqual({ stdout: '', stderr: `error: the person declined this push, so nothing was sent to '${url}'\n`, exitCode: 1 })
    expect(remote.sh('git -C asked.git rev-parse main')).toBe(before)
    expect(fx.asked).toHaveLength(1)
    expect(fx.asked[0]).toMatchObject({ remote: 'origin', url, branch: 'main', newBranch: false, action: 'push' })
    expect(fx.asked[0]!.commits.map((c) => c.subject)).toEqual(['third change', 'second change'])
  })


  it('sends a new commit, and the server has exactly it on main (checked with native git)', async () => {
    const { url, fx, scratch, serverLog, first } = await cloned()
    const second = await scratch.commit({ 'a.txt': 'two\n', 'docs/new.md': '# new\n' }, 'second\n')
    await scratch.copyInto(fx.session, '/workspace/proj')
    expect(await fx.run('cd proj && git push')).toEqual({
      stdout: '',
      stderr: `To ${url}\n   ${first.slice(0, 7)}..${second.slice(0, 7)}  main -> main\n`,
      exitCode: 0,
    })
    expect(serverLog()).toEqual([second, first])
    expect(remote.sh('git -C proj.git show --format=%s --name-only main')).toBe('second\n\na.txt\ndocs/new.md\n')
    expect(remote.sh('git -C proj.git show main:docs/new.md')).toBe('# new\n')
    expect(remote.sh('git -C proj.git fsck --strict 2>&1; echo $?')).toBe('0\n')
    expect((await fx.run('cat proj/.git/refs/remotes/origin/main')).stdout).toBe(`${second}\n`)
    expect(await fx.run('cd proj && git push')).toEqual({ stdout: '', stderr: 'Everything up-to-date\n', exitCode: 0 })
    await fx.run(`cd proj && echo ${second} > .git/refs/tags/v1`)
    expect(await fx.run('cd proj && git push origin v1')).toEqual({ stdout: '', stderr: `To ${url}\n * [new tag]         v1 -> v1\n`, exitCode: 0 })
    expect(remote.sh('git -C proj.git rev-parse refs/tags/v1').trim()).toBe(second)
  })

  it('creates a branch with -u and sets the upstream, as native git says', async () => {
    const { url, fx, scratch } = await cloned()
    const second = await scratch.commit({ 'b.txt': 'b\n' }, 'b\n')
    await scratch.copyInto(fx.session, '/workspace/proj')
    expect(await fx.run('cd proj && git push -u origin main:topic')).toEqual({
      stdout: "branch 'main' set up to track 'origin/topic'.\n",
      stderr: `To ${url}\n * [new branch]      main -> topic\n`,
      exitCode: 0,
    })
    expect(remote.sh('git -C proj.git rev-parse topic').trim()).toBe(second)
    expect((await fx.run(`cd proj && grep -A2 'branch "main"' .git/config`)).stdout).toMatch(/refs\/heads\/topic/)
  })

  it('refuses when the remote has commits it lacks ("fetch first"), and -f overwrites', async () => {
    const { url, fx, scratch, serverLog, first } = await cloned()
    remote.sh('cd work-proj && echo theirs > t.txt && git add . && git commit -qm theirs && git push -q ../proj.git main')
    const theirs = serverLog()[0]!
    const mine = await scratch.commit({ 'a.txt': 'mine\n' }, 'mine\n')
    await scratch.copyInto(fx.session, '/workspace/proj')
    expect(await fx.run('cd proj && git push')).toEqual({
      stdout: '',
      stderr:
        `To ${url}\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs to '${url}'\n` +
        'hint: Updates were rejected because the remote contains work that you do\nhint: not have locally. This is usually caused by another repository pushing\n' +
        "hint: to the same ref. You may want to first integrate the remote changes\nhint: (e.g., 'git pull ...') before pushing again.\n" +
        "hint: See the 'Note about fast-forwards' in 'git push --help' for details.\n",
      exitCode: 1,
    })
    expect(serverLog()).toEqual([theirs, first])
    expect(await fx.run('cd proj && git push -f')).toEqual({
      stdout: '',
      stderr: `To ${url}\n + ${theirs.slice(0, 7)}...${mine.slice(0, 7)} main -> main (forced update)\n`,
      exitCode: 0,
    })
    expect(serverLog()).toEqual([mine, first])
  })

  it('leaves the remote as it was when the connection is cut mid-push', async () => {
    const { fx, scratch, serverLog, first } = await cloned()
    const big = Array.from({ length: 4000 }, (_, i) => `line ${i} ${Math.random()}`).join('\n')
    const second = await scratch.commit({ 'big.txt': big }, 'big\n')
    await scratch.copyInto(fx.session, '/workspace/proj')
    remote.server.setFault({ cutReceivePackAfter: 400 })
    const cut = await fx.run('cd proj && git push')
    expect(cut.exitCode).toBe(128)
    expect(cut.stderr).toMatch(/^fatal: .*cut.*\n$/)
    expect(serverLog()).toEqual([first])
    expect(remote.sh('git -C proj.git fsck --strict 2>&1; echo $?')).toBe('0\n')
    remote.server.setFault({})
    expect((await fx.run('cd proj && git push -q')).exitCode).toBe(0)
    expect(serverLog()).toEqual([second, first])
  })

  it('says which in one line when the server answers 403, and asks for an upstream like git', async () => {
    const { url, fx, scratch } = await cloned()
    await scratch.commit({ 'c.txt': 'c\n' }, 'c\n')
    await scratch.copyInto(fx.session, '/workspace/proj')
    remote.server.setFault({ status: 403 })
    expect(await fx.run('cd proj && git push')).toEqual({
      stdout: '',
      stderr: `fatal: unable to access '${url}': The requested URL returned error: 403 (forbidden: no permission for this repository)\n`,
      exitCode: 128,
    })
    remote.server.setFault({})
    await fx.run('cd proj && echo "ref: refs/heads/side" > .git/HEAD && cp .git/refs/heads/main .git/refs/heads/side')
    const none = await fx.run('cd proj && git push')
    expect(none.exitCode).toBe(128)
    expect(none.stderr).toBe('fatal: The current branch side has no upstream branch.\nTo push the current branch and set the remote as upstream, use\n\n    git push --set-upstream origin side\n')
  })

  it('pushes through -c http.corsProxy, with the notice, and to a URL without touching origin/*', async () => {
    const { url, fx, scratch, serverLog, first } = await cloned()
    const second = await scratch.commit({ 'p.txt': 'p\n' }, 'p\n')
    await scratch.copyInto(fx.session, '/workspace/proj')
    const proxy = await startCorsProxy()
    try {
      const pushed = await fx.run(`cd proj && git -c http.corsProxy=${proxy.url} push -q ${url} main:via-proxy`)
      expect(pushed).toEqual({
        stdout: '',
        stderr: `note: git goes through the CORS proxy ${proxy.url} (http.corsProxy); the proxy sees everything that passes through it, credentials included\n`,
        exitCode: 0,
      })
      expect(proxy.passed.map((p) => `${p.method} ${p.url}`)).toContain(`POST ${url}/git-receive-pack`)
    } finally {
      await proxy.close()
    }
    expect(remote.sh('git -C proj.git rev-parse via-proxy').trim()).toBe(second)
    expect(serverLog()).toEqual([first])
    expect((await fx.run('ls proj/.git/refs/remotes/origin')).stdout).not.toMatch(/via-proxy/)
  })
})
