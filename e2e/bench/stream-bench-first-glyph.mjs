// First byte → first glyph (the app page, against the mock model server): how long after the
// server's first byte of an SSE body the reply's first word is in the terminal buffer
// (term.buffer, checked from term.onWriteParsed), median of many turns in one page.
//
// The two ends are on two clocks: the server stamps the moment it hands the body's first bytes
// to the socket (`firstByteAtMs` in /__streams: performance.timeOrigin + performance.now() in
// Node), the page stamps the glyph (the same sum in the page). Both sums mean "ms since the
// epoch" but come from different processes, so they are not trusted to agree: before every turn
// the page reads the server's clock (/__clock) several times, NTP-style, and the sample with the
// shortest round trip gives the offset between the two, good to half that round trip (a
// millisecond or two on loopback; reported). Everything is stamped inside the page and the
// server, so no CDP round trip is counted. The reply's first SSE event carries the role and the
// first word, so the first byte is the first glyph's byte.
//
// Turns run with a 150 ms time to first token (a fast model: the page is idle when the token
// lands) and, alternately, with none (the answer is already there when the request leaves, so it
// lands while the page is still drawing the prompt: the worst case for output pacing).
import { startMockModelServer } from '../../mock-servers/mock-model-server.mjs'
import { median, ms, pad, percentile, verdict } from './stats.mjs'

const GLYPH_TARGET_MS = 20
/** A fast model's time to first token; the other variant answers at once. */
const TTFT_MS = 150
const CLOCK_SAMPLES = 15
const TURN_TIMEOUT_MS = 20_000

