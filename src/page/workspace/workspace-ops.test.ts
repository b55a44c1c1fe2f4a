import { afterEach, describe, expect, it } from 'vitest'
import type { FileOpAnswer, UndoAnswer, DiffAnswer } from '../../shared/protocol/workspace-ops'
import { disposeOpened, execInput as input, openWorkspace as open } from '../../../test/support/workspaces'

afterEach(() => disposeOpened())

const files = { 'src/greet.js': 'export function greet(name) {\n  return "Hello " + name\n}\n', 'README.md': '# Demo\n\nThere are no tests yet.\n' }

function fileOp(name: string, args: unknown, cwd = '/workspace', apply = true) {
  return { op: 'file' as const, name, arguments: JSON.stringify(args), cwd, apply }
}

describe('the file tools of a bash workspace', () => {
  it('edits a file the shell then sees, and answers with the diff for the row', async () => {
    const { workspace } = open({ files })
    const answer = (await workspace.workspaceOp(fileOp('edit_file', { path: 'greet.js', old_string: '"Hello "', new_string: '"Hi "' }, '/workspace/src'))) as FileOpAnswer
    expect(answer).toEqual({
      ok: true,
      result: 'Edited src/greet.js: replaced 1 occurrence (+1 −1 lines).',
      verb: 'Edit',
      path: 'src/greet.js',
      added: 1,
      removed: 1,
      diff: '--- a/src/greet.js\n+++ b/src/greet.js\n@@ -1,3 +1,3 @@\n export function greet(name) {\n-  return "Hello " + name\n+  return "Hi " + name\n }',
    })
    expect((await workspace.exec(input('cat src/greet.js'))).stdout).toBe('export function greet(name) {\n  return "Hi " + name\n}\n')
  })

  it('writes a new file with its parents and reads it back numbered', async () => {
    const { workspace } = open({ files })
    const written = (await workspace.workspaceOp(fileOp('write_file', { path: 'test/greet.test.js', content: 'a\nb\n' }))) as FileOpAnswer
    expect([written.verb, written.added, written.removed, written.result]).toEqual(['Create', 2, 0, 'Created test/greet.test.js (+2 −0 lines).'])
    const read = (await workspace.workspaceOp(fileOp('read_file', { path: 'test/greet.test.js' }))) as FileOpAnswer
    expect(read).toEqual({ ok: true, verb: 'Read', path: 'test/greet.test.js', result: '     1\ta\n     2\tb' })
  })

  it('changes nothing when an edit is refused, a path escapes the root or the file is over 10 MB', async () => {
    const { workspace } = open({ files: { ...files, 'big.txt': 'x'.repeat(10 * 1024 * 1024 + 1) } })
    const answers = [
      await workspace.workspaceOp(fileOp('edit_file', { path: 'README.md', old_string: 'e', new_string: 'E' })),
      await workspace.workspaceOp(fileOp('write_file', { path: '../../x', content: 'x' })),
      await workspace.workspaceOp(fileOp('write_file', { path: '/etc/passwd', content: 'x' })),
      await workspace.workspaceOp(fileOp('write_file', { path: 'a\0b', content: 'x' })),
      await workspace.workspaceOp(fileOp('edit_file', { path: 'big.txt', old_string: 'x', new_string: 'y', replace_all: true })),
    ].map((a) => (a as FileOpAnswer).result)
    expect(answers).toEqual([
      expect.stringMatching(/^edit_file: "old_string" matches \d+ times in README.md; nothing was changed/),
      'Refused: "../../x" is outside the workspace (/workspace); only files under it can be used. Nothing was changed.',
      'Refused: "/etc/passwd" is outside the workspace (/workspace); only files under it can be used. Nothing was changed.',
      'Refused: the path "a\\0b" contains a NUL byte; nothing was changed.',
      'edit_file: big.txt is 10.0 MB; edit_file opens files up to 10 MB. Nothing was changed.',
    ])
    expect((await workspace.exec(input('cat README.md; ls /x /etc/passwd 2>&1 | wc -l'))).stdout).toBe(`${files['README.md']}2\n`)
    expect(((await workspace.workspaceOp({ op: 'diff', scope: 'all' })) as DiffAnswer).files).toBe(0)
  })

  it('shows every change since the start in /diff, commands included, and only the last turn with /diff last', async () => {
    const { workspace } = open({ files })
    await workspace.workspaceOp({ op: 'turn' })
    await workspace.workspaceOp(fileOp('write_file', { path: 'README.md', content: '# Demo\n\nTests: npm test\n' }))
    await workspace.workspaceOp({ op: 'turn' })
    await workspace.exec(input('printf "\\x00\\x01" > blob.bin && rm src/greet.js'))
    const all = (await workspace.workspaceOp({ op: 'diff', scope: 'all' })) as DiffAnswer
    expect(all).toEqual({
      scope: 'all',
      files: 3,
      added: 1,
      removed: 4,
      text: [
        '--- a/README.md', '+++ b/README.md', '@@ -1,3 +1,3 @@', ' # Demo', ' ', '-There are no tests yet.', '+Tests: npm test',
        '--- /dev/null', '+++ b/blob.bin', 'binary, 2 bytes',
        '--- a/src/greet.js', '+++ /dev/null', '@@ -1,3 +0,0 @@', '-export function greet(name) {', '-  return "Hello " + name', '-}',
      ].join('\n'),
    })
    const last = (await workspace.workspaceOp({ op: 'diff', scope: 'last' })) as DiffAnswer
    expect(last.files).toBe(2)
  })

  it('undoes the last turn, then the one before, saying which files it restored', async () => {
    const { workspace } = open({ files })
    await workspace.workspaceOp({ op: 'turn' })
    await workspace.workspaceOp(fileOp('write_file', { path: 'README.md', content: 'changed\n' }))
    await workspace.workspaceOp({ op: 'turn' })
    await workspace.exec(input('echo new > notes.txt && echo more >> README.md'))
    expect((await workspace.workspaceOp({ op: 'undo' })) as UndoAnswer).toEqual({
      restored: ['README.md', 'notes.txt'],
      message: 'Restored 2 files to how they were before the last turn: README.md, notes.txt',
    })
    expect((await workspace.exec(input('cat README.md; ls notes.txt 2>&1'))).stdout).toBe('changed\nls: notes.txt: No such file or directory\n')
    expect(((await workspace.workspaceOp({ op: 'undo' })) as UndoAnswer).restored).toEqual(['README.md'])
    expect((await workspace.exec(input('cat README.md'))).stdout).toBe(files['README.md'])
    expect(((await workspace.workspaceOp({ op: 'undo' })) as UndoAnswer).message).toBe('Nothing to undo: no turn has changed any files.')
  })
})
