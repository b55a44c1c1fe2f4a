/**
 * The host loop with the real engine.wasm, a scripted model provider, a fake workspace bridge
 * and a terminal (@xterm/headless) as the write sink: what the worker does around the engine.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import xtermHeadless from '@xterm/headless'
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import type { ModelEvent, ModelProvider, ModelRequest } from '../../shared/protocol/model-events.ts'
import type { ExecResult } from '../../shared/protocol/workspace.ts'
import type { ExecRequest } from '../../shared/messages/engine-frames.ts'
import { createHostLoop, type HostLoop, type SessionHost } from './host-loop.ts'
import { instantiateEngine } from './engine-instance.ts'
import { trappableEngines } from '../../../test/support/engine-traps.ts'

const { Terminal } = xtermHeadless
const wasmPath = fileURLToPath(new URL('../../../public/engine.wasm', import.meta.url))
let module: WebAssembly.Module

beforeAll(async () => {
  module = await WebAssembly.compile(readFileSync(wasmPath))
})

const loops: HostLoop[] = []
afterEach(() => {
  for (const loop of loops.splice(0)) loop.dispose()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

/** Makes the engine trap on the next input, which `loop` is then fed (an empty keystroke). */
function trap(traps: ReturnType<typeof trappableEngines>, loop: HostLoop) {
  traps.trapNext()
  loop.keys(new Uint8Array(0))
}

/** Lets pending promise callbacks run (no fixed wait: one turn of the event loop). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Turns the event loop until `check` holds; fails with what it saw after 200 turns. */
async function until(what: string, check: () => boolean, seen: () => unknown = () => undefined) {
  for (let i = 0; i < 200; i++) {
    if (check()) return
    await settle()
  }
  throw new Error(`never saw ${what}; saw ${JSON.stringify(seen(), null, 2)}`)
}

/** A step of a scripted response: an event, or "hold until aborted". */
type Step = ModelEvent | { type: 'hold' }

/** A provider that plays one scripted response per request, honouring the AbortSignal. */
function scriptedProvider(responses: Step[][]) {
  const calls: { request: ModelRequest; signal: AbortSignal }[] = []
  const provider: ModelProvider = {
    name: 'fake',
    label: 'fake',
    defaultModel: 'fake-model',
    async stream(request, emit, signal) {
      calls.push({ request: structuredClone(request), signal })
      for (const step of responses[calls.length - 1] ?? []) {
        await Promise.resolve()
        if (signal.aborted) return
        if (step.type === 'hold') {
          await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))
          return
        }
        emit(step)
      }
    },
  }
  return { provider, calls }
}

/** A workspace bridge that answers each exec with the next scripted result. */
function fakeBridge(results: ExecResult[]) {
  const calls: { id: number; request: ExecRequest }[] = []
  const cancelled: number[] = []
  const pending = new Map<number, (r: ExecResult) => void>()
  return {
    calls,
    cancelled,
    /** Answers a held exec (for results scripted as null). */
    answer: (id: number, result: ExecResult) => pending.get(id)?.(result),
    bridge: {
      exec(id: number, request: ExecRequest) {
        calls.push({ id, request })
        const result = results.shift()
        if (result) return Promise.resolve(result)
        return new Promise<ExecResult>((resolve) => pending.set(id, resolve))
      },
      cancel(id: number) {
        cancelled.push(id)
      },
    },
  }
}

/** A session host whose commits go to `commit` and succeed; it holds no sessions. */
function sessionHostCommitting(commit: (bytes: Uint8Array) => void): SessionHost {
  return {
    commit: async (bytes) => {
      commit(bytes)
      return { type: 'commit_ok' }
    },
    list: async () => [],
    open: async () => null,
    remove() {},
    historyAppend() {},
    historyClear() {},
  }
}

const SYSTEM = { role: 'system', content: expect.stringContaining('fxterm') }
const RUN_COMMAND = expect.objectContaining({ name: 'run_command' })

