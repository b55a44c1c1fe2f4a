// A turn whose command was running when the tab ended (a `node` memory bomb ends the tab in
// Chromium) does not continue by itself on reopening: the person is told what most likely
// happened and chooses. A reload during a long command stands in for the crash: to the next page
// both leave the same record, a turn saved with its command running.
import type { Page } from '@playwright/test'
import { test, expect } from '../support/fixtures.ts'
import { BANNER, openWithMock } from '../support/app.ts'
import { commandReply, textReply } from '../support/chunks.ts'
import { pressKey, readScreen, submitPrompt, typeInTerminal, waitForScreen, waitForTerminal } from '../support/screen.ts'
import { savedSessions } from '../support/saved-state.ts'
import { blocksStartingWith, waitForTurnOver } from '../support/model-turns.ts'
import { lastUserText, toolResultText } from '../support/tool-messages.ts'
import type { MockModel } from '../support/mock-model.ts'

test.setTimeout(90_000)

const LONG = "node -e 'setInterval(() => {}, 1000)'"
const QUESTION = 'Continue the interrupted turn?'

/** A turn that starts LONG, then a reload while it runs, once the record says it is running. */
async function reloadDuringCommand(page: Page, mock: MockModel): Promise<void> {
  await openWithMock(page, mock)
  await submitPrompt(page, 'run the server')
  await waitForScreen(page, 'setInterval')
  await expect.poll(async () => (await savedSessions(page)).map(({ active, runningCallId }) => ({ active, runningCallId }))).toEqual([{ active: true, runningCallId: 'call_long' }])
  await page.reload()
  await waitForTerminal(page)
  await waitForScreen(page, BANNER)
  await waitForScreen(page, QUESTION)
}

test('reopening asks before the turn goes on, and no model request is sent before the answer', async ({ page, mock }) => {
  await mock.script({ chunks: commandReply('call_long', LONG) }, { chunks: textReply('Not running it again.') })
  await reloadDuringCommand(page, mock)
  const screen = await readScreen(page)
  // The engine wraps its notices: read back as one sentence.
  expect(blocksStartingWith(screen, 'The tab closed')).toEqual([`The tab closed while \`${LONG}\` was running — it may have run out of memory.`])
  expect(screen).toContain('1. Yes, continue the turn')
  expect(screen).toContain('2. No, stop here (the command is not run again)')
  expect(screen).not.toContain('fxterm is continuing it')
  expect(await mock.requests()).toHaveLength(1)
  // The record still says a command was running: closing the tab now would ask again.
  expect((await savedSessions(page)).map(({ active, runningCallId }) => ({ active, runningCallId }))).toEqual([{ active: true, runningCallId: 'call_long' }])
})

test('"yes" continues the turn: the model hears the command may have partly run, and it is not run again', async ({ page, mock }) => {
  await mock.script({ chunks: commandReply('call_long', LONG) }, { chunks: textReply('Not running it again.') })
  await reloadDuringCommand(page, mock)
  expect(await mock.requests()).toHaveLength(1)
  await typeInTerminal(page, '1')
  await waitForScreen(page, 'Not running it again.')
  await waitForTurnOver(page)
  const requests = await mock.requests()
  expect(requests).toHaveLength(2)
  expect(toolResultText(requests[1], 'call_long')).toContain('may have partly run')
  expect(lastUserText(requests[1])).toContain('The previous turn was interrupted')
  expect(await readScreen(page)).not.toContain(QUESTION)
})

test('"no" ends the turn with no request; the model hears the command crashed the tab when the person writes on', async ({ page, mock }) => {
  await mock.script({ chunks: commandReply('call_long', LONG) }, { chunks: textReply('I will not run it again.') })
  await reloadDuringCommand(page, mock)
  await pressKey(page, 'ArrowDown')
  await pressKey(page, 'Enter')
  await waitForScreen(page, /Stopped\. `node -e/)
  expect(await readScreen(page)).not.toContain(QUESTION)
  await expect.poll(async () => (await savedSessions(page)).map(({ active }) => active)).toEqual([false])
  expect(await mock.requests()).toHaveLength(1)

  await submitPrompt(page, 'what happened?')
  await waitForScreen(page, 'I will not run it again.')
  const requests = await mock.requests()
  expect(requests).toHaveLength(2)
  expect(toolResultText(requests[1], 'call_long')).toContain('most likely crashed it')
  expect(lastUserText(requests[1])).toBe('what happened?')
})
