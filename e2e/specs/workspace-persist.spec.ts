// The files the agent writes last as long as the conversation (issue 21): a reload brings them
// back with their /diff, /new starts from the seed files, /resume brings back the files of the session it opens,
// and a store that fails keeps the chat going with one notice.
import type { Page } from '@playwright/test'
import { test, expect } from '../support/fixtures.ts'
import { BANNER, openWithMock } from '../support/app.ts'
import { finish, roleChunk, textReply, toolCallChunks, usage, commandReply, type Chunk } from '../support/chunks.ts'
import { readWorkspaceFile } from '../support/workspace.ts'
import { readRows } from '../support/footer.ts'
import { pressKey, runSlashCommand, submitPrompt, typeInTerminal, waitForScreen, waitForTerminal } from '../support/screen.ts'
import { toolResultText } from '../support/tool-messages.ts'

const writeReply = (id: string, path: string, content: string): Chunk[] => [roleChunk(), ...toolCallChunks({ id, name: 'write_file', args: { path, content } }), finish('tool_calls'), usage()]

async function reload(page: Page): Promise<void> {
  await page.reload()
  await waitForTerminal(page)
  await waitForScreen(page, BANNER)
}

/** Every change made so far is stored (the page's workspace says so). */
const persisted = (page: Page) => page.evaluate(() => (window as unknown as { fxterm: { workspace: { persisted(): Promise<void> } } }).fxterm.workspace.persisted())

test('a reload brings back the files a turn wrote and changed and their /diff, and /new starts from the seed files', async ({ page, mock }) => {
  await mock.script(
    { chunks: writeReply('call_w', 'src/greet.test.js', 'test("greets", () => {})\n') },
    { chunks: commandReply('call_c', "sed -i 's/There are no tests yet/Run the tests with node --test/' README.md && rm src/index.js") },
    { chunks: textReply('Added a test.') },
  )
  await openWithMock(page, mock)
  await submitPrompt(page, 'add a test for greet.js')
  await waitForScreen(page, 'Added a test.')
  const readme = await readWorkspaceFile(page, 'README.md')
  expect(readme).toContain('Run the tests with node --test')
  await persisted(page)

  await reload(page)
  await waitForScreen(page, 'Session resumed: add a test for greet.js')
  expect(await readWorkspaceFile(page, 'src/greet.test.js')).toBe('test("greets", () => {})\n')
  expect(await readWorkspaceFile(page, 'README.md')).toBe(readme)
  expect(await readWorkspaceFile(page, 'src/index.js')).toBeNull()
  // The change history came back too: /diff still shows the three files against the start.
  await runSlashCommand(page, '/diff')
  await expect.poll(async () => (await readRows(page)).rows.some((row) => row.includes('Changes since the session started · 3 files'))).toBe(true)
  if ((await readRows(page)).buffer === 'alternate') await pressKey(page, 'q')

  // /new: the seed files again, once the new session's first prompt makes it a session.
  await mock.script({ chunks: commandReply('call_ls', 'ls src') }, { chunks: textReply('Listed.') })
  await runSlashCommand(page, '/new')
  await submitPrompt(page, 'what is in src?')
  await waitForScreen(page, 'Listed.')
  const requests = await mock.requests()
  expect(toolResultText(requests.at(-1), 'call_ls')).toContain('greet.js\nindex.js')
  expect(await readWorkspaceFile(page, 'src/greet.test.js')).toBeNull()
  expect(await readWorkspaceFile(page, 'README.md')).toContain('There are no tests yet')
})

test('/resume brings back the files of the session it opens', async ({ page, mock }) => {
  await mock.script(
    { chunks: writeReply('call_a', 'notes.txt', 'from the first session\n') },
    { chunks: textReply('First done.') },
    { chunks: writeReply('call_b', 'notes.txt', 'from the second session\n') },
    { chunks: textReply('Second done.') },
  )
  await openWithMock(page, mock)
  await submitPrompt(page, 'first topic')
  await waitForScreen(page, 'First done.')
  await runSlashCommand(page, '/new')
  await submitPrompt(page, 'second topic')
  await waitForScreen(page, 'Second done.')
  expect(await readWorkspaceFile(page, 'notes.txt')).toBe('from the second session\n')

  await runSlashCommand(page, '/resume')
  await waitForScreen(page, 'Resume a session')
  await typeInTerminal(page, 'first')
  await pressKey(page, 'Enter')
  await waitForScreen(page, 'Session resumed: first topic')
  await expect.poll(() => readWorkspaceFile(page, 'notes.txt')).toBe('from the first session\n')
})

test('a store that is full keeps the chat going with one notice, and the files stay in the tab', async ({ page, mock }) => {
  // Only the files' storage fails (the Origin Private File System here), as a full disk would
  // for the largest writer; the conversation's IndexedDB still works.
  await page.addInitScript(() => {
    FileSystemWritableFileStream.prototype.write = () => Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'))
  })
  await mock.script(
    { chunks: writeReply('call_w', 'big.txt', 'kept in memory\n') },
    { chunks: commandReply('call_c', 'cat big.txt') },
    { chunks: textReply('Still here.') },
  )
  await openWithMock(page, mock)
  await submitPrompt(page, 'write a file')
  await waitForScreen(page, 'Still here.')
  const result = toolResultText((await mock.requests())[2], 'call_c')
  expect(result).toContain('kept in memory')
  expect(result).toContain('the workspace files could not be stored (The quota has been exceeded.)')
  expect(await readWorkspaceFile(page, 'big.txt')).toBe('kept in memory\n')
})

