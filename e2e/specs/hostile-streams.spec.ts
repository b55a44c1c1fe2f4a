// Streams that hang or lie (issue 31), each a scripted attempt by the mock model server against the
// built page: a stream of keep-alives only, a line cut in the middle, one 10 MB event, a reset
// connection, a reply that ignores `stream: true`, a 12 MB write_file, a malformed line. Each test
// asserts what the screen says and what the server received; the bait server must hear nothing.
import type { Page } from '@playwright/test'
import { hostileTest as test, expect } from '../support/bait.ts'
import { BANNER } from '../support/app.ts'
import { finish, roleChunk, textDelta, textReply, toolCallChunks, usage } from '../support/chunks.ts'
import type { MockModel } from '../support/mock-model.ts'
import { occurrences, readErrors, waitForTurnOver, wireMessages } from '../support/model-turns.ts'
import { readScreen, submitPrompt, waitForScreen, waitForTerminal } from '../support/screen.ts'

const MB = 1024 * 1024

/** Opens the page on the mock, with a short idle limit when given (the page's URL parameter). */
async function open(page: Page, mock: MockModel, streamIdleTimeoutMs?: number): Promise<void> {
  const params = new URLSearchParams({ baseUrl: mock.baseUrl, model: 'mock-model' })
  if (streamIdleTimeoutMs !== undefined) params.set('streamIdleTimeoutMs', String(streamIdleTimeoutMs))
  await page.goto(`/?${params}`)
  await waitForTerminal(page)
  await waitForScreen(page, BANNER)
}

/** A chat.completion as a server that ignores `stream: true` sends it. */
const completion = (message: Record<string, unknown>, finishReason: string) =>
  JSON.stringify({
    id: 'chatcmpl-json',
    object: 'chat.completion',
    created: 1764000000,
    model: 'mock-model',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finishReason }],
    usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
  })

const FIRST = 'The first half arrived before the line was cut,'
const REST = ' and the rest came after the retry.'

test('a stream that sends only keep-alive comments ends at the idle limit, is retried, then says so', async ({ page, mock }) => {
  test.setTimeout(120_000)
  // Six attempts (the engine's limit), each a server that sends `: keep-alive` every 100 ms forever.
  await mock.script(...Array.from({ length: 6 }, () => ({ keepAliveEveryMs: 100 })))
  await open(page, mock, 2000)
  await submitPrompt(page, 'are you there?')
  await waitForScreen(page, /gave up after 6 attempts/, 90_000)
  await waitForTurnOver(page)
  expect(await readErrors(page)).toEqual([
    `✗ ${mock.host} sent nothing for 2 s (keep-alives do not count), so the connection was treated as dropped; try again (gave up after 6 attempts).`,
  ])
  // The limit counts from the request's start, so on a busy machine an attempt may be given up
  // before the server answered it; every stream the server did answer was ended by the page.
  const streams = await mock.streams()
  expect(streams.length).toBeGreaterThanOrEqual(1)
  expect(streams.map((stream) => stream.outcome), 'no stream ended by itself').toEqual(streams.map(() => 'aborted'))
  expect(streams.every((stream) => stream.sent >= 1), 'each answered with keep-alives').toBe(true)
  expect((await mock.requests()).length).toBeLessThanOrEqual(6)
})

test('a stream cut in the middle of a line is a dropped connection: retried and continued', async ({ page, mock }) => {
  await mock.script(
    { chunks: [roleChunk(), textDelta(FIRST)], cutAfter: 2, partial: 'data: {"choices":[{"index":0,"delta":{"content":" and the' },
    { chunks: textReply(REST) },
  )
  await open(page, mock)
  await submitPrompt(page, 'tell me in two halves')
  await waitForScreen(page, `${FIRST}${REST}`)
  await waitForTurnOver(page)
  const screen = await readScreen(page)
  expect(occurrences(screen, FIRST), `the first half once in:\n${screen}`).toBe(1)
  expect(await readErrors(page), 'no malformed-line error').toEqual([])
  expect((await mock.streams()).map((stream) => stream.outcome)).toEqual(['cut', 'done'])
  const requests = await mock.requests()
  expect(requests).toHaveLength(2)
  const added = wireMessages(requests[1]).slice(wireMessages(requests[0]).length)
  expect(added.map((message) => [message.role, message.role === 'assistant' ? message.content : ''])).toEqual([
    ['assistant', FIRST],
    ['user', ''],
  ])
})

test('one 10 MB event is refused at once with a clear message, and not asked for again', async ({ page, mock }) => {
  await mock.script({ chunks: [roleChunk(), textDelta('x'.repeat(10 * MB)), finish('stop')] })
  await open(page, mock)
  await submitPrompt(page, 'send me everything at once')
  await waitForScreen(page, /larger than 4 MB/)
  await waitForTurnOver(page)
  expect(await readErrors(page)).toEqual([
    `✗ ${mock.host} sent one stream event larger than 4 MB, so the reply was refused without reading the rest; ask for the work in smaller steps (write a large file in parts).`,
  ])
  expect(await mock.requests(), 'one request: no retry').toHaveLength(1)
})

