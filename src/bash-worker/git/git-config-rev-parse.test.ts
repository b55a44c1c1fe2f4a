import { afterEach, describe, expect, it } from 'vitest'
import { fxGit } from '../../../test/support/git-harness'
import { compareGit, disposeNatives } from '../../../test/support/git-compare'

afterEach(disposeNatives)

const expectSame = async (lines: string[]) => {
  const { fx, native } = await compareGit(lines)
  expect(fx).toEqual(native)
}

describe('git config', () => {
  it('gets, sets, lists and unsets keys, local and global, with git\'s exit codes', async () => {
    await expectSame([
      'git init -q',
      'git config --list',
      'git config user.name',
      'git config user.name "Ada Lovelace" && git config user.email ada@example.com',
      'git config user.name',
      'git config --get user.email',
      'git config --global init.defaultBranch trunk',
      'git config --global http.corsProxy https://proxy.example',
      'git config --global --list',
      'git config http.corsproxy',
      'git config --list',
      'git -c core.editor=true config --list',
      'git config --unset user.email',
      'git config --unset user.email',
      'git config --local --list',
      'git config nosection',
      'git config a.b.c',
      'cat .git/config',
    ])
  })

  it('writes --global to $HOME/.gitconfig, and init reads init.defaultBranch from it', async () => {
    const fx = await fxGit()
    await fx.run('git config --global init.defaultBranch trunk && git config --global user.name "A B"')
    expect((await fx.run('cat ~/.gitconfig')).stdout).toBe('[init]\n\tdefaultBranch = trunk\n[user]\n\tname = A B\n')
    await fx.run('git init -q')
    expect((await fx.run('git branch --show-current')).stdout).toBe('trunk\n')
    expect(await fx.run('git config user.name x')).toEqual({ stdout: '', stderr: '', exitCode: 0 })
    expect(await fx.run('cd / && git config user.name y')).toEqual({ stdout: '', stderr: 'fatal: not in a git directory\n', exitCode: 128 })
  })
})

describe('git rev-parse', () => {
  it('answers HEAD, --short, --abbrev-ref, branches, tags and the repository questions', async () => {
    await expectSame([
      'git init -q',
      'git rev-parse HEAD',
      'git rev-parse --abbrev-ref HEAD',
      'git rev-parse --is-inside-work-tree',
      'git rev-parse --show-toplevel',
      'git rev-parse --git-dir',
      'echo a > a.txt && git add a.txt && git commit -qm one && echo b >> a.txt && git commit -qam two',
      'git rev-parse HEAD',
      'git rev-parse --short HEAD',
      'git rev-parse --abbrev-ref HEAD',
      'git branch side HEAD~1 && git tag v1 && git tag -a v2 -m two',
      'git rev-parse side v1 v2 HEAD~1 HEAD^',
      'mkdir sub && cd sub && git rev-parse --show-toplevel --show-prefix --git-dir',
      'git rev-parse nope',
      'git rev-parse --verify nope',
      'git rev-parse --verify -q nope',
    ])
  })

  it('outside a repository is the same fatal line as native git', async () => {
    const { fx, native } = await compareGit(['git rev-parse --show-toplevel', 'git log', 'git commit -m x'])
    expect(fx).toEqual(native)
  })
})