async function control(mockUrl, method, path, body) {
  const response = await fetch(`${mockUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`mock ${method} ${path}: HTTP ${response.status}`)
  return response.json()
}

/** In the page: the server-minus-page clock offset from the quickest of `samples` round trips. */
async function calibrate({ clockUrl, samples }) {
  let best = null
  for (let i = 0; i < samples; i++) {
    const sent = performance.timeOrigin + performance.now()
    const { nowMs } = await (await fetch(clockUrl, { cache: 'no-store' })).json()
    const received = performance.timeOrigin + performance.now()
    const rttMs = received - sent
    if (best === null || rttMs < best.rttMs) best = { rttMs, offsetMs: nowMs - (sent + received) / 2 }
  }
  return best
}

/**
 * In the page: resolves with the time (page clock, ms since the epoch) at which `marker` is first
 * in the buffer's bottom rows, checked after every parsed write, and when it is next painted.
 */
function armGlyph({ marker, timeoutMs }) {
  const term = window.fxterm.term
  const shows = () => {
    const buffer = term.buffer.active
    for (let i = Math.max(0, buffer.length - term.rows - 20); i < buffer.length; i++) {
      if (buffer.getLine(i)?.translateToString(true).includes(marker)) return true
    }
    return false
  }
  if (shows()) throw new Error(`"${marker}" is on screen before the turn`)
  window.__fxGlyph = new Promise((resolve, reject) => {
    let parsedAt = null
    const timer = setTimeout(() => {
      stop()
      reject(new Error(`"${marker}" did not appear within ${timeoutMs} ms`))
    }, timeoutMs)
    const parsed = term.onWriteParsed(() => {
      if (parsedAt === null && shows()) parsedAt = performance.timeOrigin + performance.now()
    })
    const rendered = term.onRender(() => {
      if (parsedAt === null) return
      const paintedAt = performance.timeOrigin + performance.now()
      stop()
      resolve({ parsedAt, paintedAt })
    })
    function stop() {
      clearTimeout(timer)
      parsed.dispose()
      rendered.dispose()
    }
  })
  window.__fxGlyph.catch(() => undefined)
}

/** In the page: true once no activity row is on screen (the turn is over). */
function turnOver() {
  const term = window.fxterm.term
  const buffer = term.buffer.active
  for (let i = buffer.baseY; i < buffer.baseY + term.rows; i++) {
    if (buffer.getLine(i)?.translateToString(true).includes('esc to interrupt')) return false
  }
  return true
}

/** A reply whose first SSE event carries the role and the first word, as the first byte. */
function glyphReply(marker, firstDelayMs) {
  const choice = (delta, finishReason = null) => ({ choices: [{ index: 0, delta, finish_reason: finishReason }] })
  return {
    chunks: [
      choice({ role: 'assistant', content: `${marker} ` }),
      choice({ content: 'is the first word, ' }),
      choice({ content: 'and the rest follows.' }),
      choice({}, 'stop'),
      { choices: [], usage: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 } },
    ],
    firstDelayMs,
    intervalMs: 20,
  }
}

async function glyphTurn(tab, mockUrl, turn, firstDelayMs) {
  const marker = `Kestrel${String(turn).padStart(3, '0')}`
  const prompt = `run ${turn}`
  await control(mockUrl, 'POST', '/__script', [glyphReply(marker, firstDelayMs)])
  const clock = await tab.evaluate(calibrate, { clockUrl: `${mockUrl}/__clock`, samples: CLOCK_SAMPLES })
  await tab.keyboard.type(prompt)
  await tab.waitForFunction((prompt) => {
    const buffer = window.fxterm.term.buffer.active
    for (let i = buffer.baseY; i < buffer.length; i++) if (buffer.getLine(i)?.translateToString(true).trimEnd() === `❯ ${prompt}`) return true
    return false
  }, prompt)
  await tab.evaluate(armGlyph, { marker, timeoutMs: TURN_TIMEOUT_MS })
  await tab.keyboard.press('Enter')
  const glyph = await tab.evaluate(() => window.__fxGlyph)
  const streams = await control(mockUrl, 'GET', '/__streams')
  const firstByteAtMs = streams.at(-1)?.firstByteAtMs
  if (typeof firstByteAtMs !== 'number') throw new Error('the mock server recorded no first byte')
  const firstByteInPage = firstByteAtMs - clock.offsetMs
  await tab.waitForFunction(turnOver, undefined, { timeout: TURN_TIMEOUT_MS, polling: 50 })
  return { firstDelayMs, glyphMs: glyph.parsedAt - firstByteInPage, paintedMs: glyph.paintedAt - firstByteInPage, clockUncertaintyMs: clock.rttMs / 2 }
}

/** Runs `runs` measured turns of each variant (after two warm-up turns) in one page. */
export async function benchFirstGlyph(browser, baseUrl, { runs = 9 } = {}) {
  const mock = await startMockModelServer()
  const context = await browser.newContext()
  const tab = await context.newPage()
  try {
    const params = new URLSearchParams({ baseUrl: `${mock.url}/v1`, model: 'mock-model' })
    await tab.goto(`${baseUrl}/?${params}`)
    await tab.waitForFunction(() => Boolean(window.fxterm?.term), undefined, { timeout: 30_000 })
    await tab.evaluate(() => window.fxterm.runtime.interactive)
    await tab.locator('.xterm-helper-textarea').focus()
    let turn = 0
    for (let i = 0; i < 2; i++) await glyphTurn(tab, mock.url, turn++, i === 0 ? TTFT_MS : 0)
    const samples = []
    for (let i = 0; i < runs; i++) {
      const order = i % 2 === 0 ? [TTFT_MS, 0] : [0, TTFT_MS]
      for (const firstDelayMs of order) {
        const sample = await glyphTurn(tab, mock.url, turn++, firstDelayMs)
        samples.push(sample)
        console.log(`first glyph run ${i + 1}/${runs} (time to first token ${pad(`${firstDelayMs} ms)`, 7)}: ${ms(sample.glyphMs)} to the buffer, ${ms(sample.paintedMs)} to the paint (clock ±${sample.clockUncertaintyMs.toFixed(2)} ms)`)
      }
    }
    const summary = (firstDelayMs) => {
      const runs = samples.filter((sample) => sample.firstDelayMs === firstDelayMs)
      const glyph = runs.map((sample) => sample.glyphMs)
      return { firstDelayMs, medianMs: median(glyph), p90Ms: percentile(glyph, 90), maxMs: Math.max(...glyph), paintedMedianMs: median(runs.map((sample) => sample.paintedMs)) }
    }
    const fast = summary(TTFT_MS)
    const atOnce = summary(0)
    return {
      runs,
      ttftMs: TTFT_MS,
      medianMs: fast.medianMs,
      target: GLYPH_TARGET_MS,
      ok: fast.medianMs <= GLYPH_TARGET_MS,
      variants: [fast, atOnce],
      clockUncertaintyMs: Math.max(...samples.map((sample) => sample.clockUncertaintyMs)),
      samples,
    }
  } finally {
    await context.close()
    await mock.close()
  }
}

/** The rows this bench adds to the printed table. */
export function firstGlyphLines(result) {
  const [fast, atOnce] = result.variants
  return [
    `first byte → first glyph (median of ${result.runs} turns each; server's first SSE byte → the word in term.buffer; clocks calibrated to ±${result.clockUncertaintyMs.toFixed(2)} ms)`,
    `  ${pad(`after ${fast.firstDelayMs} ms to first token`, 30)} ${pad(ms(fast.medianMs), 10)} p90 ${pad(ms(fast.p90Ms), 10)} painted ${pad(ms(fast.paintedMedianMs), 10)} target ≤ ${result.target} ms ${verdict(result.ok)}`,
    `  ${pad('answered at once', 30)} ${pad(ms(atOnce.medianMs), 10)} p90 ${pad(ms(atOnce.p90Ms), 10)} painted ${pad(ms(atOnce.paintedMedianMs), 10)} (lands while the prompt is still being drawn)`,
  ]
}
