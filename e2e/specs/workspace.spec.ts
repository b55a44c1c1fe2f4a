import { readFile } from 'node:fs/promises'
import type { Page } from '@playwright/test'
import { unzipSync } from 'fflate'
import { test, expect } from '../support/fixtures.ts'
import { openDemo, openWithMock } from '../support/app.ts'
import { commandReply, textReply } from '../support/chunks.ts'
import { armKeyToText } from '../support/key-timing.ts'
import { toolResultText } from '../support/tool-messages.ts'
import { dropFiles, readWorkspaceFile, warmWorkspace } from '../support/workspace.ts'
import { findLine, readScreen, runSlashCommand, submitPrompt, typeInTerminal, waitForComposer, waitForScreen } from '../support/screen.ts'
import { DEMO_WORKSPACE_FILES } from '../../src/page/app/demo-workspace-files.ts'

/** The bound on Ctrl+C: the person gets the composer back before they notice a wait. */
const INTERRUPT_BOUND_MS = 200

const UPLOAD = { name: 'a.txt', text: 'hello' }

test.describe('files in and out of the workspace', () => {
  test('a file dropped on the terminal lands in /workspace and the transcript names it', async ({ page }) => {
    await openDemo(page)
    await dropFiles(page, [UPLOAD, { name: 'notes.md', text: '# notes\n' }])

    await waitForScreen(page, /Uploaded 2 files? to the workspace: a\.txt, notes\.md/)
    expect(await readWorkspaceFile(page, 'a.txt')).toBe('hello')
    expect(await readWorkspaceFile(page, 'notes.md')).toBe('# notes\n')
  })

  test('/download saves workspace.zip holding every demo file and the upload, byte for byte', async ({ page }) => {
    await openDemo(page)
    await dropFiles(page, [UPLOAD])
    await waitForScreen(page, /Uploaded 1 files? to the workspace: a\.txt/)

    const download = page.waitForEvent('download')
    await runSlashCommand(page, '/download')
    const saved = await download
    expect(saved.suggestedFilename()).toBe('workspace.zip')
    await waitForScreen(page, /Saved workspace\.zip \(.+\)/)

    const entries = unzipSync(new Uint8Array(await readFile(await saved.path())))
    const decoder = new TextDecoder()
    const files = Object.fromEntries(
      Object.entries(entries)
        .filter(([name]) => !name.endsWith('/')) // directory entries carry no content
        .map(([name, bytes]) => [name, decoder.decode(bytes)]),
    )
    expect(files).toEqual({ ...DEMO_WORKSPACE_FILES, [UPLOAD.name]: UPLOAD.text })
  })

  test('/files lists every demo file, nested ones indented under their folder', async ({ page }) => {
    await openDemo(page)
    const paths = Object.keys(DEMO_WORKSPACE_FILES)
    await runSlashCommand(page, '/files')
    await waitForScreen(page, `Files in the workspace (${paths.length}):`)

    const lines = (await readScreen(page)).split('\n')
    const heading = findLine(lines, `Files in the workspace (${paths.length}):`)
    const indentOf = (line: string) => line.length - line.trimStart().length
    for (const path of paths) {
      const parts = path.split('/')
      const name = parts.at(-1) as string
      const at = findLine(lines, new RegExp(`^\\s+${escape(name)}$`), heading + 1)
      expect(at, `an indented line "${name}" after the heading in:\n${lines.join('\n')}`).toBeGreaterThan(heading)
      if (parts.length === 1) continue
      const folder = findLine(lines, new RegExp(`^\\s+${escape(parts[0] as string)}/$`), heading + 1)
      expect(folder, `folder line "${parts[0]}/" for ${path}`).toBeGreaterThan(heading)
      expect(indentOf(lines[at] as string), `${name} is indented deeper than ${parts[0]}/`).toBeGreaterThan(indentOf(lines[folder] as string))
    }
  })
})

