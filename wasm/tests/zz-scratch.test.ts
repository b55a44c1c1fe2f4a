import { test } from 'vitest'
import { createHarness } from './harness.ts'
test('x', async () => {
  const h = await createHarness({ cols: 72, rows: 20 })
  await h.type('hello\r')
  await h.model(1, { type: 'tool_call_start', index: 0, id: 'a', name: 'run_command' })
  await h.model(1, { type: 'tool_call_delta', index: 0, delta: '{"command":"ls"}' })
  await h.model(1, { type: 'finish', reason: 'tool_calls' })
  await h.exec(2, { stdout: 'x', stderr: '', exitCode: 0 })
  await h.type('queued prompt\r')
  console.log(JSON.stringify(h.effects.slice(-3)))
  await h.type('\x1b')
  console.log(JSON.stringify(h.effects.slice(-4)))
  await h.type('/exit\r')
  console.log(JSON.stringify(h.effects.slice(-4)))
  console.log(h.screen())
})
