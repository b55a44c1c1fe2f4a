import { afterEach, describe, expect, it } from 'vitest'
import { compareGit, disposeNatives } from '../../../test/support/git-compare'

afterEach(disposeNatives)

const expectSame = async (lines: string[]) => {
  const { fx, native } = await compareGit(lines)
  expect(fx).toEqual(native)
}

describe('git add', () => {
  it('stages paths, a directory, ., -A and -u as git does, removals included', async () => {
    await expectSame([
      'git init -q',
      'mkdir -p src/lib && echo a > a.txt && echo m > src/main.ts && echo l > src/lib/l.ts && echo r > README.md',
      'git add a.txt src/lib',
      'git status -s',
      'cd src && git add .',
      'git status -s',
      'git add -A && git commit -qm one',
      'echo more >> a.txt && rm README.md && echo n > new.txt',
      'git add -u',
      'git status -s',
      'rm src/main.ts && git add src',
      'git status -s',
      'git add --all',
      'git status -s',
      'git commit -qm two && rm a.txt && echo x >> new.txt && echo y > y.txt',
      'git add -v .',
    ])
  })

  it('fails on a path that matches nothing, names ignored paths, and refuses a path outside', async () => {
    await expectSame([
      'git init -q',
      'git add nope.txt',
      'echo "*.log" > .gitignore && echo x > x.log',
      'git add x.log',
      'git add /tmp',
      'echo "build/" >> .gitignore && mkdir -p build/x && echo o > build/x/o.txt',
      'git add build/x/o.txt',
      'git status -s',
    ])
  })
})

describe('git add after git rm --cached of files now ignored', () => {
  it('keeps them out of the index, as the usual "stop tracking" recipe expects', async () => {
    await expectSame([
      'git init -q',
      'echo a > a.txt && mkdir d && echo c > d/c.txt && git add -A . && git commit -qm one',
      'echo "*.txt" > .gitignore && git rm -r --cached . && git add . && git status -s',
      'git status',
      'git commit -qm ignore && git rev-parse HEAD',
      'echo "d/" > .gitignore && git add . && git rm -r -q --cached d && git add -A && git status -s',
    ])
  })
})

describe('git rm', () => {
  it('removes from the index and the tree, or the index only with --cached', async () => {
    await expectSame([
      'git init -q',
      'mkdir -p d/e && echo a > a.txt && echo b > b.txt && echo c > d/e/c.txt && git add . && git commit -qm one',
      'git rm a.txt',
      'git rm --cached b.txt',
      'git status -s',
      'ls',
      'git rm d',
      'git rm -r d',
      'ls',
      'git rm nope.txt',
      'mkdir sub && echo s > sub/s.txt && git add sub && git commit -qm sub',
      'cd sub && git rm s.txt && ls -a',
    ])
  })

  it('refuses to lose changes unless forced', async () => {
    await expectSame([
      'git init -q',
      'echo a > a.txt && echo b > b.txt && git add . && git commit -qm one',
      'echo more >> a.txt',
      'git rm a.txt',
      'git add a.txt',
      'git rm a.txt',
      'echo again >> a.txt',
      'git rm --cached a.txt',
      'echo new > n.txt && git add n.txt',
      'git rm n.txt b.txt',
      'git rm -f a.txt',
      'git rm -q --cached n.txt',
      'git status -s',
    ])
  })
})

describe('git mv', () => {
  it('moves files and directories and refuses what git refuses', async () => {
    await expectSame([
      'git init -q',
      'mkdir -p d && echo a > a.txt && echo b > b.txt && echo c > d/c.txt && git add . && git commit -qm one',
      'git mv a.txt a2.txt',
      'git mv b.txt a2.txt',
      'git mv -f b.txt a2.txt',
      'mkdir e && git mv d e',
      'git mv nope.txt x.txt',
      'echo u > u.txt && git mv u.txt v.txt',
      'git status -s',
      'git commit -qm moved && git log --oneline --stat',
    ])
  })
})
