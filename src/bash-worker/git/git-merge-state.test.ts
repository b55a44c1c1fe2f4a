// A merge left in conflict by native git, copied into fxterm's workspace as it is (.git
// included): status shows it as git does, and commit refuses, then concludes it.
import { afterEach, describe, expect, it } from 'vitest'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fxGit, nativeGit } from '../../../test/support/git-harness'

const natives: Array<{ dispose(): void }> = []
afterEach(() => natives.splice(0).forEach((n) => n.dispose()))

function filesUnder(dir: string, base = ''): Array<{ path: string; data: Uint8Array }> {
  const out: Array<{ path: string; data: Uint8Array }> = []
  for (const name of readdirSync(join(dir, base))) {
    const rel = base ? `${base}/${name}` : name
    if (statSync(join(dir, rel)).isDirectory()) out.push(...filesUnder(dir, rel))
    else out.push({ path: rel, data: new Uint8Array(readFileSync(join(dir, rel))) })
  }
  return out
}

const CONFLICT = [
  'git init -q -b main && echo a > a.txt && echo b > b.txt && git add . && git commit -qm one && git branch side',
  'echo main >> a.txt && echo m >> b.txt && git commit -qam main',
  'git checkout -q side && echo side >> a.txt && echo new > n.txt && git add n.txt && git commit -qam side',
  'git checkout -q main && git merge side',
].join(' && ')

describe('a merge in progress', () => {
  it('is shown and concluded as native git does', async () => {
    const native = nativeGit()
    natives.push(native)
    native.run(CONFLICT)
    const fx = await fxGit()
    expect((await fx.session.writeFiles(filesUnder(native.dir))).skipped).toEqual([])
    const lines = [
      'git status',
      'git status -s',
      'git commit -m x',
      'printf "a\\nmain\\nside\\n" > a.txt && git add a.txt && git status',
      'git status --porcelain',
      'git commit --no-edit',
      'git log --format="%h %p %s"',
      'git status',
      'ls .git | grep MERGE',
    ]
    for (const line of lines) {
      const ours = await fx.run(line)
      const theirs = native.run(line)
      expect({ line, ...ours, stderr: ours.exitCode ? ours.stderr : '' }).toEqual({ line, ...theirs })
    }
  })
})
