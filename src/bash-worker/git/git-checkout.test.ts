import { afterEach, describe, expect, it } from 'vitest'
import { expectSameState, gitPair, TWO_COMMITS } from '../../../test/support/git-pair'

const natives: Array<{ dispose(): void }> = []
afterEach(() => natives.splice(0).forEach((n) => n.dispose()))

const BRANCHED = `${TWO_COMMITS} && git switch -q -c dev && printf 'dev\\n' > d.txt && git add d.txt && git commit -qm dev-work && git switch -q main`

describe('git switch and checkout against native git', () => {
  it('switches branches, makes new ones, and says what git says', async () => {
    const p = await gitPair(BRANCHED, natives)
    for (const line of ['git switch dev', 'git switch dev', 'git switch -c topic main', 'git checkout main', 'git checkout -b other', 'git switch -C dev2 HEAD~1']) {
      const [f, n] = await p.both(line)
      expect({ line, ...f }).toEqual({ line, ...n })
      await expectSameState(p)
    }
    expect((await p.fx.run('cat d.txt')).exitCode).toBe(1)
  })

  it('carries local changes along and lists them; refuses to overwrite them', async () => {
    const p = await gitPair(`${BRANCHED} && git switch -q dev && printf 'dev2\\n' >> d.txt && git commit -qam more && git switch -q main`, natives)
    await p.both("printf 'local\\n' >> b.txt")
    const [f, n] = await p.both('git switch dev')
    expect(f).toEqual(n)
    expect(f.stdout).toBe('M\tb.txt\n')
    await p.both('git switch main')
    await p.both("printf 'mine\\n' > d.txt")
    const [g, m] = await p.both('git switch dev')
    expect(g).toEqual(m)
    expect(g.exitCode).toBe(1)
    await p.both('rm d.txt && git switch dev && printf "x\\n" >> d.txt')
    const [h, o] = await p.both('git checkout main')
    expect(h).toEqual(o)
    expect(h.stderr).toContain('would be overwritten by checkout')
    await expectSameState(p)
  })

  it('detaches HEAD at a commit with git\'s advice, and comes back', async () => {
    const p = await gitPair(BRANCHED, natives)
    for (const line of ['git checkout HEAD~1', 'git checkout main', 'git switch --detach dev', 'git switch HEAD~1', 'git switch nope', 'git checkout -b main', 'git switch -c dev']) {
      const [f, n] = await p.both(line)
      expect({ line, ...f }).toEqual({ line, ...n })
    }
    await expectSameState(p)
  })

  it('goes back to the branch before with switch - and checkout -', async () => {
    const p = await gitPair(BRANCHED, natives)
    for (const line of ['git switch -', 'git switch dev', 'git switch -', 'git checkout -', 'git checkout HEAD~1', 'git checkout -', 'git checkout -']) {
      const [f, n] = await p.both(line)
      expect({ line, ...f }).toEqual({ line, ...n })
      await expectSameState(p)
    }
  })

  it('names a new branch in a repository without commits', async () => {
    const p = await gitPair('git init -q -b main', natives)
    for (const line of ['git switch -c dev', 'git checkout -b other', 'git switch main']) {
      const [f, n] = await p.both(line)
      expect({ line, ...f }).toEqual({ line, ...n })
      await p.same('cat .git/HEAD')
    }
  })

  it('restores files from the index or a commit with checkout [<commit>] -- <path>', async () => {
    const p = await gitPair(TWO_COMMITS, natives)
    await p.both("printf 'scribble\\n' > a.txt && rm b.txt")
    for (const line of ['git checkout a.txt', 'git checkout -- b.txt', 'git checkout HEAD~1 -- a.txt', 'git checkout nope.txt', 'git checkout HEAD~1 c.txt']) {
      const [f, n] = await p.both(line)
      expect({ line, ...f }).toEqual({ line, ...n })
      await expectSameState(p)
    }
  })
})
