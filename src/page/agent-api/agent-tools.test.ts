import { describe, expect, it } from 'vitest'
import { memory } from './durability.ts'
import { linesOf, mockAgent, readUntil, reply, toolCalls, types, until, useMock } from '../../../test/support/agent-api.ts'
import type { FxTool } from '../../shared/agent-api/types.ts'

const mock = useMock()

const schema = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }

/** The tool messages of a request body, as [tool_call_id, content]. */
const toolMessages = (body: { messages: Array<{ role: string; content: unknown; tool_call_id?: string }> }) =>
  body.messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content])

describe('JS tools', () => {
  it('offers tools to the model and sends a string as is, anything else as JSON, and a thrown error as a failed result', async () => {
    await mock.script(toolCalls(['text', '{"id":"a"}'], ['json', '{"id":"b"}'], ['boom', '{"id":"c"}']), reply('ok'))
    const seen: Array<[string, unknown, string, string, unknown]> = []
    const tools: Record<string, Omit<FxTool, 'name'>> = {
      text: { description: 'Returns text.', inputSchema: schema, execute: (input, c) => (seen.push(['text', input, c.executionId, c.sessionId, c.context]), 'plain text') },
      json: { execute: () => ({ n: 1, list: [true] }) },
      boom: {
        execute: () => {
          throw new Error('no such order')
        },
      },
    }
    const agent = mockAgent(mock, { tools })
    const turn = agent.session('tools', { context: { userId: 7 } }).prompt('use them', { messageId: 'm1' })
    const lines = await linesOf(turn)
    expect((await turn.result).stopReason).toBe('end_turn')
    expect(seen).toEqual([['text', { id: 'a' }, 'tools:call_1', 'tools', { userId: 7 }]])
    const [first, second] = await mock.requests()
    expect(first!.tools!.map((t) => t.function)).toEqual([
      { name: 'text', description: 'Returns text.', parameters: schema },
      { name: 'json', description: '', parameters: { type: 'object' } },
      { name: 'boom', description: '', parameters: { type: 'object' } },
    ])
    expect(toolMessages(second!)).toEqual([
      ['call_1', 'plain text'],
      ['call_2', '{"n":1,"list":[true]}'],
      ['call_3', 'Error: the tool boom failed: no such order'],
    ])
    expect(lines.filter((l) => l.type === 'tool_end').map((l) => [l['name'], l['isError']])).toEqual([
      ['text', false],
      ['json', false],
      ['boom', true],
    ])
    expect(lines.find((l) => l.type === 'tool_start')).toMatchObject({ toolCallId: 'call_1', name: 'text', input: { id: 'a' }, executionId: 'tools:call_1' })
    await agent.close()
  })

  it('a result over 64 KiB reaches the model cut on a character boundary, with a marker', async () => {
    await mock.script(toolCalls(['big', '{}']), reply('ok'))
    const agent = mockAgent(mock, { tools: [{ name: 'big', execute: () => 'é'.repeat(40_000) }] })
    await agent.session('big').prompt('go').result
    const content = String(toolMessages((await mock.requests())[1]!)[0]![1])
    expect(content).toBe(`${'é'.repeat(32_768)}\n[tool result truncated: 65536 of 80000 bytes shown]`)
    await agent.close()
  })

  it('runs calls one after another, never two at once', async () => {
    await mock.script(toolCalls(['slow', '{"id":"1"}'], ['slow', '{"id":"2"}'], ['slow', '{"id":"3"}']), reply('done'))
    let running = 0
    let most = 0
    const order: string[] = []
    const slow: FxTool = {
      name: 'slow',
      async execute(input) {
        running++
        most = Math.max(most, running)
        await new Promise((resolve) => setTimeout(resolve, 5))
        order.push((input as { id: string }).id)
        running--
        return 'ok'
      },
    }
    const agent = mockAgent(mock, { tools: [slow] })
    await agent.session('seq').prompt('go').result
    expect(order).toEqual(['1', '2', '3'])
    expect(most).toBe(1)
    await agent.close()
  })

  it("cancel during a tool call aborts the tool's signal and ends the turn cancelled", async () => {
    await mock.script(toolCalls(['wait', '{}']))
    let signal: AbortSignal | undefined
    const wait: FxTool = { name: 'wait', execute: (_input, c) => ((signal = c.signal), new Promise(() => {})) }
    const agent = mockAgent(mock, { tools: [wait] })
    const session = agent.session('cancel-tool')
    const turn = session.prompt('start')
    await until(() => signal !== undefined, 'the tool to start')
    session.cancel()
    expect(await turn.result).toMatchObject({ stopReason: 'cancelled' })
    expect(signal!.aborted).toBe(true)
    expect(types(await linesOf(turn))).toEqual(['turn_start', 'user_message', 'tool_start', 'tool_end', 'turn_end'])
    await agent.close()
  })

  it('a steer joins the running turn after the tool results, before the next model request', async () => {
    await mock.script(toolCalls(['wait', '{}']), reply('steered reply'))
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let started = false
    const wait: FxTool = { name: 'wait', execute: async () => ((started = true), await gate, 'waited') }
    const agent = mockAgent(mock, { tools: [wait] })
    const session = agent.session('steer')
    const turn = session.prompt('start', { messageId: 's1' })
    await until(() => started, 'the tool to start')
    session.steer('also check the tests')
    release()
    const lines = await linesOf(turn)
    expect(types(lines)).toEqual(['turn_start', 'user_message', 'tool_start', 'tool_end', 'user_message', 'text_delta', 'turn_end'])
    expect(lines[4]).toMatchObject({ type: 'user_message', text: 'also check the tests', steer: true })
    const [, second] = await mock.requests()
    expect(second!.messages.slice(-2).map((m) => [m.role, m.content])).toEqual([
      ['tool', 'waited'],
      ['user', 'also check the tests'],
    ])
    await agent.close()
  })

  it('a steer that arrives as the turn ends becomes a turn of its own, and a queued prompt waits for it', async () => {
    await mock.script({ ...reply('first'), holdAfter: 1 }, reply('steer answer'), reply('third'))
    const agent = mockAgent(mock)
    const session = agent.session('late-steer')
    const first = session.prompt('one', { messageId: 'a' })
    await until(async () => (await mock.held()) === 1, 'the first reply to hold')
    session.steer('by the way')
    const third = session.prompt('three', { messageId: 'c' })
    await third.accepted
    await mock.release()
    expect((await first.result).stopReason).toBe('end_turn')
    expect((await third.result).stopReason).toBe('end_turn')
    const lines = await readUntil(session.stream(0), (l) => l.type === 'turn_end' && l['messageId'] === 'c')
    const starts = lines.filter((l) => l.type === 'turn_start').map((l) => l['messageId'])
    expect(starts).toHaveLength(3)
    expect([starts[0], starts[2]]).toEqual(['a', 'c'])
    expect(lines.filter((l) => l.type === 'user_message').map((l) => l['text'])).toEqual(['one', 'by the way', 'three'])
    const bodies = await mock.requests()
    expect(bodies.map((b) => b.messages.at(-1)!.content)).toEqual(['one', 'by the way', 'three'])
    await agent.close()
  })

  it('a prompt sent while resume() continues a turn waits for it, and the turn continues once', async () => {
    await mock.script(toolCalls(['lookup', '{}', 'call_q']), reply('resumed'), reply('next'))
    const store = memory()
    let started = false
    const crashed = mockAgent(mock, { durability: store, tools: [{ name: 'lookup', idempotent: true, execute: () => ((started = true), new Promise(() => {})) }] })
    crashed.session('race').prompt('first', { messageId: 'r1' })
    await until(() => started, 'the tool to start')
    await until(async () => (await store.load('race')).record?.turns[0]?.status === 'running', 'the step to be stored')
    let runs = 0
    const restarted = mockAgent(mock, { durability: store, tools: [{ name: 'lookup', idempotent: true, execute: () => (runs++, 'found') }] })
    const session = restarted.session('race')
    const resumed = session.resume()
    const next = session.prompt('second', { messageId: 'r2' })
    expect(await resumed).toMatchObject({ messageId: 'r1', stopReason: 'end_turn' })
    expect(await next.result).toMatchObject({ messageId: 'r2', stopReason: 'end_turn' })
    expect(runs).toBe(1)
    expect((await mock.requests()).map((b) => b.messages.at(-1)!.content)).toEqual(['first', expect.stringMatching(/interrupted/), 'second'])
    await restarted.close()
  })

  it('after an interruption an idempotent call runs again with the same executionId, another is reported as may have partly run', async () => {
    for (const idempotent of [true, false]) {
      await fetch(`${mock.server.url}/__reset`, { method: 'POST' })
      await mock.script(toolCalls(['charge', '{"id":"o1"}', 'call_x']), reply('after restart'))
      const store = memory()
      const calls: string[] = []
      let started = false
      // The first page's tool never finishes: the page "crashes" while it runs.
      const hanging: FxTool = { name: 'charge', idempotent, execute: (_input, c) => ((started = true), calls.push(c.executionId), new Promise(() => {})) }
      const crashed = mockAgent(mock, { tools: [hanging], durability: store })
      crashed.session('crash').prompt('charge it', { messageId: 'p1' })
      await until(() => started, 'the tool to start')
      await until(async () => (await store.load('crash')).record?.turns[0]?.status === 'running', 'the step to be stored')

      const finishing: FxTool = { name: 'charge', idempotent, execute: (_input, c) => (calls.push(c.executionId), 'charged') }
      const restarted = mockAgent(mock, { tools: [finishing], durability: store })
      const session = restarted.session('crash')
      const result = await session.resume()
      expect(result).toMatchObject({ messageId: 'p1', stopReason: 'end_turn' })
      const lines = await linesOfStream(session)
      expect(lines.filter((l) => l.type === 'turn_resume')).toEqual([expect.objectContaining({ sessionId: 'crash', messageId: 'p1' })])
      const bodies = await mock.requests()
      const last = bodies.at(-1)!
      if (idempotent) {
        expect(calls).toEqual(['crash:call_x', 'crash:call_x'])
        expect(toolMessages(last)).toEqual([['call_x', 'charged']])
      } else {
        expect(calls).toEqual(['crash:call_x'])
        expect(String(toolMessages(last)[0]![1])).toMatch(/may have partly run/)
      }
      expect(String(last.messages.at(-1)!.content)).toMatch(/interrupted/)
      await restarted.close()
    }
  })
})

