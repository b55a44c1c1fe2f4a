// The agent and the terminal may be given one sessionStore. Their records differ, so each
// refuses the other's clearly and never writes over it (the terminal's side: wasm/tests/sessions.test.ts).
import { describe, expect, it } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import { memorySessionStore } from '../stores/memory-stores.ts'
import { encodeSnapshot } from '../../shared/stores/snapshot-header.ts'
import { mockAgent, useMock } from '../../../test/support/agent-api.ts'

const mock = useMock()

describe('a sessionStore shared with the terminal', () => {
  it("refuses a terminal session with FX_STORE_RECORD_INVALID and leaves its bytes as they were", async () => {
    const store = memorySessionStore()
    const terminalBytes = encodeSnapshot({ id: 'shared', title: 'from the terminal', createdMs: 1, updatedMs: 2, turns: 1, firstPrompt: 'hello' }, '{"body":1}')
    const { revision } = await store.commit('shared', terminalBytes, undefined)
    const agent = mockAgent(mock, { sessionStore: store })
    const turn = agent.session('shared').prompt('continue it')
    await expect(turn.accepted).rejects.toMatchObject({ code: ErrorCode.FX_STORE_RECORD_INVALID })
    expect((await turn.result).error?.code).toBe(ErrorCode.FX_STORE_RECORD_INVALID)
    const after = await store.load('shared')
    expect(after?.revision).toBe(revision)
    expect(after?.bytes).toEqual(terminalBytes)
    expect((await mock.requests()).length).toBe(0)
    await agent.close()
  })
})
