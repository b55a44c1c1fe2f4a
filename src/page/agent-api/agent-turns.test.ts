import { describe, expect, it } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import { createFxAgent } from './create-fx-agent.ts'
import { linesOf, mockAgent, readLines, readUntil, reply, textOf, toolCalls, types, until, useMock } from '../../../test/support/agent-api.ts'

const mock = useMock()

describe('createFxAgent', () => {
  it('creating an agent and a session touches no network and loads no engine', async () => {
    let fetched = 0
    const agent = createFxAgent({ apiKey: 'k', fetch: async () => (fetched++, new Response('')), wasm: 'http://127.0.0.1:1/never.wasm' })
    agent.session('a-1', { model: 'x' })
    await agent.newSessionId()
    await agent.close()
    expect(fetched).toBe(0)
  })

  it('an engine.wasm that cannot be loaded ends the turn with FX_ENGINE_LOAD_FAILED', async () => {
    const agent = createFxAgent({ provider: { name: 'mock', baseUrl: mock.baseUrl, models: { m: {} } }, wasm: `${mock.server.url}/missing/engine.wasm` })
    const turn = agent.session('no-engine').prompt('hi', { messageId: 'x1' })
    expect(await turn.result).toMatchObject({ messageId: 'x1', stopReason: 'error', error: { code: ErrorCode.FX_ENGINE_LOAD_FAILED } })
    expect(types(await linesOf(turn))).toEqual(['turn_start', 'turn_end'])
    await agent.close()
  })

  it('refuses a session id outside 1-128 letters, digits, . _ -', () => {
    const agent = createFxAgent()
    expect(() => agent.session('')).toThrow(expect.objectContaining({ code: ErrorCode.FX_SESSION_ID_INVALID }))
    expect(() => agent.session('a/b')).toThrow(expect.objectContaining({ code: ErrorCode.FX_SESSION_ID_INVALID }))
    expect(() => agent.session('x'.repeat(129))).toThrow(expect.objectContaining({ code: ErrorCode.FX_SESSION_ID_INVALID }))
    expect(agent.session('Ab.9_-z').id).toBe('Ab.9_-z')
  })

  it('streams a reply as turn_start, user_message, text deltas and turn_end, and accepted resolves before result', async () => {
    await mock.script(reply('Hello there, friend.'))
    const agent = mockAgent(mock, { instructions: 'Be brief.' })
    const turn = agent.session('s1').prompt('Say hello', { messageId: 'm1' })
    const order: string[] = []
    const accepted = turn.accepted.then((a) => (order.push('accepted'), a))
    const result = turn.result.then((r) => (order.push('result'), r))
    const lines = await linesOf(turn)
    expect(await accepted).toEqual({ messageId: 'm1', sessionId: 's1' })
    expect(await result).toEqual({ messageId: 'm1', stopReason: 'end_turn', usage: { inputTokens: 12, outputTokens: 5 } })
    expect(order).toEqual(['accepted', 'result'])
    expect(types(lines)).toEqual(['turn_start', 'user_message', 'text_delta', 'turn_end'])
    expect(lines[0]).toMatchObject({ type: 'turn_start', sessionId: 's1', messageId: 'm1', cursor: 1 })
    expect(lines[1]).toMatchObject({ type: 'user_message', text: 'Say hello' })
    expect(textOf(lines)).toBe('Hello there, friend.')
    // `readable` is the same turn as NDJSON.
    const ndjson = await new Response(turn.readable).text()
    expect(ndjson.trim().split('\n').map((l) => JSON.parse(l))).toEqual(lines)
    const [sent] = await mock.requests()
    expect(sent!.messages[0]).toMatchObject({ role: 'system' })
    expect(String(sent!.messages[0]!.content)).toMatch(/^Be brief\./)
    expect(sent!.messages.at(-1)).toEqual({ role: 'user', content: 'Say hello' })
    await agent.close()
  })

  it('a prompt sent while a turn runs waits behind it', async () => {
    await mock.script({ ...reply('first reply'), holdAfter: 2 }, reply('second reply'))
    const agent = mockAgent(mock)
    const session = agent.session('queue')
    const first = session.prompt('one', { messageId: 'q1' })
    await until(async () => (await mock.held()) === 1, 'the first stream to hold')
    const second = session.prompt('two', { messageId: 'q2' })
    await second.accepted
    expect((await mock.requests()).length).toBe(1)
    await mock.release()
    expect((await first.result).stopReason).toBe('end_turn')
    expect((await second.result).stopReason).toBe('end_turn')
    const bodies = await mock.requests()
    expect(bodies.length).toBe(2)
    expect(bodies[1]!.messages.slice(1).map((m) => [m.role, m.content])).toEqual([
      ['user', 'one'],
      ['assistant', 'first reply'],
      ['user', 'two'],
    ])
    await agent.close()
  })

  it('agent.close() ends the streams that were following a session', async () => {
    await mock.script(reply('done'))
    const agent = mockAgent(mock)
    const session = agent.session('closing')
    await session.prompt('hi').result
    const text = new Response(session.stream(0)).text()
    await agent.close()
    expect((await text).trim().split('\n').map((l) => JSON.parse(l).type).at(-1)).toBe('turn_end')
  })

  it('a repeated messageId runs nothing new and follows the original turn', async () => {
    await mock.script(reply('only once'))
    const agent = mockAgent(mock)
    const session = agent.session('rep')
    const original = session.prompt('do it', { messageId: 'same' })
    const again = session.prompt('do it', { messageId: 'same' })
    const [a, b] = await Promise.all([original.result, again.result])
    expect(a).toEqual({ messageId: 'same', stopReason: 'end_turn', usage: { inputTokens: 12, outputTokens: 3 } })
    expect(b).toEqual({ ...a, repeated: true })
    expect(textOf(await linesOf(again))).toBe('only once')
    const later = await session.prompt('do it', { messageId: 'same' }).result
    expect(later.repeated).toBe(true)
    expect((await mock.requests()).length).toBe(1)
    await agent.close()
  })

  it('a prompt whose signal was already aborted is never stored or sent', async () => {
    const agent = mockAgent(mock)
    const session = agent.session('abort')
    const turn = session.prompt('never', { messageId: 'gone', signal: AbortSignal.abort() })
    expect(await turn.result).toEqual({ messageId: 'gone', stopReason: 'cancelled', usage: { inputTokens: 0, outputTokens: 0 } })
    await expect(turn.accepted).rejects.toMatchObject({ code: ErrorCode.FX_TURN_CANCELLED })
    expect(await linesOf(turn)).toEqual([])
    expect(await session.checkpoint()).toEqual(new Uint8Array(0))
    expect((await mock.requests()).length).toBe(0)
    await agent.close()
  })

  it('a prompt aborted while it waits behind another turn ends cleanly: its lines start and end, and nothing is sent', async () => {
    await mock.script({ ...reply('first reply'), holdAfter: 1 })
    const agent = mockAgent(mock)
    const session = agent.session('queued-abort')
    const first = session.prompt('first', { messageId: 'q1' })
    await until(async () => (await mock.held()) === 1, 'the first stream to hold')
    const controller = new AbortController()
    const waiting = session.prompt('second', { messageId: 'q2', signal: controller.signal })
    expect(await waiting.accepted).toEqual({ messageId: 'q2', sessionId: 'queued-abort' })
    controller.abort()
    await mock.release()
    expect((await first.result).stopReason).toBe('end_turn')
    expect(await waiting.result).toEqual({ messageId: 'q2', stopReason: 'cancelled', usage: { inputTokens: 0, outputTokens: 0 } })
    // Both readers finish on their own (before this fix they waited for agent.close()).
    expect(types(await linesOf(waiting))).toEqual(['turn_start', 'turn_end'])
    const ndjson = await new Response(waiting.readable).text()
    expect(ndjson.trim().split('\n').map((line) => (JSON.parse(line) as { type: string }).type)).toEqual(['turn_start', 'turn_end'])
    expect((await mock.requests()).length).toBe(1)
    await agent.close()
  })

  it('a prompt aborted after it was queued but before it was stored: accepted rejects and nothing is stored', async () => {
    await mock.script({ ...reply('first reply'), holdAfter: 1 })
    const agent = mockAgent(mock)
    const session = agent.session('unstored-abort')
    const first = session.prompt('first', { messageId: 'u1' })
    const controller = new AbortController()
    const second = session.prompt('second', { messageId: 'u2', signal: controller.signal })
    // Aborted in the same tick it was sent: the store has not taken it yet.
    controller.abort()
    await expect(second.accepted).rejects.toMatchObject({ code: ErrorCode.FX_TURN_CANCELLED })
    expect(await second.result).toEqual({ messageId: 'u2', stopReason: 'cancelled', usage: { inputTokens: 0, outputTokens: 0 } })
    expect(await linesOf(second)).toEqual([])
    await until(async () => (await mock.held()) === 1, 'the first stream to hold')
    await mock.release()
    await first.result
    // u2 was never stored: the same id again is a new prompt, not a repeat of a stored one.
    const third = agent.session('unstored-abort').prompt('third', { messageId: 'u2' })
    expect((await third.result).repeated).toBeUndefined()
    await agent.close()
  })

  it('cancel stops the running turn with stopReason cancelled', async () => {
    await mock.script({ ...reply('this will be cut'), holdAfter: 2 })
    const agent = mockAgent(mock)
    const session = agent.session('cancel')
    const turn = session.prompt('go', { messageId: 'c1' })
    await until(async () => (await mock.held()) === 1, 'the stream to hold')
    session.cancel()
    expect((await turn.result).stopReason).toBe('cancelled')
    expect(types(await linesOf(turn)).at(-1)).toBe('turn_end')
    await agent.close()
  })

  it('stream(cursor) resumes after every cursor with exactly the lines that follow it', async () => {
    await mock.script(toolCalls(['echo', '{"x":1}']), reply('abcdefgh', 2))
    const agent = mockAgent(mock, { tools: { echo: { execute: (input) => input } } })
    const session = agent.session('cursor')
    await session.prompt('one').result
    const all = await readUntil(session.stream(0), (l) => l.type === 'turn_end')
    expect(types(all)).toEqual(['turn_start', 'user_message', 'tool_start', 'tool_end', 'text_delta', 'turn_end'])
    expect(all.map((l) => l.cursor)).toEqual(all.map((_, i) => i + 1))
    for (let cursor = 0; cursor <= all.length; cursor++) {
      const rest = await readLines(session.stream(cursor), all.length - cursor)
      expect(rest).toEqual(all.slice(cursor))
    }
    // A reader at the end stays open and gets the next turn's lines live.
    const live = readLines(session.stream(all.length), 2)
    await session.prompt('two', { messageId: 't2' }).result
    expect((await live).map((l) => [l.cursor, l.type])).toEqual([
      [all.length + 1, 'turn_start'],
      [all.length + 2, 'user_message'],
    ])
    await agent.close()
  })
})

describe('stream logs', () => {
  it('a reader whose cursor is ahead of the log gets only the lines after it', async () => {
    const { createStreamLog } = await import('./stream-log.ts')
    const log = createStreamLog()
    log.append({ type: 'a' })
    const ahead = readLines(log.readable(3), 1)
    log.append({ type: 'b' })
    log.append({ type: 'c' })
    log.append({ type: 'd' })
    expect((await ahead).map((l) => [l.cursor, l.type])).toEqual([[4, 'd']])
  })
})
