// A session whose next turn runs under another model or tool set than its last goes on, and
// onEvent says what changed (the reference's checkpoint.mismatch).
import { describe, expect, it } from 'vitest'
import { memory } from './durability.ts'
import { decodeRecord, encodeRecord } from './persistence.ts'
import { decodeStoredSession, encodeStoredSession } from './session-store-durability.ts'
import { mockAgent, reply, useMock } from './test-support.ts'
import type { FxAgentEvent, FxTool } from './types.ts'

const mock = useMock()
const lookup: FxTool = { name: 'lookup', execute: () => 'found' }

describe('checkpoint.mismatch', () => {
  it('is told when the model or the tool set changes, and the session continues', async () => {
    await mock.script(reply('one'), reply('two'), reply('three'), reply('four'))
    const durability = memory()
    const events: FxAgentEvent[] = []
    const provider = { name: 'mock', baseUrl: mock.baseUrl, models: { 'mock-model': { contextWindow: 128000, supportsToolUse: true }, 'other-model': { contextWindow: 128000, supportsToolUse: true } } }
    const onEvent = (event: FxAgentEvent) => event.type === 'checkpoint.mismatch' && events.push(event)
    const first = mockAgent(mock, { durability, provider, onEvent })
    expect((await first.session('s').prompt('a').result).stopReason).toBe('end_turn')
    expect((await first.session('s').prompt('b').result).stopReason).toBe('end_turn')
    expect(events).toEqual([]) // the same model and tools: nothing to say
    expect((await first.session('s', { model: 'other-model' }).prompt('c').result).stopReason).toBe('end_turn')
    await first.close()

    const second = mockAgent(mock, { durability, provider, onEvent, model: 'other-model', tools: [lookup] })
    expect((await second.session('s').prompt('d').result).stopReason).toBe('end_turn')
    await second.close()
    expect(events).toEqual([
      { type: 'checkpoint.mismatch', sessionId: 's', changed: ['model'], was: { model: 'mock-model', tools: [] }, now: { model: 'other-model', tools: [] } },
      { type: 'checkpoint.mismatch', sessionId: 's', changed: ['tools'], was: { model: 'other-model', tools: [] }, now: { model: 'other-model', tools: ['lookup'] } },
    ])
    // The last request carried the whole conversation: the session went on.
    const last = (await mock.requests()).at(-1)!
    expect(last.messages.filter((m) => m.role === 'user').length).toBe(4)
  })

  it('what a session ran with is kept by every stored form of it', () => {
    const record = { turns: [], chunks: 0, lineCount: 0, madeWith: { model: 'm', tools: ['a', 'b'] } }
    expect(decodeRecord(encodeRecord(record)).madeWith).toEqual({ model: 'm', tools: ['a', 'b'] })
    expect(decodeStoredSession(encodeStoredSession(record, []))?.record.madeWith).toEqual({ model: 'm', tools: ['a', 'b'] })
  })
})
