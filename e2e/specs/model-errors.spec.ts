import { test, expect } from '../support/fixtures.ts'
import { openWithMock } from '../support/app.ts'
import { readScreen, submitPrompt, typeInTerminal, waitForComposer, waitForScreen } from '../support/screen.ts'

const UNAUTHORIZED = JSON.stringify({
  error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' },
})

test('a rejected API key shows one error line and the composer keeps working', async ({ page, mock }) => {
  await mock.script({ status: 401, body: UNAUTHORIZED })
  await openWithMock(page, mock)

  await submitPrompt(page, 'hello?')
  await waitForScreen(page, /^\s*✗ .*key/im)
  const errorLines = (await readScreen(page)).split('\n').filter((line) => line.trimStart().startsWith('✗ '))
  expect(errorLines, 'exactly one ✗ line').toHaveLength(1)

  await typeInTerminal(page, 'still here')
  await waitForComposer(page, 'still here')
})
