// The event types narrow as an app's code expects: checked by the type checker (npm run
// typecheck) and at run time by a real onEvent listener.
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { FxAgentEvent, FxStreamLine } from '../../shared/agent-api/types.ts'
import { linesOf, mockAgent, reply, useMock } from '../../../test/support/agent-api.ts'

const mock = useMock()

describe('event types', () => {
  it('a turn line narrows on its type: text_delta has a string delta', () => {
    const read = (line: FxStreamLine) => (line.type === 'text_delta' ? line.delta : line.type === 'turn_end' ? line.stopReason : null)
    expectTypeOf(read).returns.toEqualTypeOf<string | null>()
    expectTypeOf<Extract<FxStreamLine, { type: 'tool_end' }>['exitCode']>().toEqualTypeOf<number | undefined>()
  })

  it('an onEvent diagnostic narrows on its type, and the listener gets exactly those shapes', async () => {
    expectTypeOf<Extract<FxAgentEvent, { type: 'model.error' }>['code']>().toEqualTypeOf<string>()
    expectTypeOf<Extract<FxAgentEvent, { type: 'model.request' }>['step']>().toEqualTypeOf<number>()
    // @ts-expect-error: a type no event has
    expectTypeOf<Extract<FxAgentEvent, { type: 'text_delta' }>['delta']>().toBeString()
    await mock.script(reply('hello'))
    const seen: string[] = []
    let model = ''
    const agent = mockAgent(mock, {
      onEvent: (event) => {
        seen.push(event.type)
        if (event.type === 'model.request') model = event.model // narrowed: no cast
      },
    })
    await linesOf(agent.session('types').prompt('hi'))
    expect(seen).toEqual(['model.request', 'model.response'])
    expect(model).toBe('mock-model')
    await agent.close()
  })
})
