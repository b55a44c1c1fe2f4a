// The stream-overhead bench, inside one worker: the same SSE stream from the mock model server,
// read three ways, alternately, in the same run.
// - raw: fetch, read the body with getReader + TextDecoder, split it into events with
//   eventsource-parser, and keep each event's data (the baseline the target is set against).
//   Ends at `[DONE]`, where the adapter emits its finish event too.
// - rawJson: the same, plus JSON.parse of every event and adding up its text: what a plain
//   client does next (the adapter skips JSON.parse for plain text-delta chunks), for context.
// - adapter: the OpenAI-compatible adapter alone (fetch, read, SSE, chunk decoder) into an emit
//   that only counts, until its finish event: splits the full path's cost between the adapter
//   and what follows it (host loop and engine).
// - full: the app's path. The engine (engine.wasm through createHostLoop, as in the engine
//   worker) is booted, given a prompt, and asks for a model request; the OpenAI-compatible
//   adapter streams it (fetch, read, SSE, chunk decoder), the host loop coalesces text and feeds
//   every event to the engine, which renders Markdown into terminal bytes (counted, not drawn:
//   no xterm here). Timed from the adapter's stream() call to the engine's turn_end, which it
//   emits while processing the finish event.
// Each network run scripts its response first (POST /__script, untimed), and every full run gets
// a fresh engine, so no run pays for an earlier run's transcript.
// All three also run on a replay: the same stream, recorded once from the mock server in the
// pieces the network delivered, served from memory (through the adapter's `fetch` option). On a
// 2-core machine the mock server competes with the page for the CPU, so the network runs time
// the client and the server together; the replay times only what the client does.
import { readRawSse, scriptMock as script } from './raw-sse-read.ts'
import type { ModelProvider } from '../../src/shared/protocol/model-events.ts'
import { createOpenAiCompatibleProvider } from '../../src/engine-worker/providers/openai-compatible.ts'
import { createHostLoop } from '../../src/engine-worker/host/host-loop.ts'

export type StreamBenchRequest = { mockUrl: string; text: string; deltaChars: number; runs: number; warmups: number }
export type StreamPath = 'raw' | 'rawJson' | 'adapter' | 'full'
/** Where the bytes come from: the mock server each time, or its stream recorded once and replayed from memory. */
export type StreamSource = 'network' | 'memory'
export type StreamSample = {
  path: StreamPath
  source?: StreamSource
  ms: number
  /** raw paths: the SSE events read, and the characters of their data (rawJson, adapter: of the text). */
  events?: number
  chars?: number
  /** full path: terminal bytes the engine wrote, and how the turn ended. */
  bytesWritten?: number
  stopReason?: string
}
export type StreamBenchReply = { ok: true; samples: StreamSample[] } | { ok: false; message: string }

const MODEL = 'mock-model'
const encoder = new TextEncoder()

/** The raw read (raw-sse-read.ts); `json` adds the JSON.parse of every event. */
async function rawRun(fetchFn: typeof fetch, mockUrl: string, json: boolean): Promise<StreamSample> {
  const { ms, events, chars } = await readRawSse(`${mockUrl}/v1/chat/completions`, { fetchFn, json })
  return { path: json ? 'rawJson' : 'raw', ms, events, chars }
}

async function adapterRun(fetchFn: typeof fetch, mockUrl: string): Promise<StreamSample> {
  const adapter = createOpenAiCompatibleProvider({ baseUrl: `${mockUrl}/v1`, model: MODEL, label: 'mock', fetch: fetchFn })
  let chars = 0
  let events = 0
  let finish = ''
  const started = performance.now()
  await adapter.stream(
    { model: MODEL, messages: [{ role: 'user', content: 'go' }], tools: [] },
    (event) => {
      events++
      if (event.type === 'text_delta') chars += event.delta.length
      else if (event.type === 'finish') finish = event.reason
      else if (event.type === 'error') finish = `error: ${event.message}`
    },
    new AbortController().signal,
  )
  const ms = performance.now() - started
  return { path: 'adapter', ms, events, chars, stopReason: finish }
}

