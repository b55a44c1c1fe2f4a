// A reply whose connection drops mid-stream is continued, not restarted: the text already on
// screen stays there once, the retried request hands it back to the model as its own partial
// answer, and the continuation is drawn right after it.
import { test, expect } from '../support/fixtures.ts'
import { openWithMock } from '../support/app.ts'
import { roleChunk, textDelta, textReply } from '../support/chunks.ts'
import { occurrences, readErrors, waitForTurnOver, wireMessages } from '../support/model-turns.ts'
import { readScreen, submitPrompt, waitForScreen } from '../support/screen.ts'

const FIRST = 'The first half arrived before the line dropped,'
const REST = ' and the second half came after the retry.'

test('a stream cut before finish_reason is retried and continued without drawing the first part twice', async ({ page, mock }) => {
  // Hold after the first text, so the spec sees it on screen; on release the socket is destroyed.
  await mock.script({ chunks: [roleChunk(), textDelta(FIRST)], holdAfter: 2, cutAfter: 2 }, { chunks: textReply(REST) })
  await openWithMock(page, mock)

  await submitPrompt(page, 'tell me in two halves')
  await waitForScreen(page, FIRST)
  expect(await mock.held()).toBe(1)
  expect(await mock.release()).toBe(1)

  await waitForScreen(page, `${FIRST}${REST}`)
  await waitForTurnOver(page)
  const screen = await readScreen(page)
  expect(occurrences(screen, FIRST), `the first half is drawn once in:\n${screen}`).toBe(1)
  expect(occurrences(screen, REST), `the continuation is drawn once in:\n${screen}`).toBe(1)
  expect(await readErrors(page), 'a continued reply is not an error line').toEqual([])

  expect((await mock.streams()).map((stream) => stream.outcome)).toEqual(['cut', 'done'])
  const requests = await mock.requests()
  expect(requests).toHaveLength(2)
  const sent = wireMessages(requests[0])
  const retried = wireMessages(requests[1])
  expect(retried.slice(0, sent.length), 'the retry keeps the history it was sent before').toEqual(sent)
  const added = retried.slice(sent.length)
  expect(added.map((message) => message.role)).toEqual(['assistant', 'user'])
  expect(added[0]?.content, 'the partial answer goes back as the assistant’s').toBe(FIRST)
  expect(added[1]?.content, 'with a note to continue it').toMatch(/continue/i)
})
