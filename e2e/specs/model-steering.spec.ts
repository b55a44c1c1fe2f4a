// Steering: Enter while a turn runs queues the text (the footer says so), and the next model
// request of the same turn carries it as a user message after the tool results, in the order
// typed. With no next request, the queued text becomes the next turn.
import type { Page } from '@playwright/test'
import { test, expect } from '../support/fixtures.ts'
import { openWithMock } from '../support/app.ts'
import { finish, roleChunk, runCommand, textDelta, textReply, usage } from '../support/chunks.ts'
import { readErrors, waitForRow, waitForTurnOver, wireMessages } from '../support/model-turns.ts'
import { findLine, readScreen, readViewport, submitPrompt, waitForScreen } from '../support/screen.ts'

const PROMPT = 'look around'
const OPENING = 'Let me look first.'
const CALL_ID = 'call_look_e2e'
const COMMAND = 'echo looked'
const STEERS = ['check the tests too', 'and the docs']
const REPLY = 'Looked, and read both notes.'

/** Submits `text` while the turn runs and waits for the footer to count it. */
async function steer(page: Page, text: string, queued: number): Promise<void> {
  await submitPrompt(page, text)
  await waitForRow(page, `${queued} queued · ↑ to edit`)
  expect(await readViewport(page), 'the queued text is listed in the footer').toContain(`❯ ${text}`)
}

test('two steers typed mid-stream go to the next request after the tool result, in order', async ({ page, mock }) => {
  // Held after the opening words: the turn is mid-stream while the spec types.
  await mock.script(
    { chunks: [roleChunk(), textDelta(OPENING), ...runCommand(CALL_ID, COMMAND), finish('tool_calls'), usage()], holdAfter: 2 },
    { chunks: textReply(REPLY) },
  )
  await openWithMock(page, mock)
  await submitPrompt(page, PROMPT)
  await waitForScreen(page, OPENING)
  expect(await mock.held()).toBe(1)

  await steer(page, STEERS[0]!, 1)
  await steer(page, STEERS[1]!, 2)
  expect(await mock.requests(), 'nothing is sent while the stream runs').toHaveLength(1)

  await mock.release()
  await waitForScreen(page, REPLY)
  await waitForTurnOver(page)
  expect((await readViewport(page)).some((row) => row.includes('queued')), 'the queue is empty').toBe(false)

  // On screen the steers join the transcript where they were delivered: after the command ran.
  const lines = (await readScreen(page)).split('\n')
  const order = [`❯ ${PROMPT}`, OPENING, `Ran ${COMMAND}`, `❯ ${STEERS[0]}`, `❯ ${STEERS[1]}`, REPLY].map((text) => findLine(lines, text))
  expect(order, lines.join('\n')).toEqual([...order].sort((a, b) => a - b))
  expect(order.every((at) => at >= 0), lines.join('\n')).toBe(true)
  expect(await readErrors(page)).toEqual([])

  const requests = await mock.requests()
  expect(requests).toHaveLength(2)
  const first = wireMessages(requests[0])
  expect(first.at(-1)).toEqual({ role: 'user', content: PROMPT })
  const second = wireMessages(requests[1])
  expect(second.slice(0, first.length)).toEqual(first)
  expect(second.slice(first.length).map(({ role, toolCallIds, toolCallId, content }) => ({ role, toolCallIds, toolCallId, ...(role === 'user' ? { content } : {}) }))).toEqual([
    { role: 'assistant', toolCallIds: [CALL_ID], toolCallId: undefined },
    { role: 'tool', toolCallIds: undefined, toolCallId: CALL_ID },
    { role: 'user', toolCallIds: undefined, toolCallId: undefined, content: STEERS[0] },
    { role: 'user', toolCallIds: undefined, toolCallId: undefined, content: STEERS[1] },
  ])
})

test('a steer typed during a reply that ends the turn becomes the next turn', async ({ page, mock }) => {
  await mock.script({ chunks: textReply(OPENING, ' That is all.'), holdAfter: 2 }, { chunks: textReply(REPLY) })
  await openWithMock(page, mock)
  await submitPrompt(page, PROMPT)
  await waitForScreen(page, OPENING)

  await steer(page, STEERS[0]!, 1)
  await mock.release()
  await waitForScreen(page, REPLY)
  await waitForTurnOver(page)

  const lines = (await readScreen(page)).split('\n')
  const order = [`❯ ${PROMPT}`, 'That is all.', `❯ ${STEERS[0]}`, REPLY].map((text) => findLine(lines, text))
  expect(order, lines.join('\n')).toEqual([...order].sort((a, b) => a - b))
  expect(order.every((at) => at >= 0), lines.join('\n')).toBe(true)

  const requests = await mock.requests()
  expect(requests).toHaveLength(2)
  const first = wireMessages(requests[0])
  const second = wireMessages(requests[1])
  expect(second.slice(0, first.length)).toEqual(first)
  expect(second.slice(first.length)).toEqual([
    { role: 'assistant', content: `${OPENING} That is all.` },
    { role: 'user', content: STEERS[0] },
  ])
})
