import { afterEach, describe, expect, it } from 'vitest'
import { fxGit, nativeGit } from '../../../test/support/git-harness'
import { compareGit, disposeNatives } from '../../../test/support/git-compare'

afterEach(disposeNatives)

const expectSame = async (lines: string[]) => {
  const { fx, native } = await compareGit(lines)
  expect(fx).toEqual(native)
}

describe('git status', () => {
  it('says "No commits yet" and lists untracked files, a directory without tracked files as dir/', async () => {
    await expectSame([
      'git init',
      'git status',
      'echo a > a.txt && mkdir -p src/x && echo y > src/x/y.txt',
      'git status',
      'git status -s',
      'git status --short -b',
      'git status --porcelain',
      'git add a.txt',
      'git status',
      'git status -sb',
    ])
  })

  it('separates staged, unstaged and untracked changes with git\'s hints, once there are commits', async () => {
    await expectSame([
      'git init -q',
      'echo a > a.txt && echo b > b.txt && echo c > c.txt && git add . && git commit -qm one',
      'git status',
      'echo more >> a.txt && git add a.txt && echo again >> a.txt',
      'rm b.txt',
      'echo n > new.txt && git add new.txt',
      'echo u > untracked.txt',
      'git status',
      'git status -s',
      'git status --porcelain -b',
      'git status -- a.txt',
    ])
  })

  it('shows a staged move as a rename, and paths relative to the directory it runs in', async () => {
    await expectSame([
      'git init -q',
      'mkdir -p sub/deep && echo a > a.txt && echo s > sub/s.txt && git add . && git commit -qm one',
      'git mv a.txt sub/deep/b.txt',
      'echo t > sub/t.txt && mkdir sub/new && echo x > sub/new/x.txt',
      'git status',
      'cd sub && git status',
      'cd sub/deep && git status -s',
      'cd sub && git status --porcelain',
    ])
  })

  it('leaves ignored files out, and says the tree is clean after a commit', async () => {
    await expectSame([
      'git init -q',
      'printf "*.log\\nbuild/\\n" > .gitignore && echo x > x.log && mkdir build && echo o > build/o.txt',
      'git status -s',
      'git add . && git commit -qm one',
      'git status',
      'git status -s',
    ])
  })

  it('hides untracked files with -uno and lists each one with -uall', async () => {
    await expectSame([
      'git init -q',
      'echo b > b.txt && git add . && git commit -qm one',
      'mkdir -p u/v && echo 1 > u/v/w.txt && echo 2 > u/x.txt',
      'git status -uno',
      'git status --untracked-files=all',
      'git status -u -s',
      'echo c >> b.txt && git status -uno',
      'git status -ubad',
    ])
  })

  it('colours as git does when the output is the terminal (FXTERM_TTY=1)', async () => {
    await expectSame([
      'git init -q',
      'echo a > a.txt && echo b > b.txt && git add . && git commit -qm one && git branch side && git tag v1',
      'echo c >> a.txt && git add a.txt && echo d >> b.txt && echo u > u.txt',
      '(export FXTERM_TTY=1; git -c color.status=always status)',
      '(export FXTERM_TTY=1; git -c color.status=always status -sb)',
      '(export FXTERM_TTY=1; git -c color.branch=always branch -v)',
      '(export FXTERM_TTY=1; git -c color.ui=always log --decorate)',
      'git status -s',
    ])
  })

  it('quotes paths with spaces, quotes and non-ASCII letters as git does', async () => {
    await expectSame([
      'git init -q',
      `echo a > "a b.txt" && echo e > é.txt && echo q > 'q"x.txt'`,
      'git status -s',
      'git status',
      'git add . && git commit -m one',
      'echo more >> "a b.txt" && git status --porcelain',
    ])
  })

  it('outside a repository is git\'s fatal line, exit 128', async () => {
    const fx = await fxGit()
    const native = nativeGit()
    try {
      const ours = await fx.run('git status')
      const theirs = native.run('git status')
      expect(ours).toEqual(theirs)
      expect(ours).toEqual({ stdout: '', stderr: 'fatal: not a git repository (or any of the parent directories): .git\n', exitCode: 128 })
    } finally {
      native.dispose()
    }
  })

  it('refuses an option it does not know in one line, exit 1', async () => {
    const fx = await fxGit()
    await fx.run('git init -q')
    expect(await fx.run('git status --ignored')).toEqual({ stdout: '', stderr: "git: git status --ignored is not supported in fxterm's git\n", exitCode: 1 })
  })
})
