import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import { createInProcessWorker } from '../../page/workspace/in-process-worker.ts'
import { createAgentWorkerApi } from './agent-worker-api.ts'
import { memory } from '../../page/agent-api/durability.ts'
import { linesOf, mockAgent, reply, textOf, toolCalls, types, until, useMock } from '../../../test/support/agent-api.ts'
import type { WorkspaceAdapter } from '../../shared/protocol/workspace.ts'
import type { FxTool } from '../../shared/agent-api/types.ts'

const mock = useMock()

/** The agent's worker, served in this thread over a MessageChannel (Node has no Web Worker). */
const inProcessWorker = () => createInProcessWorker(createAgentWorkerApi())

describe('the agent in its worker', () => {
  it('streams a turn, runs page tools and ends the worker on close', async () => {
    await mock.script(toolCalls(['page_tool', '{"q":1}']), reply('from the worker'))
    let worker: ReturnType<typeof inProcessWorker> | undefined
    const pageTool: FxTool = { name: 'page_tool', execute: (input) => ({ echoed: input }) }
    const agent = mockAgent(mock, { tools: [pageTool], worker: () => (worker = inProcessWorker()) })
    const turn = agent.session('w1').prompt('go', { messageId: 'w' })
    const lines = await linesOf(turn)
    expect(types(lines)).toEqual(['turn_start', 'user_message', 'tool_start', 'tool_end', 'text_delta', 'turn_end'])
    expect(textOf(lines)).toBe('from the worker')
    expect(lines[3]).toMatchObject({ name: 'page_tool', output: '{"echoed":{"q":1}}', isError: false })
    expect(worker!.terminated).toBe(false)
    await agent.close()
    expect(worker!.terminated).toBe(true)
  })

  it("model requests from the worker go through the page's fetch option, with the key only there", async () => {
    await mock.script(reply('through the page'))
    const seen: Array<[string, string | null]> = []
    const events: string[] = []
    const agent = mockAgent(mock, {
      worker: inProcessWorker,
      provider: { name: 'mock', baseUrl: mock.baseUrl, models: { 'mock-model': {} }, apiKey: 'sk-worker-key' },
      fetch: (input, init) => {
        seen.push([String(input), new Headers(init?.headers).get('authorization')])
        return fetch(input, init)
      },
      onEvent: (event) => events.push(JSON.stringify(event)),
    })
    const turn = agent.session('w3').prompt('hi')
    expect(textOf(await linesOf(turn))).toBe('through the page')
    expect(seen).toEqual([[`${mock.baseUrl}/chat/completions`, 'Bearer sk-worker-key']])
    expect(events.join('\n')).not.toContain('sk-worker-key')
    expect(events.some((e) => e.includes('"model.request"'))).toBe(true)
    await agent.close()
  })

  it("a workspace's run_command runs in the page, in the worker's agent and without one", async () => {
    for (const worker of [inProcessWorker, false] as const) {
      await fetch(`${mock.server.url}/__reset`, { method: 'POST' })
      await mock.script(toolCalls(['run_command', '{"command":"ls"}']), reply('listed'))
      const commands: string[] = []
      const workspace: WorkspaceAdapter = {
        info: { version: 1, root: '/workspace', cwd: '/workspace', home: '/home/user', gitAvailable: false, ephemeral: true },
        permission: 'allow-sandboxed',
        exec: async ({ command }) => (commands.push(command), { stdout: 'a.txt\n', stderr: '', exitCode: 0 }),
      }
      const agent = mockAgent(mock, { worker, workspace })
      const lines = await linesOf(agent.session('ws').prompt('list'))
      expect(commands).toEqual(['ls'])
      expect(lines.filter((l) => l.type === 'tool_start' || l.type === 'tool_end').map((l) => [l.type, l['name'], l['input'] ?? l['exitCode']])).toEqual([
        ['tool_start', 'run_command', { command: 'ls' }],
        ['tool_end', 'run_command', 0],
      ])
      const [first, second] = await mock.requests()
      expect(first!.tools!.map((t) => t.function.name)).toEqual(['run_command'])
      expect(String(second!.messages.find((m) => m.role === 'tool')!.content)).toMatch(/^a\.txt/)
      await agent.close()
    }
  })

  it('an idempotent call interrupted in one worker runs again in the next', async () => {
    await mock.script(toolCalls(['lookup', '{}', 'call_w']), reply('resumed in a worker'))
    const store = memory()
    let started = false
    const crashed = mockAgent(mock, { durability: store, worker: inProcessWorker, tools: [{ name: 'lookup', idempotent: true, execute: () => ((started = true), new Promise(() => {})) }] })
    crashed.session('w2').prompt('look', { messageId: 'p' })
    await until(() => started, 'the tool to start')
    await until(async () => (await store.load('w2')).record?.turns[0]?.status === 'running', 'the step to be stored')
    const ids: string[] = []
    const restarted = mockAgent(mock, { durability: store, worker: inProcessWorker, tools: [{ name: 'lookup', idempotent: true, execute: (_i, c) => (ids.push(c.executionId), 'found') }] })
    expect(await restarted.session('w2').resume()).toMatchObject({ messageId: 'p', stopReason: 'end_turn' })
    expect(ids).toEqual(['w2:call_w'])
    await restarted.close()
  })

  it('a worker that fails to start ends the turn with FX_AGENT_WORKER_FAILED instead of hanging it', async () => {
    const broken = () => {
      const target = new EventTarget()
      return Object.assign(target, {
        postMessage() {
          target.dispatchEvent(Object.assign(new Event('error'), { message: 'agent-worker.js: 404' }))
        },
        terminate() {},
      }) as unknown as Worker
    }
    const agent = mockAgent(mock, { worker: broken })
    const turn = agent.session('broken').prompt('hi', { messageId: 'b1' })
    expect(await turn.result).toMatchObject({ messageId: 'b1', stopReason: 'error', error: { code: ErrorCode.FX_AGENT_WORKER_FAILED } })
    await agent.close()
  })
})
