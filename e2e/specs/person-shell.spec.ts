// A shell at hand: `!command` runs in the workspace shell with no model request, shows its output
// as a row, and the model reads it with the next prompt; a reload draws the row again.
import { test, expect } from '../support/fixtures.ts'
import { openWithMock } from '../support/app.ts'
import { textReply } from '../support/chunks.ts'
import { pressKey, readScreen, submitPrompt, typeInTerminal, waitForComposer, waitForScreen } from '../support/screen.ts'
import { runCommand } from '../support/run-code.ts'

test('!ls lists the workspace without asking the model, and the next prompt carries it', async ({ page, mock }) => {
  await openWithMock(page, mock)
  await runCommand(page, 'echo kept > visible-file.txt')
  await submitPrompt(page, '!ls')
  await waitForScreen(page, '● Ran ls')
  await waitForScreen(page, 'visible-file.txt')
  expect(await mock.requests()).toEqual([])

  await mock.script({ chunks: textReply('I see the file.') })
  await submitPrompt(page, 'what did I just list?')
  await waitForScreen(page, 'I see the file.')
  const [request] = await mock.requests()
  const contents = request!.messages.map((m) => String(m.content))
  expect(contents.some((c) => c.includes('$ ls') && c.includes('visible-file.txt'))).toBe(true)

  await page.reload()
  await waitForScreen(page, 'I see the file.')
  const screen = await readScreen(page)
  expect(screen).toContain('● Ran ls')
  expect(screen).not.toContain('[fxterm:')
})

test('Ctrl+C stops a !command, and the composer is free again', async ({ page, mock }) => {
  await openWithMock(page, mock)
  await submitPrompt(page, '!sleep 20')
  await waitForScreen(page, 'sleep 20')
  await pressKey(page, 'Control+c')
  await waitForScreen(page, '● Ran sleep 20 · cancelled')
  await typeInTerminal(page, 'next')
  await waitForComposer(page, 'next')
  expect(await mock.requests()).toEqual([])
})

test('the shell starts once the page is idle: the first !command runs in it, no shell is started for it', async ({ page, mock }) => {
  const shells: string[] = []
  page.on('worker', (worker) => {
    if (worker.url().includes('bash-worker')) shells.push(worker.url())
  })
  await openWithMock(page, mock)
  // No command yet: the shell starts on its own once the page is idle.
  await expect.poll(() => shells.length, { timeout: 20_000 }).toBe(1)
  await submitPrompt(page, '!echo first-command')
  await waitForScreen(page, '● Ran echo first-command')
  await waitForScreen(page, 'first-command')
  expect(shells).toHaveLength(1)
  expect(await mock.requests()).toEqual([])
})