test('a connection reset after some bytes is retried and continued, without CORS advice', async ({ page, mock }) => {
  await mock.script({ chunks: [roleChunk(), textDelta(FIRST)], resetAfter: 2 }, { chunks: textReply(REST) })
  await open(page, mock)
  await submitPrompt(page, 'tell me in two halves')
  await waitForScreen(page, REST)
  await waitForTurnOver(page)
  const screen = await readScreen(page)
  expect(screen).not.toMatch(/CORS/)
  expect(await readErrors(page)).toEqual([])
  expect((await mock.streams()).map((stream) => stream.outcome)).toEqual(['reset', 'done'])
  expect(await mock.requests()).toHaveLength(2)
  // Whether the reset came before or after the page read the first half, it is on screen once.
  expect(occurrences(screen, REST)).toBe(1)
})

test('a server that ignores stream: true and answers one JSON completion is read as the reply', async ({ page, mock }) => {
  await mock.script({ status: 200, body: completion({ content: 'Answered in one JSON object.' }, 'stop') })
  await open(page, mock)
  await submitPrompt(page, 'hello')
  await waitForScreen(page, 'Answered in one JSON object.')
  await waitForTurnOver(page)
  expect(await readErrors(page)).toEqual([])
  const requests = await mock.requests()
  expect(requests).toHaveLength(1)
  expect(requests[0]?.stream).toBe(true)
})

test('a JSON completion with a tool call runs the tool, and its result goes to the next request', async ({ page, mock }) => {
  const call = { id: 'call_json', type: 'function', function: { name: 'run_command', arguments: JSON.stringify({ command: 'echo from-json-call' }) } }
  await mock.script({ status: 200, body: completion({ content: null, tool_calls: [call] }, 'tool_calls') }, { chunks: textReply('The command ran.') })
  await open(page, mock)
  await submitPrompt(page, 'run something')
  // The first command starts the shell's worker: slow on a busy machine.
  await waitForScreen(page, 'The command ran.', 45_000)
  await waitForTurnOver(page)
  expect(await readScreen(page)).toContain('echo from-json-call')
  const requests = await mock.requests()
  expect(requests).toHaveLength(2)
  const result = wireMessages(requests[1]).find((message) => message.role === 'tool')
  expect(result?.toolCallId).toBe('call_json')
  expect(result?.content).toContain('from-json-call')
})

test('a refused 12 MB write_file is kept as a placeholder, so the next request stays small', async ({ page, mock }) => {
  test.setTimeout(90_000)
  const args = { path: 'big.txt', content: 'z'.repeat(12 * MB) }
  await mock.script(
    { chunks: [roleChunk(), ...toolCallChunks({ id: 'call_big', name: 'write_file', args, pieces: 24 }), finish('tool_calls'), usage()] },
    { chunks: textReply('Understood, smaller pieces then.') },
  )
  await open(page, mock)
  await submitPrompt(page, 'write a huge file')
  await waitForScreen(page, 'Understood, smaller pieces then.', 60_000)
  await waitForTurnOver(page)
  expect(await readErrors(page)).toEqual(['✗ write_file: the content is 12.0 MB; files are written up to 10 MB. Nothing was written.'])
  const hits = (await mock.hits()).filter((hit) => hit.method === 'POST')
  expect(hits).toHaveLength(2)
  expect(hits[1]!.bytes, 'the second request is small').toBeLessThan(64 * 1024)
  const requests = await mock.requests()
  const assistant = requests[1]?.messages.find((message) => message.role === 'assistant')
  expect(assistant?.tool_calls).toEqual([
    {
      id: 'call_big',
      type: 'function',
      function: { name: 'write_file', arguments: '{"omitted":"12.0 MB of write_file arguments, not kept: refused because write_file takes at most 10 MB of content"}' },
    },
  ])
  expect(wireMessages(requests[1]).at(-1)).toEqual({
    role: 'tool',
    toolCallId: 'call_big',
    content: 'write_file: the content is 12.0 MB; files are written up to 10 MB. Nothing was written.',
  })
})

test('a whole line that is not JSON is a malformed stream: said once, not retried', async ({ page, mock }) => {
  await mock.script({ chunks: [roleChunk(), textDelta('Hi'), '{not json at all}'] })
  await open(page, mock)
  await submitPrompt(page, 'hello')
  await waitForScreen(page, /not a JSON object/)
  await waitForTurnOver(page)
  expect(await readErrors(page)).toEqual([`✗ ${mock.host} sent a stream line that is not a JSON object: "{not json at all}".`])
  expect(await mock.requests()).toHaveLength(1)
})
