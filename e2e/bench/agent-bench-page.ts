// The agent API bench page (agent-bench.mjs drives it). Two measurements:
// - Per-turn overhead: the same mock stream read raw in this page (fetch + getReader +
//   TextDecoder + eventsource-parser, until [DONE]: the baseline) and as an agent turn
//   (createFxAgent as a page uses it: engine in the agent's worker, the provider's fetch and SSE
//   there, every line back to this page, read by async iteration until the turn's result),
//   alternately, in the same run. Each agent run uses a new session that has already run one
//   short turn (untimed): its engine is booted, as for any turn after a session's first, and no
//   run pays for an earlier run's 200 KB conversation. The same turn also runs with
//   `worker: false` (engine and fetch in this page), to show what the worker hop costs, and the
//   body's bytes are read with nothing parsed: the floor under any client.
// - Catch-up: a session whose store holds N lines; `session.stream(cursor)` read and parsed as
//   NDJSON until the last line, timed from the call, for cursor 0 and N/2.
import { readRawBytes, readRawSse, scriptMock as script } from './raw-sse-read.ts'
import { createFxAgent } from '../../src/page/agent-api/create-fx-agent.ts'
import { memory } from '../../src/page/agent-api/durability.ts'
import type { FxLogLine } from '../../src/shared/agent-api/types.ts'

export type AgentBenchRequest = { mockUrl: string; text: string; deltaChars: number; runs: number; warmups: number; catchUpLines: number }
/** `firstMs`: the first text (raw: the first body bytes); agent only: `startMs` its turn_start line, `endMs` its turn_end line. */
export type AgentSample = { path: 'raw' | 'rawWorker' | 'rawBytes' | 'agent' | 'inPage'; ms: number; chars: number; firstMs?: number; startMs?: number; endMs?: number; lines?: number; stopReason?: string }
export type CatchUpSample = { cursor: number; lines: number; ms: number }
export type AgentBenchResult = { samples: AgentSample[]; catchUp: CatchUpSample[] }

const MODEL = 'mock-model'
const wasm = new URL('../../engine.wasm', location.href).href

/** The raw read in this page (raw-sse-read.ts). */
async function rawRun(mockUrl: string): Promise<AgentSample> {
  const { ms, chars, firstMs } = await readRawSse(`${mockUrl}/v1/chat/completions`)
  return { path: 'raw', ms, chars, ...(firstMs !== undefined ? { firstMs } : {}) }
}

/** The body's bytes alone, in this page (a floor: nothing parsed). */
async function bytesRun(mockUrl: string): Promise<AgentSample> {
  const { ms, chars } = await readRawBytes(`${mockUrl}/v1/chat/completions`)
  return { path: 'rawBytes', ms, chars }
}

/** The raw read in a worker of its own (agent-bench-raw-worker.ts), timed from the page. */
function rawWorkerRun(worker: Worker, mockUrl: string): Promise<AgentSample> {
  const started = performance.now()
  return new Promise((resolve) => {
    worker.onmessage = (event: MessageEvent<{ chars: number }>) => resolve({ path: 'rawWorker', ms: performance.now() - started, chars: event.data.chars })
    worker.postMessage({ url: `${mockUrl}/v1/chat/completions` })
  })
}

type Agent = ReturnType<typeof createFxAgent>
let sessionNumber = 0

async function agentRun(agent: Agent, path: 'agent' | 'inPage', mockUrl: string, text: string, deltaChars: number): Promise<AgentSample> {
  const session = agent.session(`bench-${sessionNumber++}`)
  await script(mockUrl, 'Ready.', deltaChars)
  await session.prompt('hello').result
  await script(mockUrl, text, deltaChars)
  const started = performance.now()
  const turn = session.prompt('go')
  let chars = 0
  let lines = 0
  const at: { startMs?: number; firstMs?: number; endMs?: number } = {}
  for await (const line of turn) {
    lines++
    if (line.type === 'turn_start') at.startMs = performance.now() - started
    if (line.type === 'turn_end') at.endMs = performance.now() - started
    if (line.type === 'text_delta') {
      at.firstMs ??= performance.now() - started
      chars += line.delta.length
    }
  }
  const result = await turn.result
  return { path, ms: performance.now() - started, chars, lines, stopReason: result.stopReason, ...at }
}

