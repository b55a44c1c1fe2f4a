import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { expectSameState, gitPair, TWO_COMMITS } from '../../../test/support/git-pair'

const natives: Array<{ dispose(): void }> = []
afterEach(() => natives.splice(0).forEach((n) => n.dispose()))

/** feature edits line 2 and adds n.txt; main (after) edits line 9. */
const FORKED = `${TWO_COMMITS} && git switch -q -c feature && sed -i 's/l2/two/' a.txt && printf 'n\\n' > n.txt && git add . && git commit -qm feature-work && git switch -q main`
const DIVERGED = `${FORKED} && sed -i 's/l9/nine/' a.txt && git commit -qam main-work`
const CONFLICTING = `${FORKED} && sed -i 's/l2/deux/' a.txt && git commit -qam main-work`

describe('git merge against native git', () => {
  it('fast-forwards with git\'s Updating/Fast-forward lines and stat, then is up to date', async () => {
    const p = await gitPair(FORKED, natives)
    for (const line of ['git merge feature', 'git merge feature']) {
      const [f, n] = await p.both(line)
      expect({ line, ...f }).toEqual({ line, ...n })
    }
    await expectSameState(p)
    await p.same('cat n.txt')
  })

  it('makes the same merge commit as git for a clean three-way merge, and with --no-ff -m', async () => {
    for (const line of ['git merge feature', 'git merge --no-edit feature', "git merge -m 'join them' feature"]) {
      const p = await gitPair(DIVERGED, natives)
      const [f, n] = await p.both(line)
      expect({ line, ...f }).toEqual({ line, ...n })
      await expectSameState(p)
      await p.same('cat a.txt')
    }
    const q = await gitPair(FORKED, natives)
    const [f, n] = await q.both('git merge --no-ff feature')
    expect(f).toEqual(n)
    expect(f.stdout).toContain("Merge made by the 'ort' strategy.")
    await expectSameState(q)
    await q.same('git show')
    await q.same('git show --stat HEAD^2')
  })

  it('leaves an index native git reads as its own conflict, and can commit once resolved', async () => {
    const p = await gitPair(CONFLICTING, natives)
    await p.both('git merge feature')
    const before = p.native.run('git ls-files -s')
    const encoded = await p.fx.run('base64 -w0 .git/index')
    writeFileSync(join(p.native.dir, '.git/index'), Buffer.from(encoded.stdout, 'base64'))
    expect(p.native.run('git ls-files -s')).toEqual(before)
    expect(p.native.run("printf 'l1\\nboth\\n' > a.txt && git add a.txt && git commit -q --no-edit && git show -s --format=%s%n%P HEAD").exitCode).toBe(0)
  })

  it('forgets the merge on reset --hard, and can then merge again', async () => {
    const p = await gitPair(CONFLICTING, natives)
    for (const line of ['git merge feature', 'git reset --hard', 'ls', 'git merge feature', 'git reset', 'cat .git/MERGE_HEAD', 'git diff']) {
      const [f, n] = await p.both(line)
      expect({ line, ...f }).toEqual({ line, ...n })
    }
  })

  it('refuses to overwrite an untracked file the merge would bring, fast-forward or not', async () => {
    for (const setup of [FORKED, DIVERGED]) {
      const p = await gitPair(setup, natives)
      await p.both("printf 'mine\\n' > n.txt")
      const [f, n] = await p.both('git merge feature')
      expect(f).toEqual(n)
      expect(f.stderr).toContain('untracked working tree files would be overwritten by merge')
      await p.same('cat n.txt')
      await expectSameState(p)
    }
  })

  it('leaves conflict markers, MERGE_HEAD and git\'s CONFLICT lines with exit 1; --abort undoes it', async () => {
    const p = await gitPair(CONFLICTING, natives)
    const [f, n] = await p.both('git merge feature')
    expect(f).toEqual(n)
    expect(f.exitCode).toBe(1)
    expect(f.stdout).toContain('CONFLICT (content): Merge conflict in a.txt')
    await p.same('cat a.txt')
    await p.same('cat n.txt')
    await p.same('cat .git/MERGE_HEAD .git/MERGE_MSG')
    const [g, m] = await p.both('git merge feature')
    expect(g).toEqual(m)
    // Mid-merge: the index has the other side's new file and the conflict; stash, switch and checkout refuse.
    await p.same('git diff --cached')
    for (const line of ['git stash', 'git switch feature', 'git checkout feature', 'git reset --soft']) {
      const [h, o] = await p.both(line)
      expect({ line, ...h }).toEqual({ line, ...o })
    }
    for (const line of ['git merge --abort', 'git merge --abort']) {
      const [h, o] = await p.both(line)
      expect({ line, ...h }).toEqual({ line, ...o })
    }
    await expectSameState(p)
    await p.same('ls')
  })

  it('refuses to merge over local changes, an unknown name, and --ff-only when it cannot', async () => {
    const p = await gitPair(DIVERGED, natives)
    await p.both("printf 'local\\n' >> a.txt")
    for (const line of ['git merge feature', 'git merge nope', 'git merge --ff-only feature', 'git merge --squash feature']) {
      const [f, n] = await p.both(line)
      if (line.includes('--squash')) expect(f).toMatchObject({ exitCode: 1, stderr: "git: git merge --squash is not supported in fxterm's git\n" })
      else expect({ line, ...f }).toEqual({ line, ...n })
    }
    await expectSameState(p)
  })
})
