// Render throughput: a megabyte of Markdown streamed by the mock model server in 4-character
// deltas (one SSE event each, sent as fast as the socket takes them) until its last line is in
// the terminal buffer, against the time xterm.js alone takes to parse the bytes the engine wrote
// for it. The page's term.write is recorded during the run; afterwards the same bytes go, in
// the same pieces, into a fresh Terminal of the same size and options laid over the page, and
// the time to its write callback is the baseline. Both are timed in the page, in the same run.
// A third time puts the target in context: a bare worker in the same page that only reads the
// same stream and JSON-parses its events (the wire's own cost, before any rendering).
import { startMockModelServer } from '../mock-model-server.mjs'
import { benchMarkdown, DOC_END } from './markdown-doc.mjs'
import { median, ms, pad, times, verdict } from './stats.mjs'

const DOC_BYTES = 1_000_000
const DELTA_CHARS = 4
const RATIO_TARGET = 2
const PROMPT = 'render the document'
const RUN_TIMEOUT_MS = 180_000

/**
 * In the page: records every term.write from now on, stamps the Enter keydown, and resolves when
 * the document's last line is in the buffer (`shownAt`) and when, after it, the activity row is
 * gone too (`settledAt`, the turn is over). Checked on every parsed write, bottom rows only.
 */
function armRecorder({ endLine, timeoutMs }) {
  const term = window.fxterm.term
  const rec = { chunks: [], bytes: 0, enterAt: null, shownAt: null, settledAt: null }
  const write = term.write
  term.write = function (data, callback) {
    const copy = typeof data === 'string' ? data : data.slice()
    rec.chunks.push(copy)
    rec.bytes += typeof copy === 'string' ? new TextEncoder().encode(copy).length : copy.length
    return write.call(term, data, callback)
  }
  const bottom = () => {
    const buffer = term.buffer.active
    const rows = []
    for (let i = Math.max(0, buffer.length - term.rows - 50); i < buffer.length; i++) rows.push(buffer.getLine(i)?.translateToString(true) ?? '')
    return rows
  }
  const onKey = (event) => {
    if (event.key === 'Enter' && rec.enterAt === null) rec.enterAt = performance.now()
  }
  window.addEventListener('keydown', onKey, { capture: true })
  window.__fxRender = new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop()
      reject(new Error(`"${endLine}" not settled on screen within ${timeoutMs} ms (shown: ${rec.shownAt !== null})`))
    }, timeoutMs)
    const parsed = term.onWriteParsed(() => {
      if (rec.enterAt === null) return
      const rows = bottom()
      const now = performance.now()
      if (rec.shownAt === null && rows.some((row) => row.includes(endLine))) rec.shownAt = now
      if (rec.shownAt !== null && !rows.some((row) => row.includes('esc to interrupt'))) {
        rec.settledAt = now
        stop()
        resolve(undefined)
      }
    })
    function stop() {
      clearTimeout(timer)
      parsed.dispose()
      window.removeEventListener('keydown', onKey, { capture: true })
      term.write = write
    }
  })
  window.__fxRender.catch(() => undefined)
  window.__fxRecord = rec
}

