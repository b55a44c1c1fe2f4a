import { describe, expect, it } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import { createFxEngine, type FxEngineOptions } from './create-fx-engine.ts'
import { createMemoryPersistence, FxFencedError } from './persistence.ts'
import { engineModule, reply, textOf, toolCalls, until, useMock } from '../../../test/support/agent-api.ts'
import type { FxAgentEvent, FxLogLine } from '../../shared/agent-api/types.ts'

const mock = useMock()

const options = (extra: Partial<FxEngineOptions> = {}): FxEngineOptions => ({
  provider: { name: 'mock', baseUrl: mock.baseUrl, models: { 'mock-model': {} } },
  model: 'mock-model',
  wasm: engineModule(),
  ...extra,
})

describe('createFxEngine', () => {
  it('a checkpoint round trip continues the same conversation in a new engine', async () => {
    await mock.script(reply('Paris.'), reply('About two million.'))
    const first = await createFxEngine(options())
    const lines: FxLogLine[] = []
    for await (const line of first.prompt('Capital of France?')) lines.push(line)
    expect(textOf(lines)).toBe('Paris.')
    const checkpoint = await first.checkpoint()
    await first.close()
    expect(checkpoint.length).toBeGreaterThan(0)

    const second = await createFxEngine(options({ checkpoint }))
    expect((await second.prompt('Its population?').result).stopReason).toBe('end_turn')
    const [, body] = await mock.requests()
    expect(body!.messages.slice(1).map((m) => [m.role, m.content])).toEqual([
      ['user', 'Capital of France?'],
      ['assistant', 'Paris.'],
      ['user', 'Its population?'],
    ])
    // The restored engine's checkpoint holds both turns and restores again.
    const again = await createFxEngine(options({ checkpoint: await second.checkpoint() }))
    await mock.script(reply('ok'))
    await again.prompt('Thanks').result
    expect((await mock.requests())[2]!.messages.length).toBe(6)
    await second.close()
    await again.close()
  })

  it('breaking out of a turn cancels it, and the turn has cancel and steer', async () => {
    await mock.script({ ...reply('a long reply that is held'), holdAfter: 2 })
    const engine = await createFxEngine(options())
    const turn = engine.prompt('go')
    for await (const line of turn) if (line.type === 'text_delta') break
    expect((await turn.result).stopReason).toBe('cancelled')
    expect(typeof turn.cancel).toBe('function')
    expect(typeof turn.steer).toBe('function')
    await engine.close()
  })

  it('records every step in persistence, and an append with a stale cursor is fenced', async () => {
    const store = createMemoryPersistence()
    await expect(store.append({ expected: 'nope', idempotencyKey: 'k', data: new Uint8Array(1) })).rejects.toBeInstanceOf(FxFencedError)

    await mock.script(reply('one'), reply('two'), reply('three'))
    const events: FxAgentEvent[] = []
    const a = await createFxEngine(options({ persistence: store, onEvent: (e) => events.push(e) }))
    await a.prompt('first').result
    const afterA = store.records.length
    expect(afterA).toBeGreaterThanOrEqual(2) // stored before it ran, then each step

    const b = await createFxEngine(options({ persistence: store }))
    expect((await b.prompt('second').result).stopReason).toBe('end_turn')
    const afterB = store.records.length
    expect(afterB).toBeGreaterThan(afterA)

    // A still thinks the last cursor is its own: its next write is refused.
    const stale = a.prompt('third')
    await until(() => events.some((e) => e.type === 'persistence.fenced'), 'the fence')
    expect(store.records.length).toBe(afterB)
    expect(await stale.result).toMatchObject({ stopReason: 'error', error: { code: ErrorCode.FX_FENCED } })
    expect(() => a.prompt('fourth')).toThrow(FxFencedError)
    expect((await mock.requests()).length).toBe(2)
    await a.close()
    await b.close()
  })

  it('a new engine on the same persistence resumes a turn the last one left open', async () => {
    const store = createMemoryPersistence()
    await mock.script(toolCalls(['lookup', '{"id":"1"}']), reply('found it'))
    let started = false
    const crashed = await createFxEngine(
      options({ persistence: store, tools: [{ name: 'lookup', idempotent: true, execute: () => ((started = true), new Promise(() => {})) }] }),
    )
    void crashed.prompt('look it up')
    await until(() => started, 'the tool to start')
    const resumed = await createFxEngine(options({ persistence: store, tools: [{ name: 'lookup', idempotent: true, execute: () => 'record 1' }] }))
    expect(await resumed.resume()).toMatchObject({ stopReason: 'end_turn' })
    const last = (await mock.requests()).at(-1)!
    expect(last.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['record 1'])
    await resumed.close()
  })

  it('resume asks onAmbiguous about a non-idempotent call that was running, and reruns it when told to', async () => {
    for (const answer of ['rerun', 'report'] as const) {
      await fetch(`${mock.server.url}/__reset`, { method: 'POST' })
      const store = createMemoryPersistence()
      await mock.script(toolCalls(['refund', '{"id":"o9"}', 'call_r']), reply('done'))
      const calls: string[] = []
      let started = false
      const crashed = await createFxEngine(options({ persistence: store, tools: [{ name: 'refund', execute: (_i, c) => ((started = true), calls.push(c.executionId), new Promise(() => {})) }] }))
      void crashed.prompt('refund o9')
      await until(() => started, 'the tool to start')
      const asked: unknown[] = []
      const resumed = await createFxEngine(options({ persistence: store, tools: [{ name: 'refund', execute: (_i, c) => (calls.push(c.executionId), 'refunded') }] }))
      const result = await resumed.resume({ onAmbiguous: (call) => (asked.push(call), answer) })
      expect(result).toMatchObject({ stopReason: 'end_turn' })
      expect(asked).toEqual([{ name: 'refund', input: { id: 'o9' }, executionId: 'engine:call_r' }])
      const tool = (await mock.requests()).at(-1)!.messages.find((m) => m.role === 'tool')!
      if (answer === 'rerun') {
        expect(calls).toEqual(['engine:call_r', 'engine:call_r'])
        expect(tool.content).toBe('refunded')
      } else {
        expect(calls).toEqual(['engine:call_r'])
        expect(String(tool.content)).toMatch(/may have partly run/)
      }
      await resumed.close()
    }
  })
})
