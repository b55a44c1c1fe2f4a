import { describe, expect, it } from 'vitest'
import { memoryConfigStore, memorySessionStore } from '../stores/memory-stores.ts'
import { createInProcessWorker } from '../workspace/in-process-worker.ts'
import { MAX_LIVE_ENGINES } from './agent-env.ts'
import { createAgentWorkerApi } from '../../engine-worker/agent/agent-worker-api.ts'
import { createFxAgent } from './create-fx-agent.ts'
import { engineModule, mockAgent, readUntil, reply, toolCalls, useMock } from '../../../test/support/agent-api.ts'

const mock = useMock()

describe('agent options', () => {
  it("a session's model and effort go on the wire, and its instructions replace the agent's", async () => {
    await mock.script(reply('one'), reply('two'))
    const agent = mockAgent(mock, { instructions: 'Agent-wide.', provider: { name: 'mock', baseUrl: mock.baseUrl, models: { 'mock-model': {}, other: {} } } })
    await agent.session('s').prompt('first').result
    await agent.session('s', { model: { id: 'other', effort: 'high' }, instructions: 'Reviewer.' }).prompt('second').result
    const [first, second] = (await mock.requests()) as Array<{ model: string; reasoning_effort?: string; messages: Array<{ content: unknown }> }>
    expect([first!.model, first!.reasoning_effort, String(first!.messages[0]!.content).split('\n')[0]]).toEqual(['mock-model', undefined, 'Agent-wide.'])
    expect([second!.model, second!.reasoning_effort, String(second!.messages[0]!.content).split('\n')[0]]).toEqual(['other', 'high', 'Reviewer.'])
    // The same conversation: the second engine was restored from the first's snapshot.
    expect(second!.messages.slice(1).map((m) => m.content)).toEqual(['first', 'one', 'second'])
    await agent.close()
  })

  it('maxSteps stops a turn after that many model requests (max_model_turns)', async () => {
    await mock.script(toolCalls(['again', '{}']), toolCalls(['again', '{}']))
    const agent = mockAgent(mock, { maxSteps: 1, tools: [{ name: 'again', execute: () => 'ok' }] })
    expect(await agent.session('steps').prompt('loop').result).toMatchObject({ stopReason: 'max_model_turns' })
    expect(await mock.requests()).toHaveLength(1)
    await agent.close()
  })

  it("without a model option, the configStore's model setting is used", async () => {
    await mock.script(reply('ok'))
    const configStore = memoryConfigStore()
    await configStore.set('model', 'stored-model')
    const agent = createFxAgent({ provider: { name: 'mock', baseUrl: mock.baseUrl }, configStore, wasm: engineModule() })
    await agent.session('c').prompt('hi').result
    expect(((await mock.requests())[0] as { model: string }).model).toBe('stored-model')
    await agent.close()
  })

  it('keeps sessions in a reference sessionStore when no durability is given', async () => {
    await mock.script(reply('kept'), reply('again'))
    const sessionStore = memorySessionStore()
    const first = mockAgent(mock, { sessionStore })
    await first.session('kept').prompt('remember', { messageId: 'k1' }).result
    await first.close()
    expect(await sessionStore.load('kept')).toMatchObject({ revision: expect.any(String) })

    const second = mockAgent(mock, { sessionStore })
    const session = second.session('kept')
    expect((await session.prompt('remember', { messageId: 'k1' }).result).repeated).toBe(true)
    const stored = await readUntil(session.stream(0), (l) => l.type === 'turn_end')
    expect(stored[0]).toMatchObject({ type: 'turn_start', messageId: 'k1', cursor: 1 })
    await session.prompt('more').result
    expect((await mock.requests())[1]!.messages.slice(1).map((m) => m.content)).toEqual(['remember', 'kept', 'more'])
    await second.close()
  })

  it.each([
    ['in this thread', () => ({ worker: false as const })],
    ['in its worker', () => ({ worker: () => createInProcessWorker(createAgentWorkerApi()) })],
  ])('streamIdleTimeoutMs cuts off a keep-alive-only stream, and the retry answers (%s)', async (_where, where) => {
    // The first attempt sends only keep-alive comments; at the limit it counts as dropped and is retried.
    await mock.script({ keepAliveEveryMs: 20 }, reply('after the stall'))
    const agent = mockAgent(mock, { streamIdleTimeoutMs: 1_000, ...where() })
    expect(await agent.session('idle').prompt('hello').result).toMatchObject({ stopReason: 'end_turn' })
    const streams = (await (await fetch(`${mock.server.url}/__streams`)).json()) as Array<{ outcome: string }>
    expect(streams.map((stream) => stream.outcome)).toEqual(['aborted', 'done'])
    await agent.close()
  })

  it('an agent keeps at most MAX_LIVE_ENGINES engines; a session whose engine was let go continues from its snapshot', async () => {
    const count = MAX_LIVE_ENGINES + 2
    await mock.script(...Array.from({ length: count + 1 }, (_, i) => reply(`answer ${i}`)))
    // Engines booted, counted in the agent's worker (served in this thread).
    const api = createAgentWorkerApi()
    let booted = 0
    const create = api.create.bind(api)
    api.create = (...args) => ((booted += 1), create(...args))
    const agent = mockAgent(mock, { worker: () => createInProcessWorker(api) })
    for (let i = 0; i < count; i++) await agent.session(`many-${i}`).prompt(`question ${i}`).result
    expect(booted).toBe(count)
    await agent.session('many-0').prompt('follow-up').result
    expect(booted).toBe(count + 1) // many-0's engine had been let go
    const last = (await mock.requests()).at(-1)!
    expect(last.messages.slice(1).map((m) => m.content)).toEqual(['question 0', 'answer 0', 'follow-up'])
    await agent.close()
  })
})
