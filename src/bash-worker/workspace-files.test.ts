import { unzipSync } from 'fflate'
import { afterEach, describe, expect, it } from 'vitest'
import { createBashWorkspaceWithSeams } from '../page/workspace/create-bash-workspace'
import { disposeOpened, execInput as input, openWorkspace as open } from '../../test/support/workspaces'
import { normalizeUploadPath, planUploads, UPLOAD_LIMIT_BYTES } from '../page/workspace/upload-plan'

afterEach(disposeOpened)

const text = (value: string) => new TextEncoder().encode(value)

describe('files in and out of the workspace', () => {
  it('writes uploads, lists them and zips the whole root, round trip', async () => {
    const { workspace, created } = open({ files: { 'README.md': '# hi\n' } })
    expect(
      await workspace.writeFiles([
        { path: 'data/a.bin', data: new Uint8Array([0, 255, 1]) },
        { path: './notes/../top.txt', data: text('top') },
        { path: '../escape.txt', data: text('no') },
        { path: '/etc/passwd', data: text('no') },
      ]),
    ).toEqual({
      written: ['data/a.bin', 'top.txt'],
      skipped: [
        { path: '../escape.txt', reason: "the path leaves the workspace root through '..'" },
        { path: '/etc/passwd', reason: 'the path must be relative to the workspace root' },
      ],
    })
    expect(created.length).toBe(1) // started for the upload
    expect(await workspace.exec(input('base64 data/a.bin; mkdir -p empty/dir; ln -s top.txt link.txt'))).toEqual({
      stdout: 'AP8B\n', // the bytes 00 ff 01
      stderr: '',
      exitCode: 0,
      cwd: '/workspace',
    })
    expect(await workspace.listFiles()).toEqual(['README.md', 'data/a.bin', 'link.txt', 'top.txt'])
    const entries = unzipSync(await workspace.exportZip())
    expect(Object.fromEntries(Object.entries(entries).map(([name, data]) => [name, [...data]]))).toEqual({
      'README.md': [...text('# hi\n')],
      'data/a.bin': [0, 255, 1],
      'empty/dir/': [],
      'link.txt': [...text('top')],
      'top.txt': [...text('top')],
    })
  })

  it('skips a file the file system refuses and still writes the rest', async () => {
    const { workspace } = open({ files: { 'README.md': '# hi\n', 'src/main.ts': '' } })
    const result = await workspace.writeFiles([
      { path: 'src', data: text('x') },
      { path: 'ok.txt', data: text('ok') },
    ])
    expect(result).toEqual({
      written: ['ok.txt'],
      skipped: [{ path: 'src', reason: 'a directory of that name exists' }],
    })
    expect(await workspace.readFile({ path: 'ok.txt' })).toBe('ok')
  })

  it('accepts up to 50 MB per call and skips the files beyond it', async () => {
    const { workspace } = open()
    const mb = 1024 * 1024
    const result = await workspace.writeFiles([
      { path: 'a', data: new Uint8Array(49 * mb) },
      { path: 'b', data: new Uint8Array(2 * mb) },
      { path: 'c', data: new Uint8Array(mb) },
    ])
    expect(result).toEqual({ written: ['a', 'c'], skipped: [{ path: 'b', reason: 'over the 50 MB upload limit' }] })
    expect(await workspace.exec(input('wc -c a c'))).toEqual({
      stdout: '51380224 a\n 1048576 c\n52428800 total\n',
      stderr: '',
      exitCode: 0,
      cwd: '/workspace',
    })
  })

  it('reports every upload as skipped when the shell cannot start', async () => {
    const workspace = createBashWorkspaceWithSeams({
      worker: () => {
        throw new Error('blocked by CSP')
      },
    })
    expect(await workspace.writeFiles([{ path: 'a.txt', data: text('a') }])).toEqual({
      written: [],
      skipped: [{ path: 'a.txt', reason: 'could not start the shell: blocked by CSP' }],
    })
    await expect(workspace.exportZip()).rejects.toThrow('could not start the shell: blocked by CSP')
  })
})

describe('upload paths', () => {
  it('normalizes relative paths and refuses the ones that would leave the root', () => {
    expect(['a/./b', 'a//b/', 'a/../b', '..', 'a/../../b', '/a', '.', 'a\0b'].map(normalizeUploadPath)).toEqual([
      { ok: true, path: 'a/b' },
      { ok: true, path: 'a/b' },
      { ok: true, path: 'b' },
      { ok: false, reason: "the path leaves the workspace root through '..'" },
      { ok: false, reason: "the path leaves the workspace root through '..'" },
      { ok: false, reason: 'the path must be relative to the workspace root' },
      { ok: false, reason: 'the path names no file' },
      { ok: false, reason: 'the path contains a NUL byte' },
    ])
  })

  it('counts the limit over all accepted files and says which were left out', () => {
    const half = new Uint8Array(UPLOAD_LIMIT_BYTES / 2)
    const plan = planUploads([
      { path: 'a', data: half },
      { path: 'b', data: half },
      { path: 'c', data: new Uint8Array(1) },
    ])
    expect({ accepted: plan.accepted.map((file) => file.path), skipped: plan.skipped }).toEqual({
      accepted: ['a', 'b'],
      skipped: [{ path: 'c', reason: 'over the 50 MB upload limit' }],
    })
  })
})
