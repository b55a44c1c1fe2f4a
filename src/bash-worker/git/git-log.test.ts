import { afterEach, describe, expect, it } from 'vitest'
import { relativeDate } from './repo-identity'
import { compareGit, disposeNatives } from '../../../test/support/git-compare'

afterEach(disposeNatives)

const expectSame = async (lines: string[]) => {
  const { fx, native } = await compareGit(lines)
  expect(fx).toEqual(native)
}

const HISTORY = [
  'git init -q',
  'echo a > a.txt && git add a.txt && git commit -qm "add a"',
  'mkdir src && printf "1\\n2\\n3\\n" > src/n.txt && git add . && git commit -qm "add n" -m "with a body\nof two lines"',
  'printf "1\\nTWO\\n3\\n4\\n" > src/n.txt && echo b >> a.txt && git commit -qam "change both"',
  'git rm -q a.txt && git commit -qm "drop a"',
]

describe('git log', () => {
  it('prints the default format, --oneline and a count', async () => {
    await expectSame([...HISTORY, 'git log', 'git log --oneline', 'git log -n 2 --oneline', 'git log -1', 'git log --max-count=3 --oneline', 'git log HEAD~2 --oneline'])
  })

  it('prints --stat under each commit', async () => {
    await expectSame([...HISTORY, 'git log --stat', 'git log --oneline --stat -2'])
  })

  it('fills --format and --pretty placeholders', async () => {
    await expectSame([
      ...HISTORY,
      'git log --format="%H %h %s <%an> <%ae> %ad"',
      'git log --pretty="format:%h|%b|"',
      'git log --pretty=tformat:%s%n%cn -2',
      'git log --pretty=oneline',
      'git log --format=%P -1',
    ])
  })

  it('fills date and ref placeholders: %ai %aI %as %ci %cI %cs %d %D', async () => {
    await expectSame([
      ...HISTORY,
      'git tag v1 HEAD~1 && git branch side HEAD~2',
      'export GIT_AUTHOR_DATE="1700003600 +0530"; git commit -q --allow-empty -m zoned',
      'git log --format="%ai|%aI|%as|%ci|%cI|%cs|%d|%D|%x"',
    ])
  })

  it('gives relative dates (%ar) with git\'s rounding', () => {
    const now = 1_800_000_000
    expect([45, 5400, 3 * 3600, 40 * 3600, 10 * 86400, 30 * 86400, 200 * 86400, 400 * 86400, 3 * 365 * 86400, 7 * 365 * 86400].map((ago) => relativeDate(now - ago, now))).toEqual([
      '45 seconds ago', '2 hours ago', '3 hours ago', '2 days ago', '10 days ago', '4 weeks ago', '7 months ago', '1 year, 1 month ago',
      '3 years ago', '7 years ago',
    ])
  })

  it('keeps the commits that changed a path', async () => {
    await expectSame([...HISTORY, 'git log --oneline -- a.txt', 'git log --oneline src', 'cd src && git log --oneline n.txt', 'git log --oneline nope'])
  })

  it('filters by --author and --grep, turns around with --reverse, lists files with --name-only/--name-status', async () => {
    await expectSame([
      ...HISTORY,
      'git mv src/n.txt src/m.txt && git commit -qm "rename n" -m "fixes the name"',
      'git log --reverse --oneline',
      'git log --reverse --oneline -2',
      'git log --author=Ada --oneline',
      'git log --author="^Bob" --oneline',
      'git log --grep=add --oneline',
      'git log --grep="^fixes" --format=%s',
      'git log --name-only --oneline',
      'git log --name-status -2',
    ])
  })

  it('shows a range A..B: what B has that A has not', async () => {
    await expectSame([
      ...HISTORY,
      'git branch old HEAD~2',
      'git log --oneline old..main',
      'git log --oneline old..',
      'git log --oneline main..old',
      'git log --oneline HEAD~1..HEAD --stat',
      'git log --oneline nope..HEAD',
    ])
  })

  it('says when there are no commits, and refuses an option it does not know', async () => {
    const { fx, native } = await compareGit(['git init -q', 'git log'])
    expect(fx).toEqual(native)
    const { fx: graph } = await compareGit(['git init -q', 'git log --graph'])
    expect(graph[1]).toEqual({ line: 'git log --graph', stdout: '', exitCode: 1, stderr: "git: git log --graph is not supported in fxterm's git\n" })
  })
})
