// The 30 s command limit is the host's, not only the bundled workspace's: an app's own adapter
// that ignores `timeoutMs` and its signal still ends at the deadline, its signal aborted, and the
// model is told the command timed out.
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { WorkspaceAdapter } from '../../shared/protocol/workspace.ts'
import { runClockUntil, useFakeClock } from '../../../test/support/clock.ts'
import { EXEC_DEADLINE_GRACE_MS } from '../../engine-worker/host/engine-host-core.ts'
import { linesOf, mockAgent, reply, toolCalls, useMock } from '../../../test/support/agent-api.ts'

const mock = useMock()
afterEach(() => vi.useRealTimers())

describe('the command limit', () => {
  it('aborts an adapter that ignores its deadline and reports a timeout to the model', async () => {
    await mock.script(toolCalls(['run_command', '{"command":"sleep forever"}']), reply('it timed out'))
    let seen: { timeoutMs: number; signal: AbortSignal } | null = null
    const workspace: WorkspaceAdapter = {
      info: { version: 1, root: '/workspace', cwd: '/workspace', home: '/home/user', gitAvailable: false, ephemeral: true },
      permission: 'allow-sandboxed',
      // Never answers, whatever its signal says.
      exec: ({ timeoutMs, signal }) => {
        seen = { timeoutMs, signal: signal! }
        return new Promise(() => {})
      },
    }
    const agent = mockAgent(mock, { workspace })
    useFakeClock()
    const turn = agent.session('limit').prompt('run it')
    const { value: result, clockMs } = await runClockUntil(turn.result, 250, 120_000)
    vi.useRealTimers()
    expect(result.stopReason).toBe('end_turn')
    expect(seen!.signal.aborted).toBe(true)
    // Not before the limit and its grace, on a clock that only the test moves.
    expect(clockMs).toBeGreaterThanOrEqual(seen!.timeoutMs + EXEC_DEADLINE_GRACE_MS)
    const toolEnd = (await linesOf(turn)).find((line) => line.type === 'tool_end')
    expect(toolEnd?.['exitCode']).toBe(124)
    const toolMessage = (await mock.requests())[1]!.messages.find((m) => m.role === 'tool')
    expect(String(toolMessage!.content)).toContain('fxterm: command timed out after 30 s: the workspace did not stop it')
    await agent.close()
  })
})
