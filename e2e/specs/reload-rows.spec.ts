// A reload draws what the live turn drew (issue 32): one turn with reasoning, a command with its
// output, a write, an edit and a refused write, then a reload; the transcript's rows in the
// buffer must be the same before and after.
import { test, expect } from '../support/fixtures.ts'
import { BANNER, openWithMock } from '../support/app.ts'
import { finish, roleChunk, textDelta, textReply, toolCallChunks, usage, runCommand, type Chunk } from '../support/chunks.ts'
import { readScreen, submitPrompt, waitForScreen, waitForTerminal } from '../support/screen.ts'
import { savedSessions } from '../support/saved-state.ts'

const PROMPT = 'make things'
const LAST = 'All four done.'

/** The transcript's rows: from the prompt's card to the reply that ends the turn. */
async function transcriptRows(page: Parameters<typeof readScreen>[0]): Promise<string[]> {
  const lines = (await readScreen(page)).split('\n')
  const first = lines.indexOf(`❯ ${PROMPT}`)
  const last = lines.findIndex((line) => line.includes(LAST))
  expect(first, `the prompt in:\n${lines.join('\n')}`).toBeGreaterThan(-1)
  expect(last).toBeGreaterThan(first)
  return lines.slice(first, last + 1)
}

test('a reload draws the command, write, edit, refusal and reasoning rows as the turn drew them', async ({ page, mock }) => {
  const calls: Chunk[] = [
    ...runCommand('call_c', 'printf "one\\ntwo\\n"'),
    ...toolCallChunks({ id: 'call_w', name: 'write_file', args: { path: 'notes.txt', content: 'alpha\nbeta\n' }, index: 1 }),
    ...toolCallChunks({ id: 'call_e', name: 'edit_file', args: { path: 'notes.txt', old_string: 'beta', new_string: 'gamma' }, index: 2 }),
    ...toolCallChunks({ id: 'call_x', name: 'write_file', args: { path: '../../etc/x', content: '' }, index: 3 }),
  ]
  await mock.script(
    {
      chunks: [
        roleChunk(),
        { choices: [{ index: 0, delta: { reasoning_content: 'A listing, a file, an edit.' }, finish_reason: null }] },
        textDelta('Working on it.'),
        ...calls,
        finish('tool_calls'),
        usage(),
      ],
    },
    { chunks: textReply(LAST) },
  )
  await openWithMock(page, mock)
  await submitPrompt(page, PROMPT)
  await waitForScreen(page, LAST)
  const live = await transcriptRows(page)
  // The turn drew every kind this test is about.
  for (const row of ['∴ A listing, a file, an edit.', '● Create notes.txt +2 −0', '● Edit notes.txt +1 −1']) expect(live).toContain(row)
  expect(live.some((row) => row.startsWith('● Ran printf'))).toBe(true)
  expect(live.some((row) => row.startsWith('✗ '))).toBe(true)
  await expect.poll(async () => (await savedSessions(page)).map((s) => s.active)).toEqual([false])

  await page.reload()
  await waitForTerminal(page)
  await waitForScreen(page, BANNER)
  await waitForScreen(page, `Session resumed: ${PROMPT}`)
  expect(await transcriptRows(page)).toEqual(live)
  expect(await mock.requests()).toHaveLength(2)
})
