import { test, expect } from '../support/fixtures.ts'
import { openWithMock } from '../support/app.ts'
import { commandReply, textReply } from '../support/chunks.ts'
import type { ReceivedRequest } from '../support/mock-model.ts'
import { findLine, readScreen, submitPrompt, waitForScreen } from '../support/screen.ts'

const CALL_ID = 'call_ls_e2e_1'

/** Tool message content may be a string or a list of text parts; specs only care about its text. */
const textOf = (content: unknown): string => (typeof content === 'string' ? content : JSON.stringify(content ?? ''))

test('a tool call runs ls in the bash workspace and its output goes back to the model', async ({ page, mock }) => {
  await mock.script(
    { chunks: commandReply(CALL_ID, 'ls') },
    { chunks: textReply('The workspace holds ', 'a README.md among other files.') },
  )
  await openWithMock(page, mock)

  await submitPrompt(page, 'list the files')
  await waitForScreen(page, 'Ran ls')
  await waitForScreen(page, 'a README.md among other files.')

  // The first lines of the output are shown indented under the command.
  const lines = (await readScreen(page)).split('\n')
  const ran = findLine(lines, 'Ran ls')
  const readme = findLine(lines, /^\s+.*README\.md/, ran + 1)
  expect(readme, `an indented README.md line after "Ran ls" in:\n${lines.join('\n')}`).toBeGreaterThan(ran)

  await expect.poll(async () => (await mock.requests()).length).toBe(2)
  const second = (await mock.requests())[1] as ReceivedRequest
  const toolMessage = second.messages.find((message) => message.role === 'tool')
  expect(toolMessage, 'the second request carries the tool result').toBeDefined()
  expect(toolMessage?.tool_call_id).toBe(CALL_ID)
  expect(textOf(toolMessage?.content)).toContain('README.md')
})
