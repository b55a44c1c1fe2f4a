import { describe, expect, it } from 'vitest'
import { createFolderMirror, FOLDER_GIT_MAX_FILES, readFolder } from './folder-files'
import { MemoryDirectory } from '../../../test/support/memory-directory'

async function put(dir: MemoryDirectory, path: string, text: string): Promise<void> {
  const parts = path.split('/')
  let parent = dir
  for (const part of parts.slice(0, -1)) parent = await parent.getDirectoryHandle(part, { create: true })
  const writable = await (await parent.getFileHandle(parts.at(-1)!, { create: true })).createWritable()
  await writable.write(text)
  await writable.close()
}

const asHandle = (dir: MemoryDirectory) => dir as unknown as FileSystemDirectoryHandle

describe('a folder opened with /open', () => {
  it('brings its top-level .git in whole, past .gitignore, and says so', async () => {
    const dir = new MemoryDirectory('proj')
    await put(dir, 'app.py', 'print(1)\n')
    await put(dir, '.gitignore', '*.pack\nnode_modules/\n')
    await put(dir, '.git/HEAD', 'ref: refs/heads/main\n')
    await put(dir, '.git/objects/pack/p.pack', 'PACK')
    await put(dir, 'node_modules/x.js', '')
    const read = await readFolder(asHandle(dir))
    expect(read.git).toBe('read')
    expect(read.files.map(([path]) => path).sort()).toEqual(['.git/HEAD', '.git/objects/pack/p.pack', '.gitignore', 'app.py'])
    const { line } = await createFolderMirror('/workspace', () => {}).open(asHandle(dir))
    expect(line).toBe('Opened the folder proj: 2 files read, its git repository with them, 1 skipped (node_modules, .gitignore). The agent\'s changes are written to it.')
  })

  it('leaves a .git over its cap on disk, whole, and names its size', async () => {
    const dir = new MemoryDirectory('big')
    await put(dir, 'a.txt', 'a\n')
    for (let i = 0; i <= FOLDER_GIT_MAX_FILES; i++) await put(dir, `.git/objects/${i % 256}/${i}`, '')
    const read = await readFolder(asHandle(dir))
    expect(read.git).toEqual({ files: FOLDER_GIT_MAX_FILES + 1, bytes: 0 })
    expect(read.files.map(([path]) => path)).toEqual(['a.txt'])
    const { line } = await createFolderMirror('/workspace', () => {}).open(asHandle(dir))
    expect(line).toContain('its .git left on disk (20,001 files, 0 MB: over 20,000 files or 200 MB)')
  })
})
