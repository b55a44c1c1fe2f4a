// The engine booted headless for the agent API: no terminal output and no spinner, host tools
// offered to the model and run through tool-call / tool-result frames, prompts, steers and
// cancels through the agent frame (wasm/ABI.md, "The agent API").
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { ModelRequest } from '../../src/shared/protocol/model-events.ts'
import { AGENT_SUB, type EngineEffect } from '../../src/shared/messages/engine-frames.ts'
import { instantiateEngine } from '../../src/engine-worker/host/engine-instance.ts'

const module = new WebAssembly.Module(readFileSync(fileURLToPath(new URL('../../public/engine.wasm', import.meta.url))))
const TOOL = { name: 'get_order', description: 'Look up an order.', parameters: '{"type":"object","properties":{"id":{"type":"string"}}}', idempotent: false }

async function headless() {
  const engine = await instantiateEngine(module)
  const effects: EngineEffect[] = []
  const take = (list: EngineEffect[]) => (effects.push(...list), list)
  take(engine.boot({ cols: 80, rows: 24, seed: 1, provider: 'mock', providers: [{ name: 'mock', label: 'mock', model: 'm' }], model: 'm', tools: false, cwd: '/', notices: [], args: [], sessions: true, headless: true, systemPrompt: 'You answer orders.', hostTools: [TOOL] }, 1000))
  return {
    engine,
    effects,
    take,
    requests: () => effects.flatMap((e) => (e.kind === 'model_request' ? [{ id: e.id, request: e.request }] : [])),
    events: () => effects.flatMap((e) => (e.kind === 'event' ? [e.event] : [])),
    last: <K extends EngineEffect['kind']>(kind: K) => effects.filter((e) => e.kind === kind).at(-1) as Extract<EngineEffect, { kind: K }>,
  }
}

/** A reply that calls get_order, fed as the provider would. */
function callTool(h: Awaited<ReturnType<typeof headless>>, requestId: number) {
  h.take(h.engine.modelEvent(requestId, { type: 'tool_call_start', index: 0, id: 'call_1', name: 'get_order' }, 1001))
  h.take(h.engine.modelEvent(requestId, { type: 'tool_call_delta', index: 0, delta: '{"id":"7"}' }, 1001))
  h.take(h.engine.modelEvent(requestId, { type: 'tool_call_end', index: 0 }, 1001))
  h.take(h.engine.modelEvent(requestId, { type: 'finish', reason: 'tool_calls' }, 1001))
}

const system = (request: ModelRequest) => String(request.messages[0]!.content)

describe('headless engine', () => {
  it('writes nothing to a terminal and sets no spinner timer, and offers host tools with the given system prompt', async () => {
    const h = await headless()
    h.take(h.engine.agent(AGENT_SUB.prompt, 'Where is order 7?', 1000))
    const { request } = h.requests()[0]!
    expect(system(request)).toMatch(/^You answer orders\.\n\n<turn_context>\ndate: 1970-01-01\n<\/turn_context>$/)
    expect(request.tools).toEqual([{ name: 'get_order', description: 'Look up an order.', parameters: { type: 'object', properties: { id: { type: 'string' } } } }])
    expect(request.messages.at(-1)).toEqual({ role: 'user', content: 'Where is order 7?' })
    expect(h.events()).toEqual([{ type: 'turn_start' }])
    expect(h.effects.filter((e) => e.kind === 'write' || e.kind === 'echo_hint' || e.kind === 'timer_set')).toEqual([])
    expect(h.effects.some((e) => e.kind === 'session_commit')).toBe(true)
  })

  it('asks the host to run a tool call and sends its result to the model; a steer follows the result', async () => {
    const h = await headless()
    h.take(h.engine.agent(AGENT_SUB.prompt, 'Where is order 7?', 1000))
    callTool(h, h.requests()[0]!.id)
    const call = h.last('tool_call')
    expect(call.call).toEqual({ callId: 'call_1', name: 'get_order', arguments: '{"id":"7"}', rerun: false })
    h.take(h.engine.agent(AGENT_SUB.steer, 'And order 8?', 1002))
    expect(h.requests()).toHaveLength(1)
    h.take(h.engine.toolResult(call.id, '{"status":"shipped"}', 1003))
    const next = h.requests()[1]!.request
    expect(next.messages.slice(-2)).toEqual([
      { role: 'tool', toolCallId: 'call_1', content: '{"status":"shipped"}' },
      { role: 'user', content: 'And order 8?' },
    ])
    expect(h.effects.filter((e) => e.kind === 'write')).toEqual([])
  })

  it('cancel while a host tool runs cancels the call, answers it and ends the turn cancelled; a late result is ignored', async () => {
    const h = await headless()
    h.take(h.engine.agent(AGENT_SUB.prompt, 'Where is order 7?', 1000))
    callTool(h, h.requests()[0]!.id)
    const call = h.last('tool_call')
    h.take(h.engine.agent(AGENT_SUB.cancel, '', 1002))
    expect(h.last('tool_cancel')).toEqual({ kind: 'tool_cancel', id: call.id })
    expect(h.events().at(-1)).toEqual({ type: 'turn_end', stopReason: 'cancelled' })
    const requestsBefore = h.requests().length
    h.take(h.engine.toolResult(call.id, 'too late', 1003))
    expect(h.requests()).toHaveLength(requestsBefore)
    h.take(h.engine.agent(AGENT_SUB.prompt, 'Next', 1004))
    expect(h.requests().at(-1)!.request.messages.slice(-3)).toEqual([
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'get_order', arguments: '{"id":"7"}' }] },
      { role: 'tool', toolCallId: 'call_1', content: 'Cancelled by the user.' },
      { role: 'user', content: 'Next' },
    ])
  })

  it('a snapshot saved while an idempotent host tool ran runs it again on restore (rerun, same call id)', async () => {
    for (const idempotent of [true, false]) {
      const tool = { ...TOOL, idempotent }
      const first = await instantiateEngine(module)
      const boot = { cols: 80, rows: 24, seed: 1, provider: 'mock', providers: [{ name: 'mock', label: 'mock', model: 'm' }], model: 'm', tools: false, cwd: '/', notices: [], args: [], sessions: true, headless: true, hostTools: [tool] }
      const effects: EngineEffect[] = [...first.boot(boot, 1000), ...first.agent(AGENT_SUB.prompt, 'go', 1000)]
      const requestId = effects.find((e) => e.kind === 'model_request')!.id
      for (const event of [
        { type: 'tool_call_start', index: 0, id: 'call_9', name: 'get_order' },
        { type: 'tool_call_delta', index: 0, delta: '{}' },
        { type: 'tool_call_end', index: 0 },
        { type: 'finish', reason: 'tool_calls' },
      ] as const) effects.push(...first.modelEvent(requestId, event, 1001))
      const snapshot = effects.filter((e) => e.kind === 'session_commit').at(-1)!.bytes
      const second = await instantiateEngine(module)
      second.boot(boot, 2000)
      const after = second.session(snapshot, false, 2000)
      if (idempotent) {
        expect(after.filter((e) => e.kind === 'tool_call').map((e) => e.call)).toEqual([{ callId: 'call_9', name: 'get_order', arguments: '{}', rerun: true }])
        expect(after.some((e) => e.kind === 'model_request')).toBe(false)
      } else {
        expect(after.some((e) => e.kind === 'tool_call')).toBe(false)
        const request = after.find((e) => e.kind === 'model_request')!.request
        expect(String(request.messages.find((m) => m.role === 'tool')!.content)).toMatch(/may have partly run/)
      }
    }
  })
})