/** A session store holding `count` lines of a long reply, as a finished turn leaves them. */
async function storedSession(count: number) {
  const durability = memory()
  const lines: FxLogLine[] = [
    { type: 'turn_start', sessionId: 'big', messageId: 'm1', cursor: 1 },
    { type: 'user_message', text: 'write a long story', cursor: 2 },
  ]
  for (let i = lines.length + 1; i < count; i++) lines.push({ type: 'text_delta', delta: `word ${i} of the story `, cursor: i })
  lines.push({ type: 'turn_end', messageId: 'm1', stopReason: 'end_turn', usage: { inputTokens: 10, outputTokens: count }, cursor: count })
  await durability.save('big', { turns: [{ messageId: 'm1', input: 'write a long story', status: 'done' }], chunks: 1, lineCount: count }, lines)
  return durability
}

async function catchUp(durability: ReturnType<typeof memory>, cursor: number, count: number): Promise<CatchUpSample> {
  // A new agent each time: the first stream() of a session also loads it from the store.
  const agent = createFxAgent({ durability, wasm })
  const started = performance.now()
  const reader = agent.session('big').stream(cursor).getReader()
  const decoder = new TextDecoder()
  let text = ''
  let lines = 0
  while (lines < count - cursor) {
    const step = await reader.read()
    if (step.done) break
    text += decoder.decode(step.value, { stream: true })
    let at = text.indexOf('\n')
    let from = 0
    while (at >= 0) {
      JSON.parse(text.slice(from, at))
      lines++
      from = at + 1
      at = text.indexOf('\n', from)
    }
    text = text.slice(from)
  }
  const ms = performance.now() - started
  await reader.cancel()
  await agent.close()
  return { cursor, lines, ms }
}

async function bench(request: AgentBenchRequest): Promise<AgentBenchResult> {
  const options = { provider: { name: 'mock', baseUrl: `${request.mockUrl}/v1`, models: { [MODEL]: { contextWindow: 1_000_000 } } }, model: MODEL, wasm }
  const agent = createFxAgent(options)
  const inPage = createFxAgent({ ...options, worker: false })
  const rawWorker = new Worker(new URL('./agent-bench-raw-worker.ts', import.meta.url), { type: 'module' })
  const paths = ['raw', 'rawWorker', 'rawBytes', 'agent', 'inPage'] as const
  const once = async (path: (typeof paths)[number]) => {
    if (path === 'agent' || path === 'inPage') return agentRun(path === 'agent' ? agent : inPage, path, request.mockUrl, request.text, request.deltaChars)
    await script(request.mockUrl, request.text, request.deltaChars)
    if (path === 'rawBytes') return bytesRun(request.mockUrl)
    return path === 'raw' ? rawRun(request.mockUrl) : rawWorkerRun(rawWorker, request.mockUrl)
  }
  for (let i = 0; i < request.warmups; i++) for (const path of paths) await once(path)
  const samples: AgentSample[] = []
  for (let i = 0; i < request.runs; i++) {
    // Rotate which goes first, so warm-up and background noise hit all alike.
    const order = paths.map((_, k) => paths[(i + k) % paths.length]!)
    for (const path of order) samples.push(await once(path))
  }
  await agent.close()
  await inPage.close()
  rawWorker.terminate()
  const durability = await storedSession(request.catchUpLines)
  const catchUpSamples: CatchUpSample[] = []
  for (let i = 0; i < request.runs; i++) {
    for (const cursor of [0, request.catchUpLines / 2]) catchUpSamples.push(await catchUp(durability, cursor, request.catchUpLines))
  }
  return { samples, catchUp: catchUpSamples }
}

;(window as Window & { fxAgentBench?: typeof bench }).fxAgentBench = bench
