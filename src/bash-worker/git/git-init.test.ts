import { afterEach, describe, expect, it } from 'vitest'
import { fxGit, nativeGit } from '../../../test/support/git-harness'

const natives: Array<{ dispose(): void }> = []
afterEach(() => natives.splice(0).forEach((n) => n.dispose()))

describe('git init and the command itself', () => {
  it('makes a repository whose HEAD names main, as native git with -b main', async () => {
    const fx = await fxGit()
    const native = nativeGit()
    natives.push(native)
    expect((await fx.run('git init')).stdout).toBe('Initialized empty Git repository in /workspace/.git/\n')
    native.run('git init -q -b main')
    expect((await fx.run('cat .git/HEAD')).stdout).toBe(native.run('cat .git/HEAD').stdout)
    expect((await fx.run('git init')).stdout).toBe('Reinitialized existing Git repository in /workspace/.git/\n')
  })

  it('says so in one line, exit 1, for an unknown subcommand or option', async () => {
    const fx = await fxGit()
    const sub = await fx.run('git frobnicate')
    expect(sub.exitCode).toBe(1)
    expect(sub.stderr.trim().split('\n')).toHaveLength(1)
    const flag = await fx.run('git init --bare')
    expect(flag).toMatchObject({ exitCode: 1, stderr: "git: git init --bare is not supported in fxterm's git\n" })
  })
})
