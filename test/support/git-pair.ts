/**
 * Tests only: one repository built by native git (setup lines), copied into fxterm's session,
 * then each command run on both sides so a test compares what each printed.
 */

import { readFileSync, rmSync } from 'node:fs'
import { expect } from 'vitest'
import { fxGit, nativeGit, type Ran } from './git-harness'
import { copyNativeRepo } from './git-native-copy'

export type Pair = {
  fx: Awaited<ReturnType<typeof fxGit>>
  native: ReturnType<typeof nativeGit>
  /** Runs `line` on both sides: [fxterm's result, native git's result]. */
  both(line: string): Promise<[Ran, Ran]>
  /** Runs `line` natively only (e.g. a `git add` fxterm's side may lack), then copies the result over. */
  sync(line: string): Promise<void>
  /** Runs `line` on both sides and expects the same stdout and exit code; returns fxterm's. */
  same(line: string): Promise<Ran>
}

export async function gitPair(setup: string, disposeList: Array<{ dispose(): void }>): Promise<Pair> {
  const native = nativeGit()
  disposeList.push(native)
  const made = native.run(setup)
  if (made.exitCode !== 0) throw new Error(`setup failed: ${made.stderr}`)
  const fx = await fxGit()
  await copyNativeRepo(native.dir, fx.session)
  // The harness keeps native stderr only on failure; a file next to the repository keeps it always.
  const errFile = `${native.dir}.stderr`
  disposeList.push({ dispose: () => rmSync(errFile, { force: true }) })
  const both = async (line: string): Promise<[Ran, Ran]> => {
    const ran = native.run(`{ ${line}
} 2>'${errFile}'`)
    const n = { ...ran, stderr: readFileSync(errFile, 'utf8') }
    const f = await fx.run(line)
    return [f, n]
  }
  return {
    fx,
    native,
    both,
    async sync(line) {
      const ran = native.run(line)
      if (ran.exitCode !== 0) throw new Error(`sync failed: ${ran.stderr}`)
      await fx.run('rm -rf /workspace/.git /workspace/*')
      await copyNativeRepo(native.dir, fx.session)
    },
    async same(line) {
      const [f, n] = await both(line)
      expect({ line, stdout: f.stdout, exitCode: f.exitCode }).toEqual({ line, stdout: n.stdout, exitCode: n.exitCode })
      return f
    },
  }
}

/** A repository with two commits on main: a.txt (ten lines) and b.txt, then a.txt edited. */
export const TWO_COMMITS = [
  'git init -q -b main',
  "printf 'l1\\nl2\\nl3\\nl4\\nl5\\nl6\\nl7\\nl8\\nl9\\nl10\\n' > a.txt",
  "printf 'bee\\n' > b.txt",
  'git add . && git commit -qm first',
  "sed -i 's/l5/five/' a.txt && printf 'new\\n' > c.txt",
  'git add . && git commit -qm second',
].join(' && ')

/** Expects both sides to agree on HEAD, the index and the work tree's tracked files. */
export async function expectSameState(p: Pair): Promise<void> {
  await p.same('cat .git/HEAD')
  await p.same('git show -s HEAD')
  await p.same('git diff --cached')
  await p.same('git diff')
}
