// A rate-limited request is retried by itself: the activity row counts down the server's
// Retry-After, the same request goes out again, and the reply shows as if nothing had happened.
import { test, expect } from '../support/fixtures.ts'
import { openWithMock } from '../support/app.ts'
import { textReply } from '../support/chunks.ts'
import { readErrors, waitForRow, waitForTurnOver } from '../support/model-turns.ts'
import { readScreen, readViewport, submitPrompt, waitForScreen } from '../support/screen.ts'

const RATE_LIMITED = JSON.stringify({ error: { message: 'Rate limit reached for requests', type: 'rate_limit_exceeded' } })
const RETRY_ROW = '⚠ Rate limited · retrying in 1s · attempt 2/6'
const REPLY = 'Answered on the second attempt.'

test('a 429 with Retry-After shows the retry row, waits that long, and the retried request answers', async ({ page, mock }) => {
  await mock.script({ status: 429, body: RATE_LIMITED, headers: { 'retry-after': '1' } }, { chunks: textReply(REPLY) })
  await openWithMock(page, mock)

  await submitPrompt(page, 'are you there?')
  await waitForRow(page, RETRY_ROW)
  expect(await readScreen(page), 'no reply before the retry').not.toContain(REPLY)

  await waitForScreen(page, REPLY)
  await waitForTurnOver(page)
  expect((await readViewport(page)).some((row) => row.includes('retrying')), 'the retry row is gone').toBe(false)
  expect(await readErrors(page), 'a retried failure is not an error line').toEqual([])

  // The server got the same request twice, the second a Retry-After later (the engine's own
  // first backoff is 250 ms, so a 1 s gap means the header was honoured).
  const requests = await mock.requests()
  expect(requests).toHaveLength(2)
  expect(requests[1]).toEqual(requests[0])
  const posts = (await mock.hits()).filter((hit) => hit.method === 'POST')
  expect(posts).toHaveLength(2)
  expect((posts[1]?.atMs ?? 0) - (posts[0]?.atMs ?? 0)).toBeGreaterThanOrEqual(950)
})
