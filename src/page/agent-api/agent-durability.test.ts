import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import { fakeLocks } from '../../../test/support/locks.ts'
import { indexedDb, memory, type FxDurability } from './durability.ts'
import { linesOf, mockAgent, readLines, reply, textOf, until, useMock } from '../../../test/support/agent-api.ts'

const mock = useMock()

let n = 0
/** A namespace no other test uses: tests never share an IndexedDB database. */
const freshNamespace = () => `agent-test-${Date.now()}-${n++}`

describe('indexedDb() durability', () => {
  it('creating an agent and opening a session opens no database', async () => {
    const namespace = freshNamespace()
    const agent = mockAgent(mock, { durability: indexedDb({ namespace, locks: fakeLocks() }) })
    agent.session('untouched')
    await agent.newSessionId()
    expect((await indexedDB.databases()).map((db) => db.name)).not.toContain(`fxagent:${namespace}`)
    await agent.close()
  })

  it('stores the prompt before accepted resolves, and every line and the result with the turn', async () => {
    const namespace = freshNamespace()
    const durability = indexedDb({ namespace, locks: fakeLocks() })
    await mock.script(reply('stored reply'))
    const agent = mockAgent(mock, { durability })
    const turn = agent.session('keep').prompt('remember me', { messageId: 'k1' })
    await turn.accepted
    const atAccept = await durability.load('keep')
    expect(atAccept.record!.turns).toEqual([{ messageId: 'k1', input: 'remember me', status: 'queued' }])
    await turn.result
    await agent.close()
    const stored = await durability.load('keep')
    expect(stored.record!.turns[0]).toMatchObject({ messageId: 'k1', status: 'done', result: { stopReason: 'end_turn' } })
    expect(stored.record!.snapshot!.length).toBeGreaterThan(0)
    expect(textOf(stored.lines)).toBe('stored reply')
    expect(stored.lines.map((l) => l.cursor)).toEqual(stored.lines.map((_, i) => i + 1))
  })

  it('a reload continues an interrupted turn, telling the model, and stream(cursor) carries on after the stored lines', async () => {
    const namespace = freshNamespace()
    await mock.script({ ...reply('cut short by the reload'), holdAfter: 3 }, reply('continued'))
    const before = mockAgent(mock, { durability: indexedDb({ namespace, locks: fakeLocks() }) })
    before.session('reload').prompt('long task', { messageId: 'r1' })
    await until(async () => (await mock.held()) === 1, 'the first stream to hold')
    await until(async () => (await indexedDb({ namespace }).load('reload')).record?.turns[0]?.status === 'running', 'the turn to be stored running')

    const storedLines = (await indexedDb({ namespace }).load('reload')).lines
    expect(storedLines.slice(0, 2).map((l) => l.type)).toEqual(['turn_start', 'user_message'])
    // The page reloads: a new agent, a new lock manager (the old page's locks went with it).
    const after = mockAgent(mock, { durability: indexedDb({ namespace, locks: fakeLocks() }) })
    const session = after.session('reload')
    const repeated = session.prompt('long task', { messageId: 'r1' })
    const result = await repeated.result
    expect(result).toMatchObject({ messageId: 'r1', stopReason: 'end_turn', repeated: true })
    const all = await linesOf(repeated)
    expect(all.map((l) => l.type)).toContain('turn_resume')
    expect(all.at(-1)).toMatchObject({ type: 'turn_end', messageId: 'r1' })
    const carried = await readLines(session.stream(storedLines.length), 1)
    expect(carried[0]).toMatchObject({ type: 'turn_resume', messageId: 'r1', cursor: storedLines.length + 1 })
    const last = (await mock.requests()).at(-1)!
    expect(String(last.messages.at(-1)!.content)).toMatch(/interrupted/)
    await mock.release()
    await after.close()
  })

  it("a second tab's prompt waits behind the running turn, then sees its conversation", async () => {
    const namespace = freshNamespace()
    const locks = fakeLocks()
    await mock.script({ ...reply('tab one answer'), holdAfter: 2 }, reply('tab two answer'))
    const tabOne = mockAgent(mock, { durability: indexedDb({ namespace, locks }) })
    const tabTwo = mockAgent(mock, { durability: indexedDb({ namespace, locks }) })
    const first = tabOne.session('shared').prompt('from tab one', { messageId: 't1' })
    await until(async () => (await mock.held()) === 1, 'tab one to be streaming')
    const second = tabTwo.session('shared').prompt('from tab two', { messageId: 't2' })
    expect(locks.held()).toEqual([`fxagent-session:${namespace}:shared`])
    expect((await mock.requests()).length).toBe(1)
    await mock.release()
    expect((await first.result).stopReason).toBe('end_turn')
    expect((await second.result).stopReason).toBe('end_turn')
    const [, body] = await mock.requests()
    expect(body!.messages.slice(1).map((m) => [m.role, m.content])).toEqual([
      ['user', 'from tab one'],
      ['assistant', 'tab one answer'],
      ['user', 'from tab two'],
    ])
    // Tab two's stream has tab one's lines too, with the same cursors.
    const streamed = await readLines(tabTwo.session('shared').stream(0), 2)
    expect(streamed.map((l) => [l.cursor, l.type, l['messageId']])).toEqual([
      [1, 'turn_start', 't1'],
      [2, 'user_message', undefined],
    ])
    await tabOne.close()
    await tabTwo.close()
  })

  it('a store that fails to load fails the prompt (accepted rejects, result says why) and is tried again later', async () => {
    await mock.script(reply('after recovery'))
    const inner = memory()
    let broken = true
    const flaky: FxDurability = {
      ...inner,
      load: async (id) => {
        if (broken) throw Object.assign(new Error('IndexedDB is blocked'), { code: ErrorCode.FX_STORE_FAILED })
        return inner.load(id)
      },
    }
    const agent = mockAgent(mock, { durability: flaky })
    const session = agent.session('flaky')
    const failed = session.prompt('first', { messageId: 'f1' })
    await expect(failed.accepted).rejects.toMatchObject({ code: ErrorCode.FX_STORE_FAILED })
    expect(await failed.result).toEqual({ messageId: 'f1', stopReason: 'error', usage: { inputTokens: 0, outputTokens: 0 }, error: { code: ErrorCode.FX_STORE_FAILED, message: 'IndexedDB is blocked' } })
    expect(await linesOf(failed)).toEqual([])
    broken = false
    expect((await session.prompt('second').result).stopReason).toBe('end_turn')
    expect((await mock.requests()).map((b) => b.messages.at(-1)!.content)).toEqual(['second'])
    await agent.close()
  })
})