async function start(provider: ModelProvider, bridge: ReturnType<typeof fakeBridge>['bridge'] | null = null, sessions?: SessionHost) {
  const term = new Terminal({ cols: 80, rows: 30, allowProposedApi: true, scrollback: 1000 })
  const events: ({ type: string } & Record<string, unknown>)[] = []
  const exits: number[] = []
  const loop = await createHostLoop({
    module,
    boot: { cols: 80, rows: 30, provider: 'fake', model: 'fake-model', tools: bridge !== null, cwd: '/workspace', notices: [], args: [], sessions: sessions !== undefined },
    providers: [provider],
    workspace: bridge,
    ...(sessions ? { sessions } : {}),
    write: (bytes) => term.write(bytes),
    onEvent: (event) => events.push(event),
    onExit: (code) => exits.push(code),
    now: () => 1_000_000,
    seed: () => 1,
  })
  loops.push(loop)
  const screen = async () => {
    await new Promise<void>((resolve) => term.write('', resolve))
    const buf = term.buffer.active
    const lines: string[] = []
    for (let i = 0; i < buf.length; i++) lines.push(buf.getLine(i)?.translateToString(true) ?? '')
    while (lines.length && lines.at(-1) === '') lines.pop()
    return lines
  }
  /** Waits until the screen satisfies `check`; returns its lines. */
  const untilScreen = async (what: string, check: (lines: string[]) => boolean) => {
    let lines: string[] = []
    for (let i = 0; i < 200; i++) {
      lines = await screen()
      if (check(lines)) return lines
      await settle()
    }
    throw new Error(`never saw ${what} on screen:\n${lines.join('\n')}`)
  }
  /** Waits until the screen shows a line satisfying `match`. */
  const untilLine = (what: string, match: (line: string) => boolean) => untilScreen(what, (lines) => lines.some(match))
  const type = (text: string) => loop.keys(new TextEncoder().encode(text))
  return { loop, term, events, exits, screen, untilScreen, untilLine, type }
}