async function fullRun(fetchFn: typeof fetch, module: WebAssembly.Module, mockUrl: string): Promise<StreamSample> {
  const adapter = createOpenAiCompatibleProvider({ baseUrl: `${mockUrl}/v1`, model: MODEL, label: 'mock', fetch: fetchFn })
  let started = 0
  // Stamps the adapter's start; per event it adds nothing (emit is not wrapped).
  const provider: ModelProvider = {
    ...adapter,
    stream(request, emit, signal) {
      started = performance.now()
      return adapter.stream(request, emit, signal)
    },
  }
  let bytesWritten = 0
  let finished: (end: { at: number; stopReason: string }) => void = () => undefined
  const ended = new Promise<{ at: number; stopReason: string }>((resolve) => (finished = resolve))
  const loop = await createHostLoop({
    module,
    boot: {
      cols: 120,
      rows: 40,
      provider: provider.name,
      providers: [{ name: provider.name, label: provider.label, model: MODEL }],
      model: MODEL,
      tools: false,
      cwd: '/',
      notices: [],
      args: [],
    },
    providers: [provider],
    workspace: null,
    write: (bytes) => {
      bytesWritten += bytes.length
    },
    onEvent: (event) => {
      if (event.type === 'turn_end') finished({ at: performance.now(), stopReason: String(event['stopReason']) })
    },
    onExit: () => undefined,
  })
  try {
    // Typed, then Enter, as the terminal sends them.
    loop.keys(encoder.encode('go'))
    loop.keys(encoder.encode('\r'))
    const end = await ended
    if (started === 0) throw new Error('the engine never asked the adapter for a stream')
    return { path: 'full', ms: end.at - started, bytesWritten, stopReason: end.stopReason }
  } finally {
    loop.dispose()
  }
}

/** Reads one scripted stream from the mock server, keeping the pieces as the network delivered them. */
async function record(mockUrl: string, text: string, deltaChars: number): Promise<Uint8Array[]> {
  await script(mockUrl, text, deltaChars)
  const response = await fetch(`${mockUrl}/v1/chat/completions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })
  if (!response.ok || response.body === null) throw new Error(`recording the stream: HTTP ${response.status}`)
  const pieces: Uint8Array[] = []
  const reader = response.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return pieces
    pieces.push(value)
  }
}

/** A fetch that answers every request with the recorded pieces, one per read, from memory. */
function replayFetch(pieces: Uint8Array[]): typeof fetch {
  return async () => {
    let next = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (next < pieces.length) controller.enqueue(pieces[next++]!)
        else controller.close()
      },
    })
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' } })
  }
}

async function bench(request: StreamBenchRequest): Promise<StreamSample[]> {
  const response = await fetch(new URL('/engine.wasm', location.origin))
  if (!response.ok) throw new Error(`engine.wasm: HTTP ${response.status}`)
  const module = await WebAssembly.compile(await response.arrayBuffer())
  const replay = replayFetch(await record(request.mockUrl, request.text, request.deltaChars))
  const network: typeof fetch = (input, init) => fetch(input, init)
  const once = async (source: StreamSource, path: StreamPath): Promise<StreamSample> => {
    if (source === 'network') await script(request.mockUrl, request.text, request.deltaChars)
    const fetchFn = source === 'network' ? network : replay
    const sample =
      path === 'full' ? await fullRun(fetchFn, module, request.mockUrl) : path === 'adapter' ? await adapterRun(fetchFn, request.mockUrl) : await rawRun(fetchFn, request.mockUrl, path === 'rawJson')
    return { ...sample, source }
  }
  const paths: StreamPath[] = ['raw', 'rawJson', 'adapter', 'full']
  // Unrecorded: the first runs pay for JIT compilation of every path.
  for (let i = 0; i < request.warmups; i++) for (const source of ['network', 'memory'] as const) for (const path of paths) await once(source, path)
  const samples: StreamSample[] = []
  for (let i = 0; i < request.runs; i++) {
    // Rotate which path goes first, so drift (GC, a busy core) hits all alike.
    const order = paths.map((_, k) => paths[(i + k) % paths.length]!)
    for (const source of ['network', 'memory'] as const) for (const path of order) samples.push(await once(source, path))
  }
  return samples
}

onmessage = (event: MessageEvent<StreamBenchRequest>) => {
  bench(event.data).then(
    (samples) => postMessage({ ok: true, samples } satisfies StreamBenchReply),
    (error: unknown) => postMessage({ ok: false, message: error instanceof Error ? error.stack ?? error.message : String(error) } satisfies StreamBenchReply),
  )
}
