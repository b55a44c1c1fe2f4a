// Private-mode-like storage: `indexedDB.open` throws. The page falls back to stores in memory,
// says once that nothing will be saved, and chats as usual.
import { test, expect } from '../support/fixtures.ts'
import { openWithMock } from '../support/app.ts'
import { textReply } from '../support/chunks.ts'
import { readScreen, submitPrompt, waitForScreen } from '../support/screen.ts'

const NOTICE = 'nothing will be saved after this tab closes'

test('with IndexedDB refused, the page still chats and says once that nothing will be saved', async ({ page, mock }) => {
  await page.addInitScript(() => {
    IDBFactory.prototype.open = function open(): IDBOpenDBRequest {
      throw new DOMException('The user denied permission to access the database.', 'SecurityError')
    }
  })
  await mock.script({ chunks: textReply('Hello from memory.') }, { chunks: textReply('Still chatting.') })
  await openWithMock(page, mock)
  await waitForScreen(page, NOTICE)

  await submitPrompt(page, 'hello')
  await waitForScreen(page, 'Hello from memory.')
  await submitPrompt(page, 'and again')
  await waitForScreen(page, 'Still chatting.')

  const screen = await readScreen(page)
  expect(screen.split(NOTICE).length - 1).toBe(1)
  expect(screen).toContain('Storage is unavailable in this browser (IndexedDB failed with SecurityError)')
  // The in-memory session store still takes commits: no "could not be saved" notice.
  expect(screen).not.toContain('could not be saved')
  expect(await mock.requests()).toHaveLength(2)
})
