// A command with long output: the transcript shows five lines and a count of the rest, Ctrl+O
// shows all of it in the alternate screen, and q comes back to the transcript and its footer.
import { test, expect } from '../support/fixtures.ts'
import { openWithMock } from '../support/app.ts'
import { commandReply, textReply } from '../support/chunks.ts'
import { expectOneFooterInBuffer, readRows, waitForFooter } from '../support/footer.ts'
import { findLine, pressKey, readScreen, submitPrompt, waitForScreen } from '../support/screen.ts'

/** An output row of the command as the view indents it: `seq 1 50` prints one number a line. */
const outputRow = (n: number) => new RegExp(`^\\s+${n}$`)

test('Ctrl+O shows every line of a long command output in the alternate screen, and q returns', async ({ page, mock }) => {
  await mock.script({ chunks: commandReply('call_seq', 'seq 1 50') }, { chunks: textReply('Counted to fifty.') })
  await openWithMock(page, mock)
  await submitPrompt(page, 'count to fifty')
  await waitForScreen(page, 'Counted to fifty.')

  // Inline: the first five numbers, then how many more there are.
  const lines = (await readScreen(page)).split('\n')
  const ran = findLine(lines, 'Ran seq 1 50')
  expect(lines.slice(ran + 1, ran + 7).map((line) => line.trim())).toEqual(['└  1', '2', '3', '4', '5', '… 45 more lines'])
  expect(findLine(lines, outputRow(6), ran)).toBe(-1)

  await pressKey(page, 'Control+o')
  await expect.poll(async () => (await readRows(page)).buffer).toBe('alternate')
  await expect.poll(async () => (await readRows(page)).rows.at(-1)).toMatch(/^ Transcript \d+\/\d+ · .*q or Ctrl\+O to return/)

  // From the top, line 50 is off screen; the end of the transcript shows it.
  await pressKey(page, 'Home')
  await expect.poll(async () => (await readRows(page)).rows.some((row) => row.includes('Ran seq 1 50'))).toBe(true)
  expect((await readRows(page)).rows.some((row) => outputRow(50).test(row)), 'line 50 is below the first page').toBe(false)
  await pressKey(page, 'PageDown')
  await pressKey(page, 'End')
  await expect.poll(async () => (await readRows(page)).rows.some((row) => outputRow(50).test(row))).toBe(true)
  const view = (await readRows(page)).rows
  expect(view.some((row) => row.includes('Counted to fifty.')), 'the reply after the command is in the view too').toBe(true)

  await pressKey(page, 'q')
  await expect.poll(async () => (await readRows(page)).buffer).toBe('normal')
  const footer = await waitForFooter(page)
  expect(footer.composer).toEqual(['❯'])
  expect(footer.status).toContain(mock.host)
  expect(footer.below).toEqual([])
  await expectOneFooterInBuffer(page)
  await waitForScreen(page, '… 45 more lines')
})
