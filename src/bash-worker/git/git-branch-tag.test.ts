import { afterEach, describe, expect, it } from 'vitest'
import { compareGit, disposeNatives } from '../../../test/support/git-compare'

afterEach(disposeNatives)

const expectSame = async (lines: string[]) => {
  const { fx, native } = await compareGit(lines)
  expect(fx).toEqual(native)
}

describe('git branch', () => {
  it('lists with *, creates, renames and shows the current branch', async () => {
    await expectSame([
      'git init -q',
      'git branch',
      'git branch --show-current',
      'git branch early',
      'git branch -m trunk && git branch --show-current',
      'echo a > a.txt && git add a.txt && git commit -qm one',
      'git branch feature && git branch zeta HEAD',
      'git branch',
      'git branch -v',
      'git branch feature',
      'git branch "bad..name"',
      'git branch -m feature feat',
      'git branch -m nope other',
      'git branch -m feat zeta',
      'git branch -a',
      'git branch --show-current',
    ])
  })

  it('deletes merged branches with -d, any with -D, never the current one', async () => {
    await expectSame([
      'git init -q',
      'echo a > a.txt && git add a.txt && git commit -qm one',
      'git branch old && git branch ahead',
      'echo b >> a.txt && git commit -qam two',
      'git branch -d old',
      'git branch -d main',
      'git branch -d nope',
      'git branch -D ahead',
      'git branch',
    ])
  })
})

describe('git tag', () => {
  it('lists, creates lightweight and annotated tags with native ids, and deletes them', async () => {
    await expectSame([
      'git init -q',
      'git tag v0',
      'echo a > a.txt && git add a.txt && git commit -qm one',
      'git tag v1',
      'git tag v1',
      'git tag -a v2 -m "release two"',
      'git tag -m "implied annotate" v3',
      'git tag',
      'git tag -l "v[12]"',
      'git rev-parse v1 v2 v3',
      'git tag -d v1',
      'git tag -d nope',
      'git tag',
      'git log --oneline --decorate',
    ])
  })
})
