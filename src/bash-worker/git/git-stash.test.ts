import { afterEach, describe, expect, it } from 'vitest'
import { expectSameState, gitPair, TWO_COMMITS } from '../../../test/support/git-pair'
import { GIT_SUBCOMMANDS } from './git-subcommands'

const natives: Array<{ dispose(): void }> = []

/**
 * git prints `git status` before apply's and pop's own line. With a status subcommand
 * registered fxterm's output is native's; without one, it is native's last line.
 */
function expectStatusThen(fx: string, native: string): void {
  if ('status' in GIT_SUBCOMMANDS) expect(fx).toBe(native)
  else expect(native.endsWith(fx)).toBe(true)
}
afterEach(() => natives.splice(0).forEach((n) => n.dispose()))

/** A staged new file, a staged edit and an unstaged edit. */
const DIRTY = `${TWO_COMMITS} && printf 'n\\n' > n.txt && printf 'l0\\n' >> a.txt && git add n.txt a.txt && printf 'buzz\\n' >> b.txt`

describe('git stash against native git', () => {
  it('saves index and work tree as git does: same message, same stash id, clean tree after', async () => {
    const p = await gitPair(DIRTY, natives)
    const [f, n] = await p.both('git stash')
    expect(f).toEqual(n)
    expect(f.stdout).toMatch(/^Saved working directory and index state WIP on main: [0-9a-f]{7} second\n$/)
    await expectSameState(p)
    await p.same('ls')
    await p.same('git stash list')
    await p.same('cat .git/refs/stash')
    await p.same('git stash show')
    await p.same('git stash show -p')
    await p.same('git stash')
  })

  it('keeps a list with -m messages, and drops by index as git does', async () => {
    const p = await gitPair(DIRTY, natives)
    for (const line of ["git stash push -m 'first one'", "printf 'again\\n' >> c.txt && git stash -m second", 'git stash list', 'git stash drop stash@{1}', 'git stash list', 'git stash drop', 'git stash list', 'git stash drop', 'git stash pop']) {
      const [f, n] = await p.both(line)
      expect({ line, ...f }).toEqual({ line, ...n })
    }
  })

  it('pops and applies the changes back (new files staged again) and says which entry it dropped', async () => {
    const p = await gitPair(DIRTY, natives)
    await p.both('git stash')
    const [f, n] = await p.both('git stash apply')
    expect(f.exitCode).toBe(n.exitCode)
    await expectSameState(p)
    await p.same('git stash list')
    await p.both('git reset -q --hard')
    const [g, m] = await p.both('git stash pop')
    expect(g.exitCode).toBe(0)
    expectStatusThen(g.stdout, m.stdout)
    expect(g.stdout).toMatch(/Dropped refs\/stash@\{0\} \([0-9a-f]{40}\)\n$/)
    await expectSameState(p)
    await p.same('git stash list')
  })

  it('refuses to pop over local changes and keeps the entry; bad references fail as git', async () => {
    const p = await gitPair(DIRTY, natives)
    await p.both("git stash && printf 'mine\\n' >> b.txt")
    const [f, n] = await p.both('git stash pop')
    expect({ exitCode: f.exitCode, stderr: f.stderr }).toEqual({ exitCode: n.exitCode, stderr: n.stderr })
    expect(f.stdout).toMatch(/The stash entry is kept in case you need it again.\n$/)
    expectStatusThen(f.stdout, n.stdout)
    await p.same('git stash list')
    for (const line of ['git stash drop stash@{4}', 'git stash frob']) {
      const [g, m] = await p.both(line)
      expect({ line, ...g }).toEqual({ line, ...m })
    }
    const flag = await p.fx.run('git stash push --include-untracked')
    expect(flag).toMatchObject({ exitCode: 1, stderr: "git: git stash push --include-untracked is not supported in fxterm's git\n" })
  })
})
