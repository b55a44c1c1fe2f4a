import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { expectSameState, gitPair, TWO_COMMITS } from '../../../test/support/git-pair'

const natives: Array<{ dispose(): void }> = []
afterEach(() => natives.splice(0).forEach((n) => n.dispose()))

const STAGED = `${TWO_COMMITS} && printf 'staged\\n' >> a.txt && printf 'n\\n' > n.txt && git add a.txt n.txt && printf 'unstaged\\n' >> b.txt`

describe('git reset against native git', () => {
  it('unstages everything (mixed) and lists what is left unstaged', async () => {
    const p = await gitPair(STAGED, natives)
    const [f, n] = await p.both('git reset')
    expect(f).toEqual(n)
    expect(f.stdout).toBe('Unstaged changes after reset:\nM\ta.txt\nM\tb.txt\n')
    await expectSameState(p)
  })

  it('unstages one path with -- path, HEAD path, or a bare path', async () => {
    const p = await gitPair(STAGED, natives)
    for (const line of ['git reset -- n.txt', 'git reset HEAD a.txt', 'git reset -q']) {
      const [f, n] = await p.both(line)
      expect({ line, ...f }).toEqual({ line, ...n })
      await expectSameState(p)
    }
  })

  it('moves the branch with --soft, --mixed HEAD~1 and --hard', async () => {
    for (const line of ['git reset --soft HEAD~1', 'git reset HEAD~1', 'git reset --mixed HEAD~1', 'git reset --hard HEAD~1', 'git reset --hard']) {
      const p = await gitPair(STAGED, natives)
      const [f, n] = await p.both(line)
      expect({ line, ...f }).toEqual({ line, ...n })
      await expectSameState(p)
      await p.same('ls')
      await p.same('cat .git/ORIG_HEAD')
    }
  })

  it('goes back and forth between commits: --hard, then mixed to a branch lists the unstaged files', async () => {
    const p = await gitPair(`${TWO_COMMITS} && git branch later`, natives)
    for (const line of ['git reset --hard HEAD~1', 'git reset later', 'git reset --hard later', 'git reset --soft HEAD~1']) {
      const [f, n] = await p.both(line)
      expect({ line, ...f }).toEqual({ line, ...n })
      await expectSameState(p)
    }
  })

  it('writes an index native git reads back the same', async () => {
    const p = await gitPair(STAGED, natives)
    await p.both('git reset HEAD~1 -- a.txt && git reset --hard HEAD~1 && printf "z\\n" > z.txt')
    const before = p.native.run('git diff --cached; git diff; git ls-files -s')
    const encoded = await p.fx.run('base64 -w0 .git/index')
    expect(encoded.exitCode).toBe(0)
    writeFileSync(join(p.native.dir, '.git/index'), Buffer.from(encoded.stdout, 'base64'))
    expect(p.native.run('git diff --cached; git diff; git ls-files -s')).toEqual(before)
    expect(p.native.run('git status --porcelain').stdout).toBe('?? z.txt\n')
  })

  it('unstages everything in a repository without commits', async () => {
    const p = await gitPair("git init -q -b main && printf 'x\\n' > x.txt && git add x.txt", natives)
    for (const line of ['git reset', 'git diff --cached', 'git reset --hard', 'ls']) {
      const [f, n] = await p.both(line)
      expect({ line, ...f }).toEqual({ line, ...n })
    }
  })

  it('refuses paths with --hard and an unknown revision, as git does', async () => {
    const p = await gitPair(STAGED, natives)
    for (const line of ['git reset --hard -- a.txt', 'git reset nope', 'git reset --keep']) {
      const [f, n] = await p.both(line)
      if (line === 'git reset --keep') expect(f).toMatchObject({ exitCode: 1, stderr: "git: git reset --keep is not supported in fxterm's git\n" })
      else expect({ line, ...f }).toEqual({ line, ...n })
    }
  })
})

describe('git restore against native git', () => {
  it('restores the work tree from the index, the index from HEAD, and either from --source', async () => {
    const p = await gitPair(STAGED, natives)
    for (const line of ['git restore b.txt', 'git restore --staged a.txt', 'git restore --source=HEAD~1 a.txt', 'git restore -s HEAD~1 --staged --worktree c.txt', 'git restore .']) {
      const [f, n] = await p.both(line)
      expect({ line, ...f }).toEqual({ line, ...n })
      await expectSameState(p)
      await p.same('ls')
    }
  })

  it('says so for no paths and for a path git does not know', async () => {
    const p = await gitPair(STAGED, natives)
    for (const line of ['git restore', 'git restore nope.txt']) {
      const [f, n] = await p.both(line)
      expect({ line, ...f }).toEqual({ line, ...n })
    }
  })
})
