import { test, expect } from '../support/fixtures.ts'
import { openWithMock } from '../support/app.ts'
import { finish, roleChunk, textDelta, usage } from '../support/chunks.ts'
import { readScreen, readStatus, submitPrompt, waitForScreen } from '../support/screen.ts'

const FIRST = 'The first half streams in right away.'
const REST = 'The second half waits for the release.'

test('the status line names the model server by host', async ({ page, mock }) => {
  await openWithMock(page, mock)
  await expect.poll(() => readStatus(page)).toContain(mock.host)
})

test('streamed text is on screen before the model has finished, and the rest follows', async ({ page, mock }) => {
  // Hold after the role chunk and the first text delta: the rest only goes out on release.
  await mock.script({ chunks: [roleChunk(), textDelta(FIRST), textDelta(` ${REST}`), finish('stop'), usage()], holdAfter: 2 })
  await openWithMock(page, mock)

  await submitPrompt(page, 'tell me something in two parts')
  await waitForScreen(page, '❯ tell me something in two parts')
  await waitForScreen(page, FIRST)

  // Still held: what is on screen can only have come from the part already streamed.
  expect(await mock.held()).toBe(1)
  expect(await readScreen(page)).not.toContain(REST)

  expect(await mock.release()).toBe(1)
  await waitForScreen(page, REST)
})
