import { afterEach, describe, expect, it } from 'vitest'
import { gitPair, TWO_COMMITS } from '../../../test/support/git-pair'

const natives: Array<{ dispose(): void }> = []
afterEach(() => natives.splice(0).forEach((n) => n.dispose()))

describe('git diff against native git', () => {
  it('prints the work tree against the index, with a path, and nothing when clean', async () => {
    const p = await gitPair(TWO_COMMITS, natives)
    await p.same('git diff')
    await p.both("sed -i 's/l1/one/; s/l10/ten/' a.txt && printf 'bee\\nbuzz' > b.txt && rm c.txt")
    const out = await p.same('git diff')
    expect(out.stdout).toContain('deleted file mode 100644')
    expect(out.stdout).toContain('\\ No newline at end of file')
    await p.same('git diff -- b.txt')
    await p.same('git diff a.txt')
    await p.same('git diff --stat')
    await p.same('git diff --name-only')
    await p.same('git diff --name-status')
    await p.same('git diff --exit-code --quiet')
  })

  it('prints the index against HEAD with --staged/--cached, a new file and a binary one', async () => {
    const p = await gitPair(TWO_COMMITS, natives)
    await p.sync("printf 'fresh\\n' > d.txt && printf 'a\\0b' > bin.dat && : > empty.txt && printf 'l0\\n' >> a.txt && git add d.txt bin.dat empty.txt a.txt")
    const out = await p.same('git diff --staged')
    expect(out.stdout).toContain('Binary files /dev/null and b/bin.dat differ')
    await p.same('git diff --cached --stat')
    await p.same('git diff HEAD')
  })

  it('compares two commits, a..b, HEAD~1 and a short id, and hunks carry the function line', async () => {
    const p = await gitPair(
      `${TWO_COMMITS} && printf 'function top() {\\n  a\\n  b\\n  c\\n  d\\n  e\\n}\\n' > f.js && git add f.js && git commit -qm third && sed -i 's/  e/  E/' f.js && git commit -qam fourth`,
      natives,
    )
    await p.same('git diff HEAD~3 HEAD')
    await p.same('git diff HEAD~1..HEAD')
    await p.same('git diff HEAD~3 HEAD -- a.txt')
    await p.same('git diff HEAD~3 -- a.txt b.txt')
    await p.same('git diff HEAD^ HEAD --stat')
    const first = p.native.run('git rev-parse --short HEAD~3').stdout.trim()
    await p.same(`git diff ${first} HEAD --name-status`)
  })

  it('colours a patch as git does when asked, and on the terminal (FXTERM_TTY) by itself', async () => {
    const p = await gitPair(TWO_COMMITS, natives)
    const native = await p.same('git diff --color HEAD~1 HEAD')
    expect(native.stdout).toContain('\x1b[31m-l5\x1b[m')
    expect((await p.fx.run('FXTERM_TTY=1 git diff HEAD~1 HEAD')).stdout).toBe(native.stdout)
    expect((await p.fx.run('FXTERM_TTY=1 git diff --no-color HEAD~1 HEAD')).stdout).toBe((await p.fx.run('git diff HEAD~1 HEAD')).stdout)
    await p.same('git diff --color --stat HEAD~1 HEAD')
  })

  it('names a moved file as a rename, as git does', async () => {
    const p = await gitPair(`${TWO_COMMITS} && mkdir -p src/lib && git mv b.txt src/lib/bee.txt && git mv c.txt src/c.txt && git commit -qm moved`, natives)
    for (const line of ['git diff HEAD~1 HEAD', 'git diff --stat HEAD~1 HEAD', 'git diff --name-status HEAD~1', 'git diff --numstat HEAD~1', 'git show --stat', 'git show']) await p.same(line)
  })

  it('takes -U<n>, --numstat and --shortstat, and places inserted code blocks as git does', async () => {
    const p = await gitPair(
      `${TWO_COMMITS} && printf 'if (a) {\\n  x()\\n}\\nif (b) {\\n  y()\\n}\\n' > f.js && printf 'def f():\\n    return 1\\n\\ndef h():\\n    return 3\\n' > p.py && git add . && git commit -qm code`,
      natives,
    )
    await p.both("printf 'if (a) {\\n  x()\\n}\\nif (c) {\\n  z()\\n}\\nif (b) {\\n  y()\\n}\\n' > f.js && printf 'def f():\\n    return 1\\n\\ndef g():\\n    return 2\\n\\ndef h():\\n    return 3\\n' > p.py")
    for (const line of ['git diff', 'git diff -U1', 'git diff --unified=0', 'git diff --numstat HEAD~2', 'git diff --shortstat HEAD~2', 'git show -U1 HEAD~1']) await p.same(line)
  })

  it('takes paths relative to the directory it runs in, and prints them from the top', async () => {
    const p = await gitPair(`${TWO_COMMITS} && mkdir sub && printf 's\\n' > sub/s.txt && git add sub && git commit -qm sub`, natives)
    await p.both("printf 't\\n' >> sub/s.txt && printf 'x\\n' >> a.txt")
    for (const line of ['cd sub && git diff', 'cd sub && git diff .', 'cd sub && git diff -- s.txt ../a.txt', 'cd sub && git diff --stat HEAD~2 -- .']) await p.same(line)
  })

  it('refuses an unknown revision and an unsupported option as git would', async () => {
    const p = await gitPair(TWO_COMMITS, natives)
    const [f, n] = await p.both('git diff nope')
    expect(f).toMatchObject({ exitCode: 128, stderr: n.stderr })
    const flag = await p.fx.run('git diff --word-diff')
    expect(flag).toMatchObject({ exitCode: 1, stderr: "git: git diff --word-diff is not supported in fxterm's git\n" })
  })
})
