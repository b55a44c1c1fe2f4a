import { afterEach, describe, expect, it } from 'vitest'
import { fxGit } from '../../../test/support/git-harness'
import { compareGit, disposeNatives } from '../../../test/support/git-compare'

afterEach(disposeNatives)

const expectSame = async (lines: string[]) => {
  const { fx, native } = await compareGit(lines)
  expect(fx).toEqual(native)
}

describe('git commit', () => {
  it('prints git\'s summary, and makes the same commit ids as native git', async () => {
    await expectSame([
      'git init -q',
      'echo a > a.txt && git add a.txt',
      'git commit -m "first"',
      'printf "one\\ntwo\\n" > a.txt && echo b > b.txt && git add .',
      'git commit -m second -m "the body,\nin two lines" -m "and a third paragraph"',
      'git rm -q b.txt && git commit -m "remove b"',
      'git mv a.txt c.txt && git commit -m rename',
      'git rev-parse HEAD',
      'git log --format=%B -1 HEAD~2',
    ])
  })

  it('with -a stages tracked changes only; with nothing to commit prints the status, exit 1', async () => {
    await expectSame([
      'git init -q',
      'git commit -m nothing',
      'echo a > a.txt && echo b > b.txt && git add . && git commit -qm one',
      'git commit -m again',
      'echo more >> a.txt && rm b.txt && echo new > new.txt',
      'git commit -m unstaged',
      'git commit -a -m "all tracked"',
      'git status -s',
      'git commit --allow-empty -m empty',
      'git commit -q --allow-empty -m quiet',
      'git log --oneline',
    ])
  })

  it('with paths commits those files only, leaving the rest staged', async () => {
    await expectSame([
      'git init -q',
      'echo a > a.txt && echo b > b.txt && mkdir d && echo c > d/c.txt && git add . && git commit -qm one',
      'echo a2 >> a.txt && echo b2 >> b.txt && echo c2 >> d/c.txt && git add b.txt',
      'git commit -m "only a" a.txt',
      'git status -s',
      'git commit -m "only d" -- d',
      'git status -s',
      'git commit -m none nope.txt',
      'echo n > n.txt && git commit -m untracked n.txt',
      'git commit -a -m both a.txt',
      'git commit -m again a.txt',
      'rm a.txt && git commit -m gone a.txt',
      'git status -s',
      'git log --oneline --stat',
    ])
  })

  it('--amend rewrites the last commit, with a new message or --no-edit', async () => {
    await expectSame([
      'git init -q',
      'git commit --amend -m nothing',
      'echo a > a.txt && git add a.txt && git commit -qm one',
      'git commit --amend -m "one, better"',
      'echo b > b.txt && git add b.txt && git commit -qm two',
      'echo c >> b.txt && git commit -a --amend --no-edit',
      'git log --oneline --stat',
    ])
  })

  it('takes the message from a file or stdin with -F', async () => {
    await expectSame([
      'git init -q',
      "echo a > a.txt && git add . && printf 'subject line\\n\\nbody # not a comment\\n\\n\\n' > msg.txt && git commit -qF msg.txt",
      'git log --format=%B',
      "echo b >> a.txt && git commit -qa -F - <<'EOF'\nfrom stdin\n\nwith body\nEOF",
      'git log --format=%B -1',
      'git commit -a -F nope.txt',
      'git commit -m x -F msg.txt',
    ])
  })

  it('says in one line that there is no editor, and refuses an empty message', async () => {
    await expectSame(['git init -q', 'echo a > a.txt && git add a.txt', 'git commit -m "  "'])
    const fx = await fxGit()
    await fx.run('git init -q && echo a > a.txt && git add a.txt')
    const noMessage = await fx.run('git commit')
    expect(noMessage).toEqual({ stdout: '', stderr: "error: fxterm's git has no editor to write the message in: give it with -m\n", exitCode: 1 })
    expect(await fx.run('git commit --squash HEAD')).toMatchObject({ exitCode: 1, stderr: "git: git commit --squash is not supported in fxterm's git\n" })
  })

  it('takes the identity from config without GIT_* variables, else fxterm\'s own', async () => {
    const fx = await fxGit()
    const line = 'unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL'
    await fx.run(`${line}; git init -q && echo a > a.txt && git add a.txt && git commit -qm one`)
    expect((await fx.run(`${line}; git log --format="%an <%ae> %ad"`)).stdout).toBe('fxterm <fxterm@localhost> Tue Nov 14 22:13:20 2023 +0000\n')
    await fx.run('git config user.name "Grace Hopper" && git config user.email grace@example.com')
    await fx.run(`${line}; export GIT_AUTHOR_DATE="1700003600 +0130"; git commit -q --allow-empty -m two`)
    expect((await fx.run('git log -1 --format="%an <%ae> %ad"')).stdout).toBe('Grace Hopper <grace@example.com> Wed Nov 15 00:43:20 2023 +0130\n')
  })
})
