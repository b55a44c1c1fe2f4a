import { InMemoryFs } from 'just-bash/browser'
import { describe, expect, it } from 'vitest'
import { checkRealPath } from './file-tool-rules'
import { isUnder, resolveRealPath } from './real-path'

/** A shell file system with a secret outside the root and links of every kind inside it. */
async function linkedFs(): Promise<InMemoryFs> {
  const fs = new InMemoryFs()
  await fs.mkdir('/workspace/docs', { recursive: true })
  await fs.mkdir('/home/user', { recursive: true })
  await fs.writeFile('/home/user/secret.txt', 'SECRET\n')
  await fs.writeFile('/workspace/docs/notes.md', 'notes\n')
  await fs.symlink('/home/user/secret.txt', '/workspace/secret-link')
  await fs.symlink('/home/user', '/workspace/home-link')
  await fs.symlink('../home/user', '/workspace/relative-home')
  await fs.symlink('docs/notes.md', '/workspace/notes-link')
  await fs.symlink('docs', '/workspace/docs-link')
  await fs.symlink('hop2', '/workspace/hop1')
  await fs.symlink('secret-link', '/workspace/hop2')
  await fs.symlink('loop-b', '/workspace/loop-a')
  await fs.symlink('loop-a', '/workspace/loop-b')
  return fs
}

describe('resolveRealPath', () => {
  it('answers a path without links as it is, also one that does not exist yet', async () => {
    const fs = await linkedFs()
    expect(await resolveRealPath(fs, '/workspace/docs/notes.md')).toEqual({ ok: true, real: '/workspace/docs/notes.md', viaLink: false })
    expect(await resolveRealPath(fs, '/workspace/new/dir/a.txt')).toEqual({ ok: true, real: '/workspace/new/dir/a.txt', viaLink: false })
  })

  it('follows a file link, a folder link, a relative link and a chain to where they end', async () => {
    const fs = await linkedFs()
    expect(await resolveRealPath(fs, '/workspace/secret-link')).toEqual({ ok: true, real: '/home/user/secret.txt', viaLink: true })
    expect(await resolveRealPath(fs, '/workspace/home-link/via-link.txt')).toEqual({ ok: true, real: '/home/user/via-link.txt', viaLink: true })
    expect(await resolveRealPath(fs, '/workspace/relative-home/x')).toEqual({ ok: true, real: '/home/user/x', viaLink: true })
    expect(await resolveRealPath(fs, '/workspace/hop1')).toEqual({ ok: true, real: '/home/user/secret.txt', viaLink: true })
    expect(await resolveRealPath(fs, '/workspace/docs-link/notes.md')).toEqual({ ok: true, real: '/workspace/docs/notes.md', viaLink: true })
  })

  it('calls a chain that never ends a loop', async () => {
    expect(await resolveRealPath(await linkedFs(), '/workspace/loop-a')).toEqual({ ok: false, reason: 'loop' })
  })
})

describe('checkRealPath', () => {
  it('refuses a link that leads outside the root, naming where it leads', async () => {
    const fs = await linkedFs()
    const result = checkRealPath('secret-link', await resolveRealPath(fs, '/workspace/secret-link'), '/workspace')
    expect(result).toEqual({
      ok: false,
      reason: 'Refused: "secret-link" is a symlink that leads outside the workspace (/workspace), to /home/user/secret.txt; only files under it can be used. Nothing was changed.',
    })
  })

  it('refuses a loop and accepts a link inside the root as its target', async () => {
    const fs = await linkedFs()
    expect(checkRealPath('loop-a', await resolveRealPath(fs, '/workspace/loop-a'), '/workspace')).toEqual({
      ok: false,
      reason: 'Refused: "loop-a" is a chain of symlinks that does not end (a loop); nothing was changed.',
    })
    expect(checkRealPath('notes-link', await resolveRealPath(fs, '/workspace/notes-link'), '/workspace')).toEqual({
      ok: true,
      absolute: '/workspace/docs/notes.md',
      relative: 'docs/notes.md',
    })
  })

  it('does not take a sibling folder that shares the root as a prefix for the root', () => {
    expect(checkRealPath('x', { ok: true, real: '/workspace-other/x', viaLink: true }, '/workspace').ok).toBe(false)
    expect(isUnder('/workspace-other', '/workspace')).toBe(false)
    expect(isUnder('/workspace/a', '/workspace')).toBe(true)
  })
})
