// Copying out of fxterm: a selection of the terminal's output (Ctrl+C, Ctrl+Shift+C), the draft's selection (Cmd+A, then Ctrl+C / Cmd+C / Cmd+X) and the last
// reply (/copy) land on the system clipboard. Cmd is Meta here; the adapter reads metaKey.
import { test, expect } from '../support/fixtures.ts'
import { openWithMock } from '../support/app.ts'
import { textReply } from '../support/chunks.ts'
import { CLIPBOARD_PERMISSIONS, readClipboard, waitForClipboard, writeClipboard } from '../support/clipboard.ts'
import { doubleClickWord, pressKey, readScreen, readStatus, runSlashCommand, submitPrompt, typeInTerminal, waitForComposer, waitForScreen } from '../support/screen.ts'

test.use({ permissions: CLIPBOARD_PERMISSIONS })

const DRAFT = 'copy this draft'

test('Cmd+A selects the draft and Ctrl+C copies it, keeping the draft and the session', async ({ page, mock }) => {
  await openWithMock(page, mock)
  await writeClipboard(page, 'before')
  await typeInTerminal(page, DRAFT)
  await waitForComposer(page, DRAFT)

  await pressKey(page, 'Meta+a')
  await pressKey(page, 'Control+c')
  await waitForClipboard(page, DRAFT)
  await waitForComposer(page, DRAFT)
  // A copy is not an interrupt: no exit hint, and the next Ctrl+C (no selection now) clears the draft.
  expect(await readScreen(page)).not.toContain('/exit ends the session')
  await pressKey(page, 'Control+c')
  await waitForComposer(page, '')
})

test('Cmd+C copies the selected draft and Cmd+X cuts it', async ({ page, mock }) => {
  await openWithMock(page, mock)
  await writeClipboard(page, 'before')
  await typeInTerminal(page, DRAFT)
  await waitForComposer(page, DRAFT)

  await pressKey(page, 'Meta+a')
  await pressKey(page, 'Meta+c')
  await waitForClipboard(page, DRAFT)
  await waitForComposer(page, DRAFT)

  await writeClipboard(page, 'before')
  await pressKey(page, 'Meta+a')
  await pressKey(page, 'Meta+x')
  await waitForClipboard(page, DRAFT)
  await waitForComposer(page, '')
})

test('/copy puts the last reply on the clipboard', async ({ page, mock }) => {
  const reply = 'Here is the **answer** you can paste elsewhere.'
  await mock.script({ chunks: textReply(reply) })
  await openWithMock(page, mock)
  await writeClipboard(page, 'before')
  await submitPrompt(page, 'give me something to copy')
  await waitForScreen(page, 'Here is the answer you can paste elsewhere.')

  await runSlashCommand(page, '/copy')
  await waitForScreen(page, /Copied the last reply \(\d+ bytes\)\./)
  // The reply as the model wrote it, Markdown and all: that is what a person pastes elsewhere.
  expect(await readClipboard(page)).toBe(reply)
})

for (const chord of ['Control+c', 'Control+Shift+c']) {
  test(`a selection of the output is copied by ${chord}, which neither interrupts nor clears`, async ({ page, mock }) => {
    await mock.script({ chunks: textReply('The password hint is zanzibar, remember it.') })
    await openWithMock(page, mock)
    await writeClipboard(page, 'before')
    await submitPrompt(page, 'give me a word')
    await waitForScreen(page, 'remember it.')
    await typeInTerminal(page, 'my draft')
    await waitForComposer(page, 'my draft')

    await doubleClickWord(page, 'zanzibar')
    await pressKey(page, chord)
    await waitForClipboard(page, 'zanzibar')
    // Not a key: the draft stays, no exit hint, and a plain Ctrl+C afterwards clears the draft.
    await waitForComposer(page, 'my draft')
    expect(await readStatus(page)).not.toContain('/exit ends the session')
    await page.locator('.xterm-screen').first().click()
    await pressKey(page, 'Control+c')
    await waitForComposer(page, '')
  })
}