test.describe('asking before each command (/mode ask)', () => {
  /** Switches to ask mode and sends a prompt whose reply calls `command`; waits for the row. */
  async function askFor(page: Page, command: string): Promise<void> {
    await submitPrompt(page, '/mode ask')
    await waitForScreen(page, 'Mode: ask')
    await submitPrompt(page, 'please run it')
    await waitForScreen(page, 'Run this command?')
    await waitForScreen(page, command)
    await waitForScreen(page, '1. Yes')
    await waitForScreen(page, '2. Yes, always for this exact command')
    await waitForScreen(page, '3. No, tell the model')
  }

  test('answering 3 does not run the command and the model is told it was denied', async ({ page, mock }) => {
    const command = 'echo should-not-run > denied.txt'
    await mock.script({ chunks: commandReply('call_deny', command) }, { chunks: textReply('Understood, I will not.') })
    await openWithMock(page, mock)
    await askFor(page, command)

    await typeInTerminal(page, '3')
    await waitForScreen(page, `Denied ${command}`)
    await waitForScreen(page, 'Understood, I will not.')

    const requests = await mock.requests()
    expect(requests).toHaveLength(2)
    expect(toolResultText(requests[1], 'call_deny')).toContain('Denied by the user')
    expect(await readWorkspaceFile(page, 'denied.txt'), 'the denied command wrote nothing').toBeNull()
  })

  test('answering 1 runs the command and its output goes to the model', async ({ page, mock }) => {
    const command = 'echo approved-run | tee approved.txt'
    await mock.script({ chunks: commandReply('call_yes', command) }, { chunks: textReply('It ran.') })
    await openWithMock(page, mock)
    await askFor(page, command)

    await typeInTerminal(page, '1')
    await waitForScreen(page, `Ran ${command}`)
    await waitForScreen(page, 'It ran.')

    await expect.poll(async () => (await mock.requests()).length).toBe(2)
    expect(toolResultText((await mock.requests())[1], 'call_yes')).toContain('approved-run')
    expect(await readWorkspaceFile(page, 'approved.txt')).toBe('approved-run\n')
  })

  test('answering 2 runs the command, and the same command later runs without asking', async ({ page, mock }) => {
    const command = 'echo always-ok'
    await mock.script(
      { chunks: commandReply('call_always_1', command) },
      { chunks: textReply('First time done.') },
      { chunks: commandReply('call_always_2', command) },
      { chunks: textReply('Second time done.') },
    )
    await openWithMock(page, mock)
    await askFor(page, command)
    await typeInTerminal(page, '2')
    await waitForScreen(page, 'First time done.')

    // No key is pressed from here on: had it asked again, the turn could not finish.
    await submitPrompt(page, 'run it again')
    await waitForScreen(page, 'Second time done.')
    const ran = (await readScreen(page)).split('\n').filter((line) => line.includes(`Ran ${command}`))
    expect(ran).toHaveLength(2)
  })
})

test(`Ctrl+C during sleep 20 gives control back within ${INTERRUPT_BOUND_MS} ms and the composer takes typing`, async ({ page, mock }) => {
  await mock.script({ chunks: commandReply('call_sleep', 'sleep 20') })
  await openWithMock(page, mock)
  await warmWorkspace(page) // so that sleep really runs when the key comes, not just-bash's download
  await submitPrompt(page, 'wait a while')
  await waitForScreen(page, 'Running sleep 20')

  const elapsed = await armKeyToText(page, { key: 'c', ctrlKey: true }, 'Interrupted')
  await page.locator('.xterm-helper-textarea').focus()
  await page.keyboard.press('Control+c')
  const ms = await elapsed()
  test.info().annotations.push({ type: 'Ctrl+C → Interrupted', description: `${ms.toFixed(1)} ms` })
  expect(ms, 'key press → "Interrupted" on screen, measured in the page').toBeLessThan(INTERRUPT_BOUND_MS)

  // "cancelled" belongs to the command's row (on it or under it), before the Interrupted line.
  const lines = (await waitForScreen(page, 'Ran sleep 20')).split('\n')
  const ran = findLine(lines, 'Ran sleep 20')
  const cancelled = findLine(lines, 'cancelled', ran)
  expect(cancelled, `"cancelled" with "Ran sleep 20" in:\n${lines.join('\n')}`).toBeGreaterThanOrEqual(ran)
  expect(cancelled).toBeLessThan(findLine(lines, 'Interrupted', ran))
  await typeInTerminal(page, 'next thing')
  await waitForComposer(page, 'next thing')
})

test('cd in one command carries over: pwd in the next prints /workspace/src', async ({ page, mock }) => {
  await mock.script(
    { chunks: commandReply('call_cd', 'cd src') },
    { chunks: commandReply('call_pwd', 'pwd') },
    { chunks: textReply('We are in src.') },
  )
  await openWithMock(page, mock)
  await submitPrompt(page, 'go into src')
  await waitForScreen(page, 'We are in src.')

  const requests = await mock.requests()
  expect(requests).toHaveLength(3)
  expect(toolResultText(requests[1], 'call_cd')).toMatch(/\[cwd: \/workspace\/src\]$/)
  const pwd = toolResultText(requests[2], 'call_pwd')
  expect(pwd).toMatch(/^\/workspace\/src\n/)
  expect(pwd).toMatch(/\[cwd: \/workspace\/src\]$/)

  const lines = (await readScreen(page)).split('\n')
  const ran = findLine(lines, 'Ran pwd')
  expect(findLine(lines, /\/workspace\/src$/, ran + 1), `the output line under "Ran pwd" in:\n${lines.join('\n')}`).toBe(ran + 1)
})

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