describe('the host loop', () => {
  test('the end of a model response passes the writes on at once, after its last rows', async () => {
    const { provider } = scriptedProvider([[{ type: 'text_delta', delta: 'the last line\n' }, { type: 'finish', reason: 'stop' }]])
    const written: string[] = []
    const flushedAfter: string[] = []
    const loop = await createHostLoop({
      module,
      boot: { cols: 80, rows: 30, provider: 'fake', model: 'fake-model', tools: false, cwd: '/workspace', notices: [], args: [] },
      providers: [provider],
      workspace: null,
      write: (bytes) => written.push(new TextDecoder().decode(bytes)),
      flushWrites: () => flushedAfter.push(written.join('')),
      onEvent: () => {},
      onExit: () => {},
      now: () => 1_000_000,
      seed: () => 1,
    })
    loops.push(loop)
    loop.keys(new TextEncoder().encode('hi\r'))
    await until('a flush', () => flushedAfter.length > 0)
    expect(flushedAfter).toHaveLength(1)
    expect(flushedAfter[0]).toContain('the last line')
  })

  test('boots the engine and shows its banner', async () => {
    const { provider } = scriptedProvider([])
    const h = await start(provider)
    const lines = await h.untilLine('the banner', (line) => line.startsWith('✻ fxterm'))
    expect(lines.slice(0, 2)).toEqual(['✻ fxterm · Run /help for commands', '  a coding agent in your browser tab · fake · fake-model'])
  })

  test('a prompt from the page goes to the model as text even when it starts with a slash, and answers no question', async () => {
    const { provider, calls } = scriptedProvider([[{ type: 'text_delta', delta: 'Noted.' }, { type: 'finish', reason: 'stop' }]])
    const h = await start(provider)
    h.loop.prompt('/mode auto')
    await until('the provider call', () => calls.length === 1)
    expect(calls[0]?.request.messages).toEqual([SYSTEM, { role: 'user', content: '/mode auto' }])
    await until('the end of the turn', () => h.events.some((e) => e.type === 'turn_end'))
    const lines = await h.untilLine('the reply', (line) => line.includes('Noted.'))
    expect(lines).toContain('❯ /mode auto')
    expect(lines.join('\n')).not.toContain('Mode: auto')
  })

  test('a prompt calls the provider with the engine request; a tool call runs through the bridge and its result goes back', async () => {
    const { provider, calls } = scriptedProvider([
      [
        { type: 'text_delta', delta: 'Looking.' },
        { type: 'tool_call_start', index: 0, id: 'call_1', name: 'run_command' },
        { type: 'tool_call_delta', index: 0, delta: '{"command":' },
        { type: 'tool_call_delta', index: 0, delta: '"ls"}' },
        { type: 'tool_call_end', index: 0 },
        { type: 'finish', reason: 'tool_calls' },
      ],
      [
        { type: 'text_delta', delta: 'One file: README.md' },
        { type: 'finish', reason: 'stop' },
      ],
    ])
    const ws = fakeBridge([{ stdout: 'README.md\n', stderr: '', exitCode: 0 }])
    const h = await start(provider, ws.bridge)

    h.type('what is here?\r')
    await until('the first provider call', () => calls.length >= 1)
    expect(calls[0]?.request).toEqual({
      model: 'fake-model',
      provider: 'fake',
      messages: [SYSTEM, { role: 'user', content: 'what is here?' }],
      tools: [RUN_COMMAND],
    })

    await until('the exec', () => ws.calls.length === 1, () => h.events)
    expect(ws.calls).toEqual([{ id: 2, request: { command: 'ls', cwd: '/workspace', timeoutMs: 30000, outputLimitBytes: 65536 } }])

    await until('the second provider call', () => calls.length === 2)
    expect(calls[1]?.request).toEqual({
      model: 'fake-model',
      provider: 'fake',
      messages: [
        SYSTEM,
        { role: 'user', content: 'what is here?' },
        { role: 'assistant', content: 'Looking.', toolCalls: [{ id: 'call_1', name: 'run_command', arguments: '{"command":"ls"}' }] },
        { role: 'tool', toolCallId: 'call_1', content: 'README.md\n\n[cwd: /workspace]' },
      ],
      tools: [RUN_COMMAND],
    })

    await until('the end of the turn', () => h.events.some((e) => e.type === 'turn_end'))
    expect(h.events).toEqual([
      { type: 'turn_start' },
      { type: 'tool_start', command: 'ls' },
      { type: 'tool_end', exitCode: 0 },
      { type: 'turn_end', stopReason: 'end_turn' },
    ])
    const lines = await h.screen()
    const from = lines.indexOf('❯ what is here?')
    expect(lines.slice(from, from + 8)).toEqual(['❯ what is here?', '', '● Looking.', '', '● Ran ls', '  └  README.md', '', '● One file: README.md'])
  })

  test('without a workspace a tool call is refused and no exec is attempted', async () => {
    const { provider, calls } = scriptedProvider([
      [
        { type: 'tool_call_start', index: 0, id: 'c', name: 'run_command' },
        { type: 'tool_call_delta', index: 0, delta: '{"command":"ls"}' },
        { type: 'finish', reason: 'tool_calls' },
      ],
      [{ type: 'finish', reason: 'stop' }],
    ])
    const h = await start(provider, null)
    h.type('hi\r')
    await until('the second provider call', () => calls.length === 2)
    expect(calls[0]?.request.tools).toEqual([])
    expect(calls[1]?.request.messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'c', content: 'No workspace is available, so commands cannot run.' })
  })

  test('Esc aborts the provider request through its signal', async () => {
    const { provider, calls } = scriptedProvider([[{ type: 'text_delta', delta: 'Thinking about it' }, { type: 'hold' }]])
    const h = await start(provider)
    h.type('hi\r')
    await h.untilLine('the streamed text', (line) => line === '● Thinking about it')
    expect(calls[0]?.signal.aborted).toBe(false)

    h.type('\x1b')
    expect(calls[0]?.signal.aborted).toBe(true)
    const lines = await h.untilLine('the interrupt notice', (line) => line === '  Interrupted · tell fxterm what to do instead')
    expect(lines.filter((line) => line.startsWith('✗'))).toEqual([])
    expect(h.events.at(-1)).toEqual({ type: 'turn_end', stopReason: 'cancelled' })
  })

  test('Ctrl+C during a command cancels it on the bridge and ignores its late result', async () => {
    const { provider, calls } = scriptedProvider([
      [
        { type: 'tool_call_start', index: 0, id: 'c', name: 'run_command' },
        { type: 'tool_call_delta', index: 0, delta: '{"command":"sleep 100"}' },
        { type: 'finish', reason: 'tool_calls' },
      ],
      [{ type: 'finish', reason: 'stop' }],
    ])
    const ws = fakeBridge([])
    const h = await start(provider, ws.bridge)
    h.type('wait\r')
    await until('the exec', () => ws.calls.length === 1)
    h.type('\x03')
    expect(ws.cancelled).toEqual([2])
    ws.answer(2, { stdout: 'too late', stderr: '', exitCode: 0 })
    await settle()
    const lines = await h.screen()
    expect(lines.filter((line) => line.includes('too late'))).toEqual([])
    expect(calls).toHaveLength(1)
  })

  test('a provider that returns without finish or error ends the turn with an error line instead of hanging', async () => {
    const { provider } = scriptedProvider([[{ type: 'text_delta', delta: 'half an ans' }]])
    const h = await start(provider)
    h.type('hi\r')
    const lines = await h.untilLine('the error line', (line) => line.startsWith('✗ '))
    expect(lines.filter((line) => line.startsWith('✗ '))).toEqual(['✗ The model stream ended without finishing.'])
    expect(lines).toContain('● half an ans')
    expect(h.events.at(-1)).toEqual({ type: 'turn_end', stopReason: 'error' })

    h.type('still here')
    const after = await h.untilLine('the composer', (line) => line === '❯ still here')
    expect(after.filter((line) => line.startsWith('❯ '))).toEqual(['❯ hi', '❯ still here'])
  })

  test('a provider that throws ends the turn with an error line naming the failure', async () => {
    const provider: ModelProvider = {
      name: 'fake',
      label: 'fake',
      defaultModel: 'fake-model',
      stream: async () => {
        throw new Error('socket closed')
      },
    }
    const h = await start(provider)
    h.type('hi\r')
    const lines = await h.untilLine('the error line', (line) => line.startsWith('✗ '))
    expect(lines.filter((line) => line.startsWith('✗ '))).toEqual(['✗ The model request failed: socket closed.'])
    expect(h.events.at(-1)).toEqual({ type: 'turn_end', stopReason: 'error' })
  })

  test('the spinner timer goes through setTimeout and redraws the elapsed time when it fires', async () => {
    // Fake timers: the engine's 100 ms spinner timer only fires when the test moves time.
    // (The terminal is not used here: xterm parses writes on a timer of its own.)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    let clock = 1_000_000
    const { provider } = scriptedProvider([[{ type: 'hold' }]])
    const writes: string[] = []
    const loop = await createHostLoop({
      module,
      boot: { cols: 80, rows: 30, provider: 'fake', model: 'fake-model', tools: false, cwd: '/', notices: [], args: [] },
      providers: [provider],
      workspace: null,
      write: (bytes) => writes.push(new TextDecoder().decode(bytes)),
      onEvent: () => {},
      onExit: () => {},
      now: () => clock,
    })
    loops.push(loop)
    /** The elapsed-time labels drawn since the last look. */
    const drawn = () => writes.splice(0).flatMap((w) => w.match(/\(\d+s · esc to interrupt\)/g) ?? [])

    loop.keys(new TextEncoder().encode('hi\r'))
    expect(drawn()).toEqual(['(0s · esc to interrupt)'])
    clock += 2_000
    vi.advanceTimersByTime(99)
    expect(drawn()).toEqual([])
    vi.advanceTimersByTime(1)
    expect(drawn()).toEqual(['(2s · esc to interrupt)'])
    clock += 1_000
    vi.advanceTimersByTime(100)
    expect(drawn()).toEqual(['(3s · esc to interrupt)'])

    // Once the turn ends the timer is not asked for again.
    loop.keys(new TextEncoder().encode('\x1b'))
    drawn()
    vi.advanceTimersByTime(1_000)
    expect(drawn()).toEqual([])
    expect(vi.getTimerCount()).toBe(0)
  })

  test('/exit reaches onExit with code 0', async () => {
    const { provider } = scriptedProvider([])
    const h = await start(provider)
    h.type('/exit\r')
    expect(h.exits).toEqual([0])
  })

  test('an engine trap is reported in the terminal, in-flight requests are aborted, and the engine boots again', async () => {
    const traps = trappableEngines()
    const { provider, calls } = scriptedProvider([[{ type: 'hold' }], [{ type: 'text_delta', delta: 'Fresh start.' }, { type: 'finish', reason: 'stop' }]])
    const h = await start(provider)
    h.type('remember this\r')
    await until('the first provider call', () => calls.length === 1)

    trap(traps, h.loop)
    expect(h.events.filter((e) => e.type === 'engine_trap')).toEqual([
      { type: 'engine_trap', message: expect.stringMatching(/^trap requested by the host/) },
    ])
    expect(calls[0]?.signal.aborted).toBe(true)

    const banner = (line: string) => line === '✻ fxterm · Run /help for commands'
    const lines = await h.untilScreen('a second banner', (lines) => lines.filter(banner).length === 2)
    const report = lines.findIndex((line) => line.startsWith("✗ fxterm's engine stopped on an internal error (trap requested by the host"))
    expect(report).toBeGreaterThan(-1)
    // The new engine boots below the report and says the conversation is gone.
    const second = lines.length - 1 - [...lines].reverse().findIndex(banner)
    expect(second).toBeGreaterThan(report)
    expect(lines.slice(second, second + 5)).toEqual([
      '✻ fxterm · Run /help for commands',
      '  a coding agent in your browser tab · fake · fake-model',
      '',
      '  The engine restarted after an internal error; the conversation before it is',
      '  gone.',
    ])
    expect(h.events.at(-1)).toEqual({ type: 'engine_trap', message: expect.any(String) })

    // The new engine works, and its conversation starts afresh.
    h.type('hello again\r')
    await until('a provider call from the new engine', () => calls.length === 2)
    expect(calls[1]?.request.messages).toEqual([SYSTEM, { role: 'user', content: 'hello again' }])
    await h.untilLine('the new reply', (line) => line === '● Fresh start.')
  })

  test('after a trap the new engine continues from the last commit, though the session host moved those bytes away', async () => {
    const traps = trappableEngines()
    const { provider, calls } = scriptedProvider([[{ type: 'text_delta', delta: 'First reply.' }, { type: 'finish', reason: 'stop' }], [{ type: 'text_delta', delta: 'Second reply.' }, { type: 'finish', reason: 'stop' }]])
    let commits = 0
    // As the worker does: the bytes are transferred to the page, which leaves them empty here.
    const sessions = sessionHostCommitting((bytes) => {
      structuredClone(bytes, { transfer: [bytes.buffer as ArrayBuffer] })
      commits++
    })
    const h = await start(provider, null, sessions)
    h.type('remember this\r')
    await h.untilLine('the first reply', (line) => line === '● First reply.')
    await until('the turn\'s commits', () => commits >= 2)

    trap(traps, h.loop)
    await h.untilLine('the restart notice', (line) => line.includes('the conversation continues from'))
    h.type('and now?\r')
    await until('a request from the new engine', () => calls.length === 2)
    expect(calls[1]?.request.messages).toEqual([
      SYSTEM,
      { role: 'user', content: 'remember this' },
      { role: 'assistant', content: 'First reply.' },
      { role: 'user', content: 'and now?' },
    ])
  })

  test('after a trap the engine boots again at the size the terminal has now', async () => {
    const traps = trappableEngines()
    const { provider } = scriptedProvider([])
    const h = await start(provider)
    h.term.resize(60, 30)
    h.loop.resize(60, 30)
    trap(traps, h.loop)
    const lines = await h.untilScreen('the second banner', (lines) => lines.filter((line) => line.startsWith('✻ fxterm')).length === 2)
    expect(lines.slice(-4)).toEqual(['─'.repeat(60), '❯ ', '─'.repeat(60), '  auto · fake-model · fake · chat only · /help'])
  })

  test('an engine that keeps trapping is not restarted forever: the terminal says to reload', async () => {
    const traps = trappableEngines()
    const { provider } = scriptedProvider([])
    const h = await start(provider)
    for (let i = 0; i < 4; i++) {
      trap(traps, h.loop)
      await h.untilScreen(`report ${i + 1}`, (lines) => lines.filter((l) => l.startsWith("✗ fxterm's engine stopped")).length === i + 1)
      if (i < 3) await h.untilScreen(`banner ${i + 2}`, (lines) => lines.filter((l) => l.startsWith('✻ fxterm')).length === i + 2)
    }
    const lines = await h.untilScreen('the give-up line', (lines) => lines.some((l) => l.includes('It keeps failing')))
    expect(lines.at(-1)).toBe('✗ It keeps failing, so it was not restarted again. Reload the page.')
    expect(lines.filter((l) => l.startsWith('✻ fxterm')).length).toBe(4)
  })

  test('dispose aborts what is in flight and stops feeding the engine', async () => {
    const { provider, calls } = scriptedProvider([[{ type: 'hold' }]])
    const h = await start(provider)
    h.type('hi\r')
    await until('the provider call', () => calls.length === 1)
    h.loop.dispose()
    expect(calls[0]?.signal.aborted).toBe(true)
    const before = await h.screen()
    h.type('ignored')
    expect(await h.screen()).toEqual(before)
  })
})
