/** /export tape: the session as a version 2 demo tape (prompts, replies, tool calls; no results). */
import { expect, test } from 'vitest'
import { createHarness } from './harness.ts'
import { modelEvents, toolCall } from './turn-helpers.ts'

type Action = { action: string; fileName: string; mimeType: string; tape?: boolean; content: string }

test('a session becomes a tape: each prompt with the model answers to it, commands as tool calls', async () => {
  const h = await createHarness()
  await h.type('count the files\r')
  h.tick(700) // the model takes 0.7 s: the tape keeps that pace
  await modelEvents(h, 1, [{ type: 'text_delta', delta: 'Counting.' }, ...toolCall(0, 'c1', 'run_command', '{"command":"ls | wc -l"}'), { type: 'finish', reason: 'tool_calls' }])
  await h.exec(h.lastOf('exec')!.id, { stdout: '3\n', stderr: '', exitCode: 0 })
  h.tick(300)
  await modelEvents(h, h.lastOf('model_request')!.id, [{ type: 'text_delta', delta: 'There are **3**.' }, { type: 'finish', reason: 'stop' }])
  await h.type('thanks "really"\r')
  await modelEvents(h, h.lastOf('model_request')!.id, [{ type: 'text_delta', delta: 'You are welcome.' }, { type: 'finish', reason: 'stop' }])

  await h.type('/export tape\r')
  const action = h.lastOf('action')!.action as Action
  expect(action).toMatchObject({ action: 'export', fileName: 'fxterm-tape.json', mimeType: 'application/json', tape: true })
  const tape = JSON.parse(action.content)
  expect(tape).toEqual({
    version: 2,
    turns: [
      {
        prompt: 'count the files',
        responses: [{ text: 'Counting.', toolCalls: [{ name: 'run_command', arguments: { command: 'ls | wc -l' } }], ms: 700 }, { text: 'There are **3**.', ms: 300 }],
      },
      { prompt: 'thanks "really"', responses: [{ text: 'You are welcome.' }] },
    ],
    fallback: expect.stringContaining('try the one suggested below'),
  })
})

test('with no prompt yet there is nothing to record', async () => {
  const h = await createHarness()
  await h.type('/export tape\r')
  expect(h.allOf('action')).toEqual([])
  expect(h.screen()).toContain('There is nothing to record yet')
})
