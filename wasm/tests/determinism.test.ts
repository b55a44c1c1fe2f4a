/**
 * The engine is a pure function of its input frames: it reads no clock and no random source, so
 * the same frames (with the same times) give byte-identical effects in any fresh instance. This
 * is what makes a session replayable and these tests meaningful.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { instantiateEngine, type EngineInstance } from '../../src/engine-worker/host/engine-instance.ts'
import type { BootOptions, EngineEffect } from '../../src/shared/messages/engine-frames.ts'

const wasmPath = fileURLToPath(new URL('../../public/engine.wasm', import.meta.url))
const module = new WebAssembly.Module(readFileSync(wasmPath))
const encode = (text: string) => new TextEncoder().encode(text)

const BOOT: BootOptions = {
  cols: 72,
  rows: 20,
  seed: 7,
  provider: 'demo',
  model: 'demo',
  tools: true,
  cwd: '/workspace',
  notices: ['A notice at boot.'],
  args: [],
}

type Step = (engine: EngineInstance) => EngineEffect[]

/** A whole session: typing, a streamed reply, two tool calls, an interrupt, a resize, help, exit. */
const SESSION: Step[] = [
  (e) => e.boot(BOOT, 1_000),
  (e) => e.keys(encode('héllo 你好'), 1_050),
  (e) => e.keys(encode('\x1b[D\x1b[Dx\x7f'), 1_100),
  (e) => e.keys(encode('\x1b[200~pasted\r\nline\x1b[201~'), 1_150),
  (e) => e.keys(encode('\r'), 1_200),
  (e) => e.timer(0xffff0001, 1_300),
  (e) => e.modelEvent(1, { type: 'text_delta', delta: 'Looking \x1b[31mnow' }, 1_400),
  (e) => e.modelEvent(1, { type: 'text_delta', delta: '.\nTwo commands:' }, 1_450),
  (e) => e.modelEvent(1, { type: 'tool_call_start', index: 0, id: 'a', name: 'run_command' }, 1_500),
  (e) => e.modelEvent(1, { type: 'tool_call_delta', index: 0, delta: '{"command":' }, 1_510),
  (e) => e.modelEvent(1, { type: 'tool_call_delta', index: 0, delta: '"ls"}' }, 1_520),
  (e) => e.modelEvent(1, { type: 'tool_call_start', index: 1, id: 'b', name: 'run_command' }, 1_530),
  (e) => e.modelEvent(1, { type: 'tool_call_delta', index: 1, delta: '{"command":"cat README.md"}' }, 1_540),
  (e) => e.modelEvent(1, { type: 'usage', inputTokens: 120, outputTokens: 30 }, 1_550),
  (e) => e.modelEvent(1, { type: 'finish', reason: 'tool_calls' }, 1_560),
  (e) => e.resize(50, 20, 1_600),
  (e) => e.execResult(2, { stdout: 'README.md\nsrc\n', stderr: '', exitCode: 0 }, 2_000),
  (e) => e.timer(0xffff0001, 2_100),
  (e) => e.keys(encode('queued prompt\r'), 2_200),
  (e) => e.keys(encode('\x1b'), 2_300),
  (e) => e.execResult(3, { stdout: 'late', stderr: '', exitCode: 0 }, 2_400),
  (e) => e.resize(90, 30, 2_500),
  (e) => e.modelEvent(4, { type: 'text_delta', delta: 'The queued prompt got an answer.' }, 2_600),
  (e) => e.modelEvent(4, { type: 'finish', reason: 'stop' }, 2_700),
  (e) => e.keys(encode('/help\r/model\r/nope\r'), 2_800),
  (e) => e.keys(encode('\x1b[A\x1b[A\x1b[B'), 2_900),
  (e) => e.keys(encode('\x15/exit\r'), 3_000),
]

async function run(steps: Step[]): Promise<EngineEffect[][]> {
  const engine = await instantiateEngine(module)
  return steps.map((step) => step(engine))
}

describe('determinism', () => {
  test('the same inputs at the same times give byte-identical effects in two fresh engines', async () => {
    const first = await run(SESSION)
    const second = await run(SESSION)
    expect(second).toEqual(first)
    // Byte for byte, not just structurally: compare the writes as exact byte strings.
    const bytes = (effects: EngineEffect[][]) =>
      effects.map((list) => list.map((e) => (e.kind === 'write' ? Buffer.from(e.bytes).toString('hex') : JSON.stringify(e))))
    expect(bytes(second)).toEqual(bytes(first))
    // The session really did something on every kind of effect.
    const kinds = new Set(first.flat().map((e) => e.kind))
    expect([...kinds].sort()).toEqual(['catalog_request', 'echo_hint', 'event', 'exec', 'exec_cancel', 'exit', 'history_append', 'model_cancel', 'model_request', 'timer_set', 'write'])
  })

  test('an engine that has already run a session does not leak state into a fresh one', async () => {
    const used = await instantiateEngine(module)
    for (const step of SESSION) step(used)
    const fresh = await run(SESSION)
    const again = await run(SESSION)
    expect(fresh).toEqual(again)
  })

  test('only the times fed in change the output: a later clock moves the spinner, nothing else differs', async () => {
    const at = (offset: number): Step[] => [
      (e) => e.boot(BOOT, 1_000 + offset),
      (e) => e.keys(encode('hi\r'), 1_000 + offset),
      (e) => e.timer(0xffff0001, 1_000 + offset + 2_000),
    ]
    const a = await run(at(0))
    const b = await run(at(0))
    const c = await run(at(5_000_000))
    expect(b).toEqual(a)
    // Same elapsed time, different absolute time: only the spinner frame may differ.
    const text = (effects: EngineEffect[][]) =>
      effects.flat().flatMap((e) => (e.kind === 'write' ? [new TextDecoder().decode(e.bytes).replace(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/g, '*')] : [JSON.stringify(e)]))
    expect(text(c)).toEqual(text(a))
  })
})