test('/open makes a folder the workspace, skipping what .gitignore names, and writes the agent\'s edit into it', async ({ page, mock }) => {
  // An Origin Private File System folder stands in for the one the person would pick: same interface.
  await page.addInitScript(() => {
    const put = async (parent: FileSystemDirectoryHandle, name: string, text: string) => {
      const writable = await (await parent.getFileHandle(name, { create: true })).createWritable()
      await writable.write(text)
      await writable.close()
    }
    Object.assign(window, {
      showDirectoryPicker: async () => {
        const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('my-project', { create: true })
        await put(dir, 'main.py', 'print("hi")\n')
        await put(dir, '.gitignore', 'build/\n*.log\n')
        await put(dir, 'debug.log', 'noise\n')
        await put(await dir.getDirectoryHandle('node_modules', { create: true }), 'x.js', '')
        await put(await dir.getDirectoryHandle('build', { create: true }), 'out.txt', '')
        return dir
      },
    })
  })
  await mock.script(
    { chunks: [roleChunk(), ...toolCallChunks({ id: 'call_e', name: 'edit_file', args: { path: 'main.py', old_string: 'hi', new_string: 'hello' } }), finish('tool_calls'), usage()] },
    { chunks: textReply('Edited main.py.') },
  )
  await openWithMock(page, mock)
  await runSlashCommand(page, '/open')
  await waitForScreen(page, 'Opened the folder my-project: 2 files read, 3 skipped (node_modules, .gitignore). The agent\'s changes are written to it.')
  expect(await readWorkspaceFile(page, 'debug.log')).toBeNull()
  await submitPrompt(page, 'say hello instead')
  await waitForScreen(page, 'Edited main.py.')
  await persisted(page)
  const onDisk = await page.evaluate(async () => {
    const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('my-project')
    return (await (await dir.getFileHandle('main.py')).getFile()).text()
  })
  expect(onDisk).toBe('print("hello")\n')
})

test('/open on a browser without the File System Access API says what to do instead', async ({ page, mock }) => {
  await page.addInitScript(() => {
    delete (window as { showDirectoryPicker?: unknown }).showDirectoryPicker
  })
  await openWithMock(page, mock)
  await runSlashCommand(page, '/open')
  await waitForScreen(page, 'This browser cannot open a folder (it has no File System Access API): drop files onto the terminal')
})

test('a folder whose permission is taken back: one notice, and the files stay in the tab', async ({ page, mock }) => {
  await page.addInitScript(() => {
    Object.assign(window, { showDirectoryPicker: async () => (await navigator.storage.getDirectory()).getDirectoryHandle('revoked', { create: true }) })
  })
  await mock.script(
    { chunks: writeReply('call_w', 'made.txt', 'in memory\n') },
    { chunks: commandReply('call_c', 'cat made.txt') },
    { chunks: textReply('Done.') },
  )
  await openWithMock(page, mock)
  await runSlashCommand(page, '/open')
  await waitForScreen(page, 'Opened the folder revoked: 0 files read.')
  // The person takes write access back: every write to the folder is refused from now on.
  await page.evaluate(() => {
    FileSystemFileHandle.prototype.createWritable = () => Promise.reject(new DOMException('Write permission was revoked.', 'NotAllowedError'))
  })
  await submitPrompt(page, 'write a file')
  await waitForScreen(page, 'Done.')
  const result = toolResultText((await mock.requests())[2], 'call_c')
  expect(result).toContain('in memory')
  expect(result).toContain('fxterm: the folder revoked could not be written (Write permission was revoked.); the files stay in this tab')
})

test('two tabs: the second continues a fork with a copy of the files, and each session keeps its own', async ({ page, mock }) => {
  await mock.script({ chunks: writeReply('call_a', 'shared.txt', 'from the first tab\n') }, { chunks: textReply('Written.') })
  await openWithMock(page, mock)
  await submitPrompt(page, 'first question')
  await waitForScreen(page, 'Written.')
  await persisted(page)

  const second = await page.context().newPage()
  await openWithMock(second, mock)
  await waitForScreen(second, 'This session is open in another tab, so it opened read-only here.')
  await expect.poll(() => readWorkspaceFile(second, 'shared.txt')).toBe('from the first tab\n')

  await mock.script({ chunks: writeReply('call_b', 'shared.txt', 'from the fork\n') }, { chunks: textReply('Changed in the fork.') })
  await submitPrompt(second, 'change it here')
  await waitForScreen(second, 'This conversation continues as a new session: first question (fork).')
  await waitForScreen(second, 'Changed in the fork.')
  await persisted(second)
  expect(await readWorkspaceFile(page, 'shared.txt')).toBe('from the first tab\n')

  // A reload of the first tab resumes its own session (the fork is newer, so name it).
  await second.close()
  await runSlashCommand(page, '/resume')
  await waitForScreen(page, 'Resume a session')
  await typeInTerminal(page, '(fork)')
  await pressKey(page, 'Enter')
  await waitForScreen(page, 'Session resumed: first question (fork)')
  await expect.poll(() => readWorkspaceFile(page, 'shared.txt')).toBe('from the fork\n')
})
