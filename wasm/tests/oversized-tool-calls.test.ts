/**
 * A tool call refused for its size stays in the conversation as a short placeholder (tool, size,
 * why), not its arguments: the next request stays small, and so does the saved session. Calls
 * within the limits keep their arguments whole.
 */
import { describe, expect, test } from 'vitest'
import { createHarness } from './harness.ts'
import { modelEvents, toolCall } from './turn-helpers.ts'

const MB = 1024 * 1024

/** The assistant message's tool calls in the last model request. */
function sentCalls(h: Awaited<ReturnType<typeof createHarness>>) {
  const messages = h.lastOf('model_request')?.request.messages ?? []
  return messages.filter((m) => m.role === 'assistant').flatMap((m) => (m as { toolCalls?: unknown[] }).toolCalls ?? [])
}

describe('a tool call refused for its size', () => {
  test('a 12 MB write_file is refused without a workspace op and kept as a placeholder', async () => {
    const h = await createHarness({ fileTools: true })
    await h.type('write a big file\r')
    const args = JSON.stringify({ path: 'big.txt', content: 'x'.repeat(12 * MB) })
    await modelEvents(h, 1, [...toolCall(0, 'call_big', 'write_file', args, 12), { type: 'finish', reason: 'tool_calls' }])
    const why = 'write_file: the content is 12.0 MB; files are written up to 10 MB. Nothing was written.'
    expect(h.allOf('workspace_op').filter((op) => op.request.op === 'file')).toEqual([])
    expect(h.screen()).toContain('✗ write_file: the content is 12.0 MB; files are written up to 10 MB. Nothing was')
    const request = h.lastOf('model_request')!.request
    expect(request.messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'call_big', content: why })
    expect(sentCalls(h)).toEqual([
      { id: 'call_big', name: 'write_file', arguments: '{"omitted":"12.0 MB of write_file arguments, not kept: refused because write_file takes at most 10 MB of content"}' },
    ])
    expect(JSON.stringify(request).length, 'the next request is small').toBeLessThan(20_000)
  })

  test('a run_command over 64 KiB is kept as a placeholder too', async () => {
    const h = await createHarness()
    await h.type('big\r')
    const args = JSON.stringify({ command: `echo ${'y'.repeat(200 * 1024)}` })
    await modelEvents(h, 1, [...toolCall(0, 'call_cmd', 'run_command', args), { type: 'finish', reason: 'tool_calls' }])
    expect(h.allOf('exec')).toEqual([])
    expect(sentCalls(h)).toEqual([
      { id: 'call_cmd', name: 'run_command', arguments: '{"omitted":"0.2 MB of run_command arguments, not kept: refused because a command is at most 64 KiB"}' },
    ])
  })

  test('a large call within the limits keeps its arguments whole', async () => {
    const h = await createHarness({ fileTools: true })
    await h.type('write it\r')
    const args = JSON.stringify({ path: 'ok.txt', content: 'z'.repeat(MB) })
    await modelEvents(h, 1, [...toolCall(0, 'call_ok', 'write_file', args), { type: 'finish', reason: 'tool_calls' }])
    expect(h.lastOf('workspace_op')?.request).toEqual({ op: 'file', name: 'write_file', arguments: args, cwd: '/workspace', apply: true })
  })
})
