// A session whose next turn runs under another model, tool set or version than its last goes on, and
// onEvent says what changed (the reference's checkpoint.mismatch).
import { describe, expect, it } from 'vitest'
import { memory } from './durability.ts'
import { decodeRecord, encodeRecord } from './persistence.ts'
import { decodeStoredSession, encodeStoredSession } from './session-store-durability.ts'
import { createFxEngine } from './create-fx-engine.ts'
import { engineModule, mockAgent, reply, useMock } from '../../../test/support/agent-api.ts'
import type { FxAgentEvent, FxTool } from '../../shared/agent-api/types.ts'
import { FXTERM_VERSION } from '../../shared/version.ts'

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
      { type: 'checkpoint.mismatch', sessionId: 's', changed: ['model'], was: { model: 'mock-model', tools: [], version: FXTERM_VERSION }, now: { model: 'other-model', tools: [], version: FXTERM_VERSION } },
      { type: 'checkpoint.mismatch', sessionId: 's', changed: ['tools'], was: { model: 'other-model', tools: [], version: FXTERM_VERSION }, now: { model: 'other-model', tools: ['lookup'], version: FXTERM_VERSION } },
    ])
    // The last request carried the whole conversation: the session went on.
    const last = (await mock.requests()).at(-1)!
    expect(last.messages.filter((m) => m.role === 'user').length).toBe(4)
  })

  it('is told when the session was last run by another fxterm version; a record without one says nothing', async () => {
    await mock.script(reply('one'), reply('two'), reply('three'))
    const durability = memory()
    const events: FxAgentEvent[] = []
    const agent = mockAgent(mock, { durability, onEvent: (event) => event.type === 'checkpoint.mismatch' && events.push(event) })
    expect((await agent.session('v').prompt('a').result).stopReason).toBe('end_turn')
    await agent.close()
    // As an older fxterm would have left it.
    const stored = await durability.load('v')
    await durability.save('v', { ...stored.record!, madeWith: { model: 'mock-model', tools: [], version: '0.0.9' } }, [])
    const next = mockAgent(mock, { durability, onEvent: (event) => event.type === 'checkpoint.mismatch' && events.push(event) })
    expect((await next.session('v').prompt('b').result).stopReason).toBe('end_turn')
    await next.close()
    expect(events).toEqual([{ type: 'checkpoint.mismatch', sessionId: 'v', changed: ['version'], was: { model: 'mock-model', tools: [], version: '0.0.9' }, now: { model: 'mock-model', tools: [], version: FXTERM_VERSION } }])
    // A record from before versions were kept.
    const again = await durability.load('v')
    await durability.save('v', { ...again.record!, madeWith: { model: 'mock-model', tools: [] } }, [])
    const third = mockAgent(mock, { durability, onEvent: (event) => event.type === 'checkpoint.mismatch' && events.push(event) })
    expect((await third.session('v').prompt('c').result).stopReason).toBe('end_turn')
    await third.close()
    expect(events.length).toBe(1)
  })

  it("createFxEngine from another model's checkpoint goes on and says so; the checkpoint keeps the prompt's image", async () => {
    await mock.script(reply('one'), reply('two'))
    const provider = { name: 'mock', baseUrl: mock.baseUrl, models: { 'mock-model': { contextWindow: 128000, supportsToolUse: true }, 'other-model': { contextWindow: 128000, supportsToolUse: true } } }
    const png = Buffer.from(Uint8Array.from({ length: 64 }, (_, i) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a][i] ?? i)).toString('base64')
    const first = await createFxEngine({ provider, model: 'mock-model', wasm: engineModule() })
    await first.prompt([{ type: 'text', text: 'look' }, { type: 'image', mimeType: 'image/png', data: png }]).result
    const checkpoint = await first.checkpoint()
    await first.close()
    const events: FxAgentEvent[] = []
    const second = await createFxEngine({ provider, model: 'other-model', wasm: engineModule(), checkpoint, onEvent: (event) => event.type === 'checkpoint.mismatch' && events.push(event) })
    expect((await second.prompt('and now?').result).stopReason).toBe('end_turn')
    await second.close()
    expect(events).toMatchObject([{ type: 'checkpoint.mismatch', changed: ['model'], was: { model: 'mock-model' }, now: { model: 'other-model' } }])
    const last = (await mock.requests()).at(-1)!
    expect(last.messages.find((m) => m.role === 'user')!.content).toEqual([{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } }])
  })

  it('what a session ran with is kept by every stored form of it', () => {
    const record = { turns: [], chunks: 0, lineCount: 0, madeWith: { model: 'm', tools: ['a', 'b'] } }
    expect(decodeRecord(encodeRecord(record)).madeWith).toEqual({ model: 'm', tools: ['a', 'b'] })
    expect(decodeStoredSession(encodeStoredSession(record, []))?.record.madeWith).toEqual({ model: 'm', tools: ['a', 'b'] })
  })
})
