// The headless agent API (part `agent`): what a turn through createFxAgent costs over reading
// the same mock stream raw in the same page (target ≤ 1.2×), and how fast session.stream(cursor)
// catches up 10,000 stored lines (target ≤ 100 ms). agent-bench-page.ts says what each path does.
import { startMockModelServer } from '../../mock-servers/mock-model-server.mjs'
import { buildBenchPages } from './build-bench-pages.mjs'
import { benchProse } from './stream-bench.mjs'
import { median, ms, pad, times, verdict } from './stats.mjs'

const OVERHEAD_TARGET = 1.2
const CATCH_UP_TARGET_MS = 100
const CATCH_UP_LINES = 10_000
const TEXT_BYTES = 200 * 1024
const DELTA_CHARS = 4

export async function benchAgent(browser, baseUrl, { runs = 7, textBytes = TEXT_BYTES } = {}) {
  await buildBenchPages()
  const text = benchProse(textBytes)
  const mock = await startMockModelServer()
  const context = await browser.newContext()
  const tab = await context.newPage()
  try {
    await tab.goto(`${baseUrl}/e2e/bench/agent-bench.html`)
    await tab.waitForFunction(() => typeof window.fxAgentBench === 'function', undefined, { timeout: 30_000 })
    const result = await tab.evaluate((request) => window.fxAgentBench(request), { mockUrl: mock.url, text, deltaChars: DELTA_CHARS, runs, warmups: 2, catchUpLines: CATCH_UP_LINES })
    for (const sample of result.samples) {
      if ((sample.path === 'agent' || sample.path === 'inPage') && (sample.chars !== text.length || sample.stopReason !== 'end_turn')) throw new Error(`an agent turn gave ${sample.chars} characters of ${text.length}, then ${sample.stopReason}`)
    }
    for (const sample of result.catchUp) {
      if (sample.lines !== CATCH_UP_LINES - sample.cursor) throw new Error(`stream(${sample.cursor}) gave ${sample.lines} lines of ${CATCH_UP_LINES - sample.cursor}`)
    }
    const of = (path) => result.samples.filter((s) => s.path === path)
    const raw = of('raw')
    const agent = of('agent')
    const inPage = of('inPage')
    const rawWorker = of('rawWorker')
    const rawBytes = of('rawBytes')
    for (let i = 0; i < runs; i++) {
      const a = agent[i]
      console.log(`agent run ${i + 1}/${runs}: raw ${ms(raw[i].ms)} (first bytes ${ms(raw[i].firstMs)}), agent ${ms(a.ms)} (turn_start ${ms(a.startMs)}, first text ${ms(a.firstMs)}, turn_end ${ms(a.endMs)}; ${a.lines} lines) = ${times(a.ms / raw[i].ms)}, in the page ${ms(inPage[i].ms)} = ${times(inPage[i].ms / raw[i].ms)}`)
    }
    const rawMs = median(raw.map((s) => s.ms))
    const agentMs = median(agent.map((s) => s.ms))
    const ratio = agentMs / rawMs
    const inPageMs = median(inPage.map((s) => s.ms))
    const rawWorkerMs = median(rawWorker.map((s) => s.ms))
    const catchUpMs = (cursor) => median(result.catchUp.filter((s) => s.cursor === cursor).map((s) => s.ms))
    const fromStart = catchUpMs(0)
    const fromMiddle = catchUpMs(CATCH_UP_LINES / 2)
    return {
      textBytes: text.length,
      deltaChars: DELTA_CHARS,
      runs,
      rawMs,
      agentMs,
      ratio,
      pairRatio: median(raw.map((s, i) => agent[i].ms / s.ms)),
      rawWorker: { ms: rawWorkerMs, agentRatio: agentMs / rawWorkerMs, pairRatio: median(rawWorker.map((s, i) => agent[i].ms / s.ms)) },
      rawBytes: { ms: median(rawBytes.map((s) => s.ms)), pairRatio: median(rawBytes.map((s, i) => agent[i].ms / s.ms)) },
      inPage: { ms: inPageMs, ratio: inPageMs / rawMs, pairRatio: median(raw.map((s, i) => inPage[i].ms / s.ms)) },
      lines: median(agent.map((s) => s.lines)),
      target: OVERHEAD_TARGET,
      ok: ratio <= OVERHEAD_TARGET,
      catchUp: { lines: CATCH_UP_LINES, fromStartMs: fromStart, fromMiddleMs: fromMiddle, target: CATCH_UP_TARGET_MS, ok: fromStart <= CATCH_UP_TARGET_MS },
      samples: result.samples,
      catchUpSamples: result.catchUp,
    }
  } finally {
    await context.close()
    await mock.close()
  }
}

/** The rows this bench adds to the printed table. */
export function agentLines(result) {
  const c = result.catchUp
  return [
    `headless agent API (median of ${result.runs} alternating runs in one page; ${(result.textBytes / 1024).toFixed(0)} KB of text in ${result.deltaChars}-character deltas)`,
    '  raw = fetch + getReader + TextDecoder + eventsource-parser in the page; agent = createFxAgent turn (engine in its worker) read by async iteration until its result',
    `  ${pad('per-turn overhead', 22)} raw ${pad(ms(result.rawMs), 9)} agent ${pad(ms(result.agentMs), 9)} ratio ${pad(times(result.ratio), 6)} target ≤ ${result.target}× ${pad(verdict(result.ok), 4)} (per-pair median ${times(result.pairRatio)}; ${result.lines} lines a turn)`,
    `  ${pad('raw read in a worker', 22)} raw ${pad(ms(result.rawWorker.ms), 9)} agent over it ${times(result.rawWorker.agentRatio)} (per-pair median ${times(result.rawWorker.pairRatio)}; the same read where the agent's engine makes its requests)`,
    `  ${pad('the bytes alone', 22)} read ${pad(ms(result.rawBytes.ms), 9)} agent over it ${times(result.agentMs / result.rawBytes.ms)} (per-pair median ${times(result.rawBytes.pairRatio)}; the body read to its end, nothing decoded: a floor, not the baseline)`,
    `  ${pad('without the worker', 22)} agent ${pad(ms(result.inPage.ms), 9)} ratio ${pad(times(result.inPage.ratio), 6)} (per-pair median ${times(result.inPage.pairRatio)}; worker: false, engine and fetch in the page)`,
    `  ${pad('stream(cursor) catch-up', 22)} ${c.lines} lines from cursor 0 ${ms(c.fromStartMs)}, from ${c.lines / 2} ${ms(c.fromMiddleMs)}; target ≤ ${c.target} ms ${verdict(c.ok)}`,
  ]
}
