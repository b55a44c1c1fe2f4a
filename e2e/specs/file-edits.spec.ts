// The model's file tools on the page, with the mock model: each write or edit shows a row with its
// path, +N −M and diff; /diff shows every change (a long one in the full-screen view); /undo puts
// the files back and the model hears of it; ask mode shows the diff before the change; a path
// outside the workspace is refused with nothing written.
import { test, expect } from '../support/fixtures.ts'
import { openWithMock } from '../support/app.ts'
import { finish, roleChunk, textReply, toolCallChunks, usage, runCommand, type Chunk } from '../support/chunks.ts'
import { readRows } from '../support/footer.ts'
import { lastUserText, toolResultText } from '../support/tool-messages.ts'
import { readWorkspaceFile } from '../support/workspace.ts'
import { findLine, pressKey, readScreen, runSlashCommand, submitPrompt, typeInTerminal, waitForScreen } from '../support/screen.ts'
import { waitForTurnOver } from '../support/model-turns.ts'

/** A reply that only calls tools: each `[id, name, args]` in order. */
function toolReply(...calls: Array<[string, string, Record<string, unknown>]>): Chunk[] {
  return [roleChunk(), ...calls.flatMap(([id, name, args], index) => toolCallChunks({ id, name, args, index })), finish('tool_calls'), usage()]
}

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n'

test('a turn that writes and edits a file shows each change as a row with its diff, and Ctrl+O shows all of it', async ({ page, mock }) => {
  await mock.script(
    { chunks: toolReply(['call_write', 'write_file', { path: 'src/todo.txt', content: numbered(40) }]) },
    { chunks: toolReply(['call_edit', 'edit_file', { path: 'src/todo.txt', old_string: 'line 30\n', new_string: 'line thirty\n' }]) },
    { chunks: textReply('Wrote and edited the list.') },
  )
  await openWithMock(page, mock)
  await submitPrompt(page, 'make a list')
  await waitForScreen(page, 'Wrote and edited the list.')

  const lines = (await readScreen(page)).split('\n')
  const created = findLine(lines, 'Create src/todo.txt +40 −0')
  expect(created, `the Create row in:\n${lines.join('\n')}`).toBeGreaterThan(-1)
  expect(lines.slice(created + 1, created + 4).map((line) => line.trim())).toEqual(['└  @@ -0,0 +1,40 @@', '+line 1', '+line 2'])
  expect(lines[created + 9]?.trim()).toBe('… 33 more lines · Ctrl+O shows all')
  const edited = findLine(lines, 'Edit src/todo.txt +1 −1', created)
  expect(lines.slice(edited + 1, edited + 9).map((line) => line.trim())).toEqual([
    '└  @@ -27,7 +27,7 @@', 'line 27', 'line 28', 'line 29', '-line 30', '+line thirty', 'line 31', 'line 32',
  ])

  expect(await readWorkspaceFile(page, 'src/todo.txt')).toBe(numbered(40).replace('line 30\n', 'line thirty\n'))
  const requests = await mock.requests()
  const toolNames = (requests[0]?.tools ?? []).map((tool) => (tool as { function?: { name?: string } }).function?.name)
  expect(toolNames).toEqual(['run_command', 'read_file', 'write_file', 'edit_file'])
  expect(toolResultText(requests[1], 'call_write')).toBe('Created src/todo.txt (+40 −0 lines).')
  expect(toolResultText(requests[2], 'call_edit')).toBe('Edited src/todo.txt: replaced 1 occurrence (+1 −1 lines).')

  // The whole diff of the write, line 40 included, is in the Ctrl+O view.
  await pressKey(page, 'Control+o')
  await expect.poll(async () => (await readRows(page)).buffer).toBe('alternate')
  await pressKey(page, 'Home')
  let found = false
  for (let page_ = 0; page_ < 10 && !found; page_++) {
    found = (await readRows(page)).rows.some((row) => row.trim() === '+line 40')
    if (!found) await pressKey(page, 'PageDown')
  }
  expect(found, 'the view holds the last line of the written file').toBe(true)
  await pressKey(page, 'q')
  await expect.poll(async () => (await readRows(page)).buffer).toBe('normal')

  // /diff of 40 new lines is longer than the screen: it opens in the full-screen view at its start.
  await runSlashCommand(page, '/diff')
  await expect.poll(async () => (await readRows(page)).buffer).toBe('alternate')
  await expect.poll(async () => (await readRows(page)).rows[0]).toBe('● Changes since the session started · 1 file +40 −0')
  expect((await readRows(page)).rows.slice(1, 4)).toEqual(['  --- /dev/null', '  +++ b/src/todo.txt', '  @@ -0,0 +1,40 @@'])
  await pressKey(page, 'q')
})

