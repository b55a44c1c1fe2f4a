// One model response that calls two tools at once: the page runs them one after another in the
// model's order, shows each under its own "Ran" row, and sends both results back in that order.
import { test, expect } from '../support/fixtures.ts'
import { openWithMock } from '../support/app.ts'
import { finish, roleChunk, textReply, toolCallChunks, usage } from '../support/chunks.ts'
import { occurrences, readErrors, waitForTurnOver, wireMessages } from '../support/model-turns.ts'
import { findLine, readScreen, submitPrompt, waitForScreen } from '../support/screen.ts'
import { readWorkspaceFile } from '../support/workspace.ts'

// Each command also appends to a file, so the file says in which order they really ran.
const FIRST = { id: 'call_first_e2e', command: 'echo one | tee -a order.txt' }
const SECOND = { id: 'call_second_e2e', command: 'echo two | tee -a order.txt' }
const REPLY = 'Both commands ran, one and then two.'

test('two tool calls in one response run in order and their results go back in the model’s order', async ({ page, mock }) => {
  await mock.script(
    {
      chunks: [
        roleChunk(),
        ...toolCallChunks({ id: FIRST.id, name: 'run_command', args: { command: FIRST.command }, index: 0, pieces: 4 }),
        ...toolCallChunks({ id: SECOND.id, name: 'run_command', args: { command: SECOND.command }, index: 1, pieces: 4 }),
        finish('tool_calls'),
        usage(),
      ],
    },
    { chunks: textReply(REPLY) },
  )
  await openWithMock(page, mock)

  await submitPrompt(page, 'run both')
  await waitForScreen(page, REPLY)
  await waitForTurnOver(page)

  // On screen: each command once, its output under it (`└  one`), then the reply.
  const screen = await readScreen(page)
  const lines = screen.split('\n')
  expect(occurrences(screen, `Ran ${FIRST.command}`), screen).toBe(1)
  expect(occurrences(screen, `Ran ${SECOND.command}`), screen).toBe(1)
  const ranFirst = findLine(lines, `Ran ${FIRST.command}`)
  const outFirst = findLine(lines, /^\s+(└\s+)?one$/, ranFirst + 1)
  const ranSecond = findLine(lines, `Ran ${SECOND.command}`)
  const outSecond = findLine(lines, /^\s+(└\s+)?two$/, ranSecond + 1)
  const reply = findLine(lines, REPLY)
  expect([ranFirst < outFirst, outFirst < ranSecond, ranSecond < outSecond, outSecond < reply], screen).toEqual([true, true, true, true])
  expect(await readErrors(page)).toEqual([])

  // In the workspace: the first command ran before the second.
  expect(await readWorkspaceFile(page, 'order.txt')).toBe('one\ntwo\n')

  // On the wire: the second request ends with the assistant's two calls, then their results in the same order.
  const requests = await mock.requests()
  expect(requests).toHaveLength(2)
  const sent = wireMessages(requests[0])
  const followUp = wireMessages(requests[1])
  expect(followUp.slice(0, sent.length), 'the follow-up keeps the history it was sent before').toEqual(sent)
  const added = followUp.slice(sent.length)
  expect(added.map(({ role, toolCallIds, toolCallId }) => ({ role, toolCallIds, toolCallId }))).toEqual([
    { role: 'assistant', toolCallIds: [FIRST.id, SECOND.id], toolCallId: undefined },
    { role: 'tool', toolCallIds: undefined, toolCallId: FIRST.id },
    { role: 'tool', toolCallIds: undefined, toolCallId: SECOND.id },
  ])
  expect(added[1]?.content).toContain('one')
  expect(added[1]?.content).not.toContain('two')
  expect(added[2]?.content).toContain('two')
  const calls = (requests[1]?.messages[sent.length]?.tool_calls ?? []) as Array<{ function?: { name?: string; arguments?: string } }>
  expect(calls.map((call) => [call.function?.name, JSON.parse(call.function?.arguments ?? 'null')])).toEqual([
    ['run_command', { command: FIRST.command }],
    ['run_command', { command: SECOND.command }],
  ])
})