/** A session's lines through stream(0), up to the turn_end that follows its turn_resume. */
async function linesOfStream(session: { stream(cursor?: number): ReadableStream<Uint8Array> }) {
  const lines: Array<{ type: string } & Record<string, unknown>> = []
  const reader = session.stream(0).pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>).getReader()
  let text = ''
  while (!(lines.some((l) => l.type === 'turn_resume') && lines.at(-1)?.type === 'turn_end')) {
    const step = await reader.read()
    if (step.done) break
    text += step.value
    const parts = text.split('\n')
    text = parts.pop()!
    lines.push(...parts.map((l) => JSON.parse(l)))
  }
  await reader.cancel()
  return lines
}

describe('run_command with no workspace', () => {
  it('the model asking for it gets tool_start and a failed tool_end, like any failed tool', async () => {
    await mock.script(toolCalls(['run_command', '{"command":"ls"}']), reply('No workspace here.'))
    const agent = mockAgent(mock, { worker: false })
    const lines = await linesOf(agent.session('no-workspace').prompt('What is here?'))
    await agent.close()
    const why = 'No workspace is available, so commands cannot run.'
    expect(lines.filter((l) => l.type.startsWith('tool_')).map(({ cursor: _c, ...line }) => line)).toEqual([
      { type: 'tool_start', name: 'run_command', input: { command: 'ls' } },
      { type: 'tool_end', name: 'run_command', output: why, isError: true },
    ])
    expect(toolMessages((await mock.requests())[1]!)).toEqual([['call_1', why]])
  })
})
