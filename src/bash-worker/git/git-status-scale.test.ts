// A repository of thousands of files: `git status` after one change reads that one file, not
// every file (the index's stat cache), and `git add -A` / `commit -a` hash only what changed.
import { beforeAll, describe, expect, it, vi } from 'vitest'
import type { ResolvedCommandContext } from 'just-bash/browser'
import { TrackedFs } from '../tracked-fs'
import { GIT_ENV } from '../../../test/support/git-harness'
import { runGit } from './git-command'

const FILES = 2000

// Node's CompressionStream costs ~7 ms an object through web streams, so isomorphic-git is left
// to pako here (it picks once, at its first object) to keep the setup's 2000 objects quick.
// What is asserted is which files are read, not how long it takes.
beforeAll(() => vi.stubGlobal('CompressionStream', undefined))

/** The workspace's file system, counting content reads of work tree files (not .git/, not .gitignore). */
function countingFs(): { fs: TrackedFs; reads: string[] } {
  const files: Record<string, string> = {}
  for (let i = 0; i < FILES; i++) files[`/workspace/src/d${i % 30}/f${i}.txt`] = `file ${i}\n`
  const fs = new TrackedFs(files)
  const reads: string[] = []
  const readFileBuffer = fs.readFileBuffer.bind(fs)
  fs.readFileBuffer = (path: string) => {
    if (path.startsWith('/workspace/') && !path.includes('/.git/') && !path.endsWith('/.gitignore')) reads.push(path)
    return readFileBuffer(path)
  }
  return { fs, reads }
}

function git(fs: TrackedFs, line: string) {
  const shell = { fs, cwd: '/workspace', env: new Map(Object.entries(GIT_ENV)), exportedEnv: GIT_ENV, stdin: '' }
  return runGit(line.split(' '), shell as unknown as ResolvedCommandContext, '/workspace')
}

describe('git in a repository of thousands of files', () => {
  it('reads only the changed file for a status after a commit', async () => {
    const { fs, reads } = countingFs()
    await git(fs, 'init -q')
    await git(fs, 'add -A')
    expect(reads.length).toBe(FILES) // every file hashed once, to be added
    expect((await git(fs, 'commit -q -m all')).exitCode).toBe(0)

    reads.length = 0
    expect((await git(fs, 'status --porcelain')).stdout).toBe('')
    expect(reads).toEqual([])

    await fs.writeFile('/workspace/src/d7/f7.txt', 'changed, and longer\n')
    reads.length = 0
    const started = performance.now()
    expect((await git(fs, 'status --porcelain')).stdout).toBe(' M src/d7/f7.txt\n')
    console.log(`git status after one change in ${FILES} files: ${Math.round(performance.now() - started)} ms`)
    expect(reads).toEqual(['/workspace/src/d7/f7.txt'])

    reads.length = 0
    expect((await git(fs, 'commit -q -a -m one')).exitCode).toBe(0)
    expect(new Set(reads)).toEqual(new Set(['/workspace/src/d7/f7.txt']))
  }, 120_000)
})