/** In the page: waits for the run, then replays the recorded writes into a fresh Terminal. */
async function replay() {
  await window.__fxRender
  const rec = window.__fxRecord
  const term = window.fxterm.term
  const host = document.getElementById('terminal')
  const box = host.getBoundingClientRect()
  const overlay = document.createElement('div')
  // Over the page's terminal, visible: an off-screen terminal would skip its renders.
  Object.assign(overlay.style, { position: 'fixed', left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px`, height: `${box.height}px`, zIndex: '10', background: '#000' })
  document.body.append(overlay)
  const o = term.options
  const fresh = new term.constructor({
    cols: term.cols,
    rows: term.rows,
    scrollback: o.scrollback,
    fontFamily: o.fontFamily,
    fontSize: o.fontSize,
    lineHeight: o.lineHeight,
    cursorBlink: o.cursorBlink,
    theme: o.theme,
    allowProposedApi: o.allowProposedApi,
  })
  fresh.open(overlay)
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
  const started = performance.now()
  await new Promise((resolve) => {
    const last = rec.chunks.length - 1
    rec.chunks.forEach((chunk, i) => (i === last ? fresh.write(chunk, resolve) : fresh.write(chunk)))
  })
  const replayMs = performance.now() - started
  // A faithful replay ends on the same screen (the footer included) as the page shows.
  const screen = (t) => {
    const buffer = t.buffer.active
    const rows = []
    for (let i = buffer.baseY; i < buffer.baseY + t.rows; i++) rows.push(buffer.getLine(i)?.translateToString(true).trimEnd() ?? '')
    return rows.join('\n')
  }
  const sameScreen = screen(fresh) === screen(term)
  fresh.dispose()
  overlay.remove()
  return {
    streamMs: rec.shownAt - rec.enterAt,
    settledMs: rec.settledAt - rec.enterAt,
    replayMs,
    writes: rec.chunks.length,
    bytesWritten: rec.bytes,
    cols: term.cols,
    rows: term.rows,
    sameScreen,
  }
}

/**
 * In the page: a throwaway worker fetches the same stream once more and does the least any
 * client must (read, decode, split events, JSON.parse each, join the text); resolves its time.
 */
function readWireOnly({ url }) {
  const source = `onmessage = async (event) => {
    const started = performance.now()
    const response = await fetch(event.data, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
    let pending = ''
    let text = ''
    let received = 0
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      received += value.length
      pending += value
      let end
      while ((end = pending.indexOf('\\n\\n')) >= 0) {
        const line = pending.slice(0, end)
        pending = pending.slice(end + 2)
        if (!line.startsWith('data: {')) continue
        const chunk = JSON.parse(line.slice(6))
        text += chunk.choices[0]?.delta?.content ?? ''
      }
    }
    postMessage({ ms: performance.now() - started, chars: text.length, received })
  }`
  const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })))
  return new Promise((resolve, reject) => {
    worker.onmessage = (event) => {
      worker.terminate()
      resolve(event.data)
    }
    worker.onerror = (event) => {
      worker.terminate()
      reject(new Error(`wire-only reader failed: ${event.message}`))
    }
    worker.postMessage(url)
  })
}

async function control(url, path, body) {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (!response.ok) throw new Error(`mock POST ${path}: HTTP ${response.status}`)
}

async function renderOnce(browser, baseUrl, mockUrl, doc) {
  const context = await browser.newContext()
  const tab = await context.newPage()
  try {
    await control(mockUrl, '/__reset')
    // The same reply twice: once for the app, once for the wire-only reader.
    await control(mockUrl, '/__script', [{ text: doc, deltaChars: DELTA_CHARS }, { text: doc, deltaChars: DELTA_CHARS }])
    const params = new URLSearchParams({ baseUrl: `${mockUrl}/v1`, model: 'mock-model' })
    await tab.goto(`${baseUrl}/?${params}`)
    await tab.waitForFunction(() => Boolean(window.fxterm?.term), undefined, { timeout: 30_000 })
    await tab.evaluate(() => window.fxterm.runtime.interactive)
    await tab.locator('.xterm-helper-textarea').focus()
    await tab.keyboard.type(PROMPT)
    await tab.waitForFunction((prompt) => {
      const buffer = window.fxterm.term.buffer.active
      for (let i = 0; i < buffer.length; i++) if (buffer.getLine(i)?.translateToString(true).trimEnd() === `❯ ${prompt}`) return true
      return false
    }, PROMPT)
    await tab.evaluate(armRecorder, { endLine: DOC_END, timeoutMs: RUN_TIMEOUT_MS })
    await tab.keyboard.press('Enter')
    const run = await tab.evaluate(replay)
    const wire = await tab.evaluate(readWireOnly, { url: `${mockUrl}/v1/chat/completions` })
    if (wire.chars !== doc.length) throw new Error(`the wire-only reader got ${wire.chars} characters of ${doc.length}`)
    return { ...run, wireMs: wire.ms, wireBytes: wire.received, ratio: run.streamMs / run.replayMs }
  } finally {
    await context.close()
  }
}

/** Runs the render bench `runs` times, each in a fresh context, against one mock server. */
export async function benchRender(browser, baseUrl, { runs = 3 } = {}) {
  const doc = benchMarkdown(DOC_BYTES)
  const mock = await startMockModelServer()
  const samples = []
  try {
    for (let i = 0; i < runs; i++) {
      const run = await renderOnce(browser, baseUrl, mock.url, doc)
      samples.push(run)
      console.log(`render run ${i + 1}/${runs}: streamed ${ms(run.streamMs)}, term.write alone ${ms(run.replayMs)}, ratio ${times(run.ratio)}; wire alone ${ms(run.wireMs)} (${run.writes} writes, ${(run.bytesWritten / 1024).toFixed(0)} KB${run.sameScreen ? '' : ', REPLAY ENDED ON ANOTHER SCREEN'})`)
    }
  } finally {
    await mock.close()
  }
  const ratio = median(samples.map((run) => run.ratio))
  return {
    docBytes: Buffer.byteLength(doc),
    deltaChars: DELTA_CHARS,
    sseEvents: Math.ceil(doc.length / DELTA_CHARS),
    runs,
    streamMs: median(samples.map((run) => run.streamMs)),
    settledMs: median(samples.map((run) => run.settledMs)),
    replayMs: median(samples.map((run) => run.replayMs)),
    wireMs: median(samples.map((run) => run.wireMs)),
    ratio,
    target: RATIO_TARGET,
    ok: ratio <= RATIO_TARGET,
    samples,
  }
}

/** The rows this bench adds to the printed table. */
export function renderLines(result) {
  const first = result.samples[0]
  return [
    `render throughput (median of ${result.runs}; ${(result.docBytes / 1e6).toFixed(2)} MB of Markdown in ${result.deltaChars}-character deltas: ${result.sseEvents} SSE events, ${(first.wireBytes / 1e6).toFixed(1)} MB on the wire)`,
    `  ${pad('streamed → last line', 22)} ${pad(ms(result.streamMs), 10)} (turn over ${ms(result.settledMs)})`,
    `  ${pad('term.write alone', 22)} ${pad(ms(result.replayMs), 10)} (${first.writes} writes, ${(first.bytesWritten / 1024).toFixed(0)} KB of ANSI at ${first.cols}×${first.rows})`,
    `  ${pad('ratio streamed/write', 22)} ${pad(times(result.ratio), 10)} target ≤ ${result.target}× ${verdict(result.ok)}   (median of the runs' ratios)`,
    `  ${pad('wire alone', 22)} ${pad(ms(result.wireMs), 10)} (a bare worker reading the same SSE and JSON-parsing each event: ${times(result.wireMs / result.replayMs)} term.write)`,
  ]
}