test('/diff and /diff last show the changes, commands included, and /undo restores turn by turn', async ({ page, mock }) => {
  await mock.script(
    { chunks: toolReply(['call_w', 'write_file', { path: 'a.txt', content: 'one\n' }]) },
    { chunks: textReply('First turn done.') },
    { chunks: [roleChunk(), ...toolCallChunks({ id: 'call_e', name: 'edit_file', args: { path: 'a.txt', old_string: 'one', new_string: 'two' } }), ...runCommand('call_c', 'echo made > b.txt').map((chunk) => withIndex(chunk, 1)), finish('tool_calls'), usage()] },
    { chunks: textReply('Second turn done.') },
    { chunks: textReply('I see the files were reverted.') },
  )
  await openWithMock(page, mock)
  await submitPrompt(page, 'first')
  await waitForScreen(page, 'First turn done.')
  await submitPrompt(page, 'second')
  await waitForScreen(page, 'Second turn done.')
  await waitForTurnOver(page)

  // A short /diff opens in the full-screen view as a long one does, so q leaves it every time.
  await runSlashCommand(page, '/diff')
  await expect.poll(async () => (await readRows(page)).buffer).toBe('alternate')
  const all = (await readRows(page)).rows
  const at = findLine(all, 'Changes since the session started · 2 files +2 −0')
  expect(all.slice(at + 1, at + 9).map((line) => line.trim())).toEqual(['--- /dev/null', '+++ b/a.txt', '@@ -0,0 +1,1 @@', '+two', '--- /dev/null', '+++ b/b.txt', '@@ -0,0 +1,1 @@', '+made'])
  await pressKey(page, 'q')
  await expect.poll(async () => (await readRows(page)).buffer).toBe('normal')
  expect((await readScreen(page)).split('\n').filter((line) => line.startsWith('❯ q'))).toEqual([])

  await runSlashCommand(page, '/diff last')
  await expect.poll(async () => (await readRows(page)).buffer).toBe('alternate')
  const last = (await readRows(page)).rows
  const lastAt = findLine(last, 'Changes in the last turn · 2 files +2 −1')
  expect(last.slice(lastAt + 1, lastAt + 6).map((line) => line.trim())).toEqual(['--- a/a.txt', '+++ b/a.txt', '@@ -1,1 +1,1 @@', '-one', '+two'])
  await pressKey(page, 'q')
  await expect.poll(async () => (await readRows(page)).buffer).toBe('normal')

  await runSlashCommand(page, '/undo')
  await waitForScreen(page, 'Restored 2 files to how they were before the last turn: a.txt, b.txt')
  expect(await readWorkspaceFile(page, 'a.txt')).toBe('one\n')
  expect(await readWorkspaceFile(page, 'b.txt')).toBeNull()
  await runSlashCommand(page, '/undo')
  await waitForScreen(page, 'Restored 1 file to how it was before the last turn: a.txt')
  expect(await readWorkspaceFile(page, 'a.txt')).toBeNull()

  await submitPrompt(page, 'what now?')
  await waitForScreen(page, 'I see the files were reverted.')
  const requests = await mock.requests()
  const notes = (requests[4]?.messages ?? []).filter((m) => m.role === 'user' && String(m.content).includes('ran /undo')).map((m) => String(m.content))
  expect(notes).toEqual([
    '[fxterm: the person ran /undo, which said "Restored 2 files to how they were before the last turn: a.txt, b.txt". These files were put back as they were before the last turn that changed them: a.txt, b.txt. Read them again before relying on what you wrote.]',
    '[fxterm: the person ran /undo, which said "Restored 1 file to how it was before the last turn: a.txt". These files were put back as they were before the last turn that changed them: a.txt. Read them again before relying on what you wrote.]',
  ])
  expect(lastUserText(requests[4])).toBe('what now?')
})

test('in /mode ask the diff is shown before the change, and the file is written only once approved', async ({ page, mock }) => {
  await mock.script(
    { chunks: toolReply(['call_ask', 'write_file', { path: 'notes.md', content: '# Notes\nhello\n' }]) },
    { chunks: textReply('Saved your notes.') },
  )
  await openWithMock(page, mock)
  await runSlashCommand(page, '/mode ask')
  await waitForScreen(page, 'Mode: ask')
  await submitPrompt(page, 'save notes')
  const asked = (await waitForScreen(page, 'Make this change?')).split('\n')
  const head = findLine(asked, 'Create notes.md +2 −0')
  expect(asked.slice(head + 1, head + 4).map((line) => line.trim())).toEqual(['└  @@ -0,0 +1,2 @@', '+# Notes', '+hello'])
  await waitForScreen(page, '2. Yes, and allow file changes for this session')
  expect(await readWorkspaceFile(page, 'notes.md'), 'nothing is written before the answer').toBeNull()

  await typeInTerminal(page, '1')
  await waitForScreen(page, 'Saved your notes.')
  expect(await readWorkspaceFile(page, 'notes.md')).toBe('# Notes\nhello\n')
  expect(toolResultText((await mock.requests())[1], 'call_ask')).toBe('Created notes.md (+2 −0 lines).')
})

test('a path outside the workspace is refused with a clear result and nothing is written', async ({ page, mock }) => {
  await mock.script(
    { chunks: toolReply(['call_up', 'write_file', { path: '../../x', content: 'x' }], ['call_etc', 'edit_file', { path: '/etc/passwd', old_string: 'root', new_string: 'me' }]) },
    { chunks: textReply('I will stay inside the workspace.') },
  )
  await openWithMock(page, mock)
  await submitPrompt(page, 'escape')
  const screen = await waitForScreen(page, 'I will stay inside the workspace.')
  expect(screen).toContain('✗ Refused: "../../x" is outside the workspace (/workspace)')
  expect(screen).toContain('✗ Refused: "/etc/passwd" is outside the workspace (/workspace)')
  const second = (await mock.requests())[1]
  expect(toolResultText(second, 'call_up')).toBe('Refused: "../../x" is outside the workspace (/workspace); only files under it can be used. Nothing was changed.')
  expect(toolResultText(second, 'call_etc')).toBe('Refused: "/etc/passwd" is outside the workspace (/workspace); only files under it can be used. Nothing was changed.')
  expect(await readWorkspaceFile(page, '/x')).toBeNull()
})

/** The same chunk for the tool call at `index` (a second call in one reply). */
function withIndex(chunk: Chunk, index: number): Chunk {
  const choices = chunk['choices'] as Array<{ delta: { tool_calls?: Array<Record<string, unknown>> } }>
  for (const c of choices) for (const call of c.delta.tool_calls ?? []) call['index'] = index
  return chunk
}
