import { afterEach, describe, expect, it } from 'vitest'
import { gitPair, TWO_COMMITS } from '../../../test/support/git-pair'

const natives: Array<{ dispose(): void }> = []
afterEach(() => natives.splice(0).forEach((n) => n.dispose()))

describe('git show against native git', () => {
  it('shows a commit with its header and patch, the root commit, --stat and -s', async () => {
    const p = await gitPair(`${TWO_COMMITS} && git commit -q --allow-empty -m 'empty' -m 'with a body' -m 'and more'`, natives)
    const out = await p.same('git show HEAD~1')
    expect(out.stdout).toMatch(/^commit [0-9a-f]{40}\nAuthor: Ada <ada@example.com>\nDate:   Tue Nov 14 22:13:20 2023 \+0000\n\n    second\n\ndiff --git/)
    await p.same('git show')
    await p.same('git show HEAD~2')
    await p.same('git show --stat HEAD~1')
    await p.same('git show -s HEAD~1')
    await p.same('git show --oneline HEAD~1')
    await p.same('git show --name-status HEAD~1')
    await p.same('git show --color HEAD~1')
  })

  it('prints a file as HEAD:path names it, and says when the path is not there', async () => {
    const p = await gitPair(TWO_COMMITS, natives)
    await p.same('git show HEAD:a.txt')
    await p.same('git show HEAD~1:a.txt')
    const [f, n] = await p.both('git show HEAD:nope.txt')
    expect(f).toMatchObject({ exitCode: 128, stderr: n.stderr })
    const [g, m] = await p.both('git show nope')
    expect(g).toMatchObject({ exitCode: 128, stderr: m.stderr })
  })

  it('shows an annotated tag, then its commit; a light tag as its commit', async () => {
    const p = await gitPair(`${TWO_COMMITS} && git tag -a v1 -m 'release one' HEAD~1 && git tag light`, natives)
    await p.same('git show v1')
    await p.same('git show light --stat')
  })
})
