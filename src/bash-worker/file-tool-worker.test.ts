import { InMemoryFs } from 'just-bash/browser'
import { describe, expect, it } from 'vitest'
import { runFileTool } from './file-tool-worker'

const root = '/workspace'

async function linkedFs(): Promise<InMemoryFs> {
  const fs = new InMemoryFs()
  await fs.mkdir('/workspace/docs', { recursive: true })
  await fs.mkdir('/home/user', { recursive: true })
  await fs.writeFile('/home/user/secret.txt', 'SECRET\n')
  await fs.writeFile('/workspace/docs/notes.md', 'old line\n')
  await fs.symlink('/home/user/secret.txt', '/workspace/secret-link')
  await fs.symlink('/home/user', '/workspace/home-link')
  await fs.symlink('docs/notes.md', '/workspace/notes-link')
  await fs.symlink('docs', '/workspace/docs-link')
  return fs
}

const call = (fs: InMemoryFs, name: string, args: Record<string, unknown>) =>
  runFileTool(fs, root, { name, arguments: JSON.stringify(args), cwd: root, apply: true })

describe('file tools and symlinks', () => {
  it('refuses to read, edit or write through a link to a file outside the root, changing nothing', async () => {
    const fs = await linkedFs()
    const refusal = {
      ok: false,
      result: 'Refused: "secret-link" is a symlink that leads outside the workspace (/workspace), to /home/user/secret.txt; only files under it can be used. Nothing was changed.',
    }
    expect(await call(fs, 'read_file', { path: 'secret-link' })).toEqual(refusal)
    expect(await call(fs, 'edit_file', { path: 'secret-link', old_string: 'SECRET', new_string: 'x' })).toEqual(refusal)
    expect(await call(fs, 'write_file', { path: 'secret-link', content: 'x' })).toEqual(refusal)
    expect(await fs.readFile('/home/user/secret.txt')).toBe('SECRET\n')
    expect((await fs.lstat('/workspace/secret-link')).isSymbolicLink).toBe(true)
  })

  it('refuses write_file into a linked folder outside the root instead of reporting a file that exists nowhere', async () => {
    const fs = await linkedFs()
    expect(await call(fs, 'write_file', { path: 'home-link/via-link.txt', content: 'x' })).toEqual({
      ok: false,
      result: 'Refused: "home-link/via-link.txt" is a symlink that leads outside the workspace (/workspace), to /home/user/via-link.txt; only files under it can be used. Nothing was changed.',
    })
    expect(fs.getAllPaths().filter((path) => path.includes('via-link'))).toEqual([])
  })

  it('edits through a link inside the root: the target changes and the link stays a link', async () => {
    const fs = await linkedFs()
    const answer = await call(fs, 'edit_file', { path: 'notes-link', old_string: 'old', new_string: 'new' })
    expect(answer).toMatchObject({ ok: true, verb: 'Edit', path: 'notes-link', result: 'Edited notes-link (a symlink to docs/notes.md): replaced 1 occurrence (+1 −1 lines).' })
    expect(await fs.readFile('/workspace/docs/notes.md')).toBe('new line\n')
    expect(await fs.readlink('/workspace/notes-link')).toBe('docs/notes.md')
  })

  it('creates a file through a linked folder inside the root, where the shell then finds it', async () => {
    const fs = await linkedFs()
    const answer = await call(fs, 'write_file', { path: 'docs-link/new.txt', content: 'hello\n' })
    expect(answer).toMatchObject({ ok: true, verb: 'Create', result: 'Created docs-link/new.txt (a symlink to docs/new.txt) (+1 −0 lines).' })
    expect(await fs.readFile('/workspace/docs/new.txt')).toBe('hello\n')
    expect(await fs.readFile('/workspace/docs-link/new.txt')).toBe('hello\n')
    expect((await fs.lstat('/workspace/docs-link')).isSymbolicLink).toBe(true)
  })

  it('reports a write whose bytes did not land as a failure, not as written', async () => {
    const fs = await linkedFs()
    // A file system that accepts the write and keeps nothing, as the symlinked-folder write did.
    const lossy = Object.assign(Object.create(fs) as InMemoryFs, { writeFile: async () => undefined })
    expect(await runFileTool(lossy, root, { name: 'write_file', arguments: JSON.stringify({ path: 'lost.txt', content: 'x' }), cwd: root, apply: true })).toEqual({
      ok: false,
      result: 'write_file failed: lost.txt does not hold what was written after the write; the change did not take effect.',
    })
  })
})
