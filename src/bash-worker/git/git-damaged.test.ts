import { describe, expect, it } from 'vitest'
import { fxGit } from '../../../test/support/git-harness'
import { describeGitError, lfsWarning } from './repo-errors'

describe('a damaged or unsupported repository', () => {
  it('names a damaged object in one line, exit 128, and changes nothing', async () => {
    const fx = await fxGit()
    await fx.run('git init -q && echo a > a && git add a && git commit -qm one')
    const head = (await fx.run('git rev-parse HEAD')).stdout.trim()
    await fx.run(`echo garbage > .git/objects/${head.slice(0, 2)}/${head.slice(2)}`)
    const before = (await fx.run('ls -R .git | wc -l; cat a')).stdout
    const log = await fx.run('git log --oneline')
    expect(log.exitCode).toBe(128)
    expect(log.stderr).toMatch(/^fatal: the repository is damaged: an object in \.git cannot be read \(.+\)\n$/)
    expect((await fx.run('ls -R .git | wc -l; cat a')).stdout).toBe(before)
  })

  it('says which object is missing and why it may be, and when a pack cannot be read', () => {
    const missing = Object.assign(new Error(`Could not find ${'a'.repeat(40)}.`), { code: 'NotFoundError' })
    expect(describeGitError(missing)).toBe(`Could not find ${'a'.repeat(40)}: the repository lacks that object (a shallow clone's boundary, or a damaged repository)`)
    const pack = Object.assign(new Error('Unable to read version 4 packfile'), { code: 'InternalError' })
    expect(describeGitError(pack)).toBe('a pack file in .git cannot be read: an unsupported pack version or a damaged file (Unable to read version 4 packfile)')
  })

  it('warns on a clone that keeps files in Git LFS', () => {
    expect(lfsWarning('*.psd filter=lfs diff=lfs merge=lfs -text\n')).toMatch(/^warning: this repository keeps some files in Git LFS/)
    expect(lfsWarning('*.txt text\n')).toBe('')
    expect(lfsWarning(null)).toBe('')
  })
})
