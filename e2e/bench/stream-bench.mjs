// Stream-handling overhead (a bench page with one worker, stream-bench-worker.ts, which says
// what each path does): 200 KB of text in 4-character deltas from the mock model server, read
// raw (fetch + eventsource-parser: the baseline of the target), raw plus JSON.parse of every
// event, through the adapter alone, and through the app's full path (adapter → host loop →
// engine.wasm), alternately, in the same worker; once from the server each time, once replayed
// from memory. The target is the full path over the raw one, from the server (the issue's
// "raw fetch-and-parse of the same stream in the same worker"); the replay shows the client's
// own cost, which the transfer otherwise partly hides.
import { startMockModelServer } from '../../mock-servers/mock-model-server.mjs'
import { buildBenchPages } from './build-bench-pages.mjs'
import { median, ms, pad, times, verdict } from './stats.mjs'

const OVERHEAD_TARGET = 1.25
const STREAM_TEXT_BYTES = 200 * 1024
const DELTA_CHARS = 4

/** Plain prose in paragraphs, the same every run (a fixed-seed word picker), ASCII only. */
export function benchProse(bytes) {
  const words = 'the stream carries each word to the terminal where a person reads it while the model is still writing the rest of its answer about files commands and tests'.split(' ')
  let seed = 42
  const next = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed % n
  }
  let text = ''
  while (text.length < bytes) {
    const sentences = 3 + next(4)
    const paragraph = []
    for (let s = 0; s < sentences; s++) {
      const length = 8 + next(10)
      const sentence = Array.from({ length }, () => words[next(words.length)]).join(' ')
      paragraph.push(`${sentence[0].toUpperCase()}${sentence.slice(1)}.`)
    }
    text += `${paragraph.join(' ')}\n\n`
  }
  return text.slice(0, bytes)
}

/** The medians and ratios of one source's samples (`rawJson` for context, `raw` for the target). */
function overheadOf(samples, source) {
  const of = (path) => samples.filter((sample) => sample.source === source && sample.path === path)
  const raw = of('raw')
  const rawJson = of('rawJson')
  const adapter = of('adapter')
  const full = of('full')
  const rawMs = median(raw.map((sample) => sample.ms))
  const fullMs = median(full.map((sample) => sample.ms))
  return {
    source,
    rawMs,
    rawJsonMs: median(rawJson.map((sample) => sample.ms)),
    adapterMs: median(adapter.map((sample) => sample.ms)),
    fullMs,
    ratio: fullMs / rawMs,
    pairRatio: median(raw.map((sample, i) => full[i].ms / sample.ms)),
    runs: { raw, rawJson, adapter, full },
  }
}

/**
 * Runs the raw paths and the full path `runs` times each, alternately, in one worker of the bench
 * page: from the mock server, and from the same stream replayed from memory.
 */
export async function benchStreamOverhead(browser, baseUrl, { runs = 7, textBytes = STREAM_TEXT_BYTES } = {}) {
  await buildBenchPages()
  const text = benchProse(textBytes)
  const sseEvents = Math.ceil(text.length / DELTA_CHARS)
  // The mock's `text` reply: a role chunk, the deltas, a finish chunk, a usage chunk, [DONE].
  const wireEvents = sseEvents + 4
  const mock = await startMockModelServer()
  const context = await browser.newContext()
  const tab = await context.newPage()
  try {
    await tab.goto(`${baseUrl}/e2e/bench/stream-bench.html`)
    await tab.waitForFunction(() => typeof window.fxStreamBench === 'function', undefined, { timeout: 30_000 })
    const samples = await tab.evaluate((request) => window.fxStreamBench(request), { mockUrl: mock.url, text, deltaChars: DELTA_CHARS, runs, warmups: 2 })
    for (const sample of samples) {
      if (sample.path === 'raw' && sample.events !== wireEvents) throw new Error(`the raw reader got ${sample.events} events of ${wireEvents}`)
      if (sample.path === 'rawJson' && sample.chars !== text.length) throw new Error(`the raw JSON reader got ${sample.chars} characters of ${text.length}`)
      if (sample.path === 'adapter' && (sample.chars !== text.length || sample.stopReason !== 'stop')) throw new Error(`the adapter gave ${sample.chars} characters of ${text.length}, then ${sample.stopReason}`)
      if (sample.path === 'full' && sample.stopReason !== 'end_turn') throw new Error(`the full path ended with ${sample.stopReason}, not end_turn`)
    }
    const network = overheadOf(samples, 'network')
    const memory = overheadOf(samples, 'memory')
    for (let i = 0; i < runs; i++) {
      const row = (o) => `${o.source} raw ${ms(o.runs.raw[i].ms)} (+JSON ${ms(o.runs.rawJson[i].ms)}), adapter ${ms(o.runs.adapter[i].ms)}, full ${ms(o.runs.full[i].ms)} = ${times(o.runs.full[i].ms / o.runs.raw[i].ms)}`
      console.log(`stream run ${i + 1}/${runs}: ${row(network)}; ${row(memory)}`)
    }
    const summary = ({ runs: _, ...rest }) => ({ ...rest, ok: rest.ratio <= OVERHEAD_TARGET })
    return {
      textBytes: text.length,
      deltaChars: DELTA_CHARS,
      sseEvents,
      runs,
      ...summary(network),
      target: OVERHEAD_TARGET,
      memory: summary(memory),
      bytesWritten: network.runs.full[0].bytesWritten,
      samples,
    }
  } finally {
    await context.close()
    await mock.close()
  }
}

/** The rows this bench adds to the printed table. */
export function streamOverheadLines(result) {
  // Only the server row is judged (see the file comment); the replay is context.
  const row = (label, o, judged) =>
    `  ${pad(label, 22)} raw ${pad(ms(o.rawMs), 9)} full ${pad(ms(o.fullMs), 9)} ratio ${pad(times(o.ratio), 6)} ${judged ? `target ≤ ${result.target}× ${pad(verdict(o.ok), 4)}` : 'not judged: the client alone'} (per-pair median ${times(o.pairRatio)}; raw + JSON.parse ${ms(o.rawJsonMs)}, adapter alone ${ms(o.adapterMs)})`
  return [
    `stream handling overhead (median of ${result.runs} alternating runs in one worker; ${(result.textBytes / 1024).toFixed(0)} KB of text in ${result.deltaChars}-character deltas: ${result.sseEvents} SSE events; ${(result.bytesWritten / 1024).toFixed(0)} KB of terminal output)`,
    '  raw = fetch + getReader + TextDecoder + eventsource-parser; adapter = the OpenAI-compatible adapter into a counting emit; full = adapter → host loop → engine.wasm until turn_end',
    row('from the mock server', result, true),
    row('replayed from memory', result.memory, false),
  ]
}
