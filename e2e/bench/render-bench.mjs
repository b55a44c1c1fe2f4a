// Render throughput: a megabyte of Markdown streamed by the mock model server in 4-character
// deltas (one SSE event each, sent as fast as the socket takes them) until its last line is in
// the terminal buffer, against two baselines, each timed to its last write's callback in a fresh
// Terminal of the same size and options:
// - the replay of the same frames: the page's term.write calls are recorded during the run and
//   written again, in the same pieces (what xterm.js alone takes to parse what the engine wrote);
// - term.write of the reply's text: the Markdown as the model sent it, in one write, newlines as
//   CRLF (what a terminal that only printed the reply would pay).
// Like is compared with like: the app's first reply (xterm.js's parser not yet optimised by V8,
// as on any fresh page) against each baseline in a fresh bare page, and a second reply after
// /clear (warm) against each baseline in the same page. Measured: the JIT warm-up alone made a
// first reply against a warm replay read ~1.5x worse.
// A last time puts the target in context: a bare worker in the same page that only reads the
// same stream and JSON-parses its events (the wire's own cost, before any rendering).
import { startMockModelServer } from '../../mock-servers/mock-model-server.mjs'
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

/**
 * In a page: writes `chunks` (the recorded writes, or the reply's text as one chunk) into a
 * fresh Terminal of the given size and options laid over `box`, visible (an off-screen terminal
 * would skip its renders); resolves the time to the last write's callback and the screen it ends
 * on. Used in the app's page after its stream (xterm.js's code already warm) and in a fresh bare
 * page (cold, as a first reply finds it).
 */
async function replayInto({ chunks, options, box }) {
  const Terminal = window.fxterm.term.constructor
  const overlay = document.createElement('div')
  Object.assign(overlay.style, { position: 'fixed', left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px`, height: `${box.height}px`, zIndex: '10', background: '#000' })
  document.body.append(overlay)
  const fresh = new Terminal(options)
  fresh.open(overlay)
  // Strings from another page arrive decoded: encoded again before the clock starts.
  const bytes = chunks.map((chunk) => (typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk))
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
  const started = performance.now()
  await new Promise((resolve) => {
    const last = bytes.length - 1
    bytes.forEach((chunk, i) => (i === last ? fresh.write(chunk, resolve) : fresh.write(chunk)))
  })
  const replayMs = performance.now() - started
  const buffer = fresh.buffer.active
  const rows = []
  for (let i = buffer.baseY; i < buffer.baseY + fresh.rows; i++) rows.push(buffer.getLine(i)?.translateToString(true).trimEnd() ?? '')
  fresh.dispose()
  overlay.remove()
  return { replayMs, screen: rows.join('\n') }
}

/**
 * In the app's page: waits for the run, then replays the recorded writes into a fresh Terminal
 * (warm), and with `text` writes the reply's text into another one. With `exportChunks`, also
 * returns the writes (decoded, in the same pieces), the options and the box, for the cold
 * baselines in pages of their own.
 */
async function replay({ exportChunks, replayIntoSource, text }) {
  await window.__fxRender
  const rec = window.__fxRecord
  const term = window.fxterm.term
  const box = document.getElementById('terminal').getBoundingClientRect()
  const o = term.options
  const options = { cols: term.cols, rows: term.rows, scrollback: o.scrollback, fontFamily: o.fontFamily, fontSize: o.fontSize, lineHeight: o.lineHeight, cursorBlink: o.cursorBlink, theme: o.theme, allowProposedApi: o.allowProposedApi }
  const frame = { left: box.left, top: box.top, width: box.width, height: box.height }
  const replayIntoHere = (0, eval)(`(${replayIntoSource})`)
  const warm = await replayIntoHere({ chunks: rec.chunks, options, box: frame })
  const warmText = text === undefined ? null : await replayIntoHere({ chunks: [text], options, box: frame })
  const buffer = term.buffer.active
  const rows = []
  for (let i = buffer.baseY; i < buffer.baseY + term.rows; i++) rows.push(buffer.getLine(i)?.translateToString(true).trimEnd() ?? '')
  const screen = rows.join('\n')
  const decoder = new TextDecoder()
  return {
    streamMs: rec.shownAt - rec.enterAt,
    settledMs: rec.settledAt - rec.enterAt,
    replayMs: warm.replayMs,
    textMs: warmText?.replayMs ?? null,
    writes: rec.chunks.length,
    bytesWritten: rec.bytes,
    cols: term.cols,
    rows: term.rows,
    // A faithful replay ends on the same screen (the footer included) as the page shows.
    sameScreen: warm.screen === screen,
    screen,
    ...(exportChunks
      ? { chunks: rec.chunks.map((chunk) => (typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }))), options, box: frame }
      : {}),
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

/** The reply as the model sent it, as a plain terminal would print it: newlines as CRLF. */
const asTerminalText = (doc) => doc.replace(/\n/g, '\r\n')

/** Types `prompt` into the app's composer, arms the recorder and sends it; resolves the run. */
async function streamReply(tab, exportChunks, text) {
  await tab.keyboard.type(PROMPT)
  await tab.waitForFunction((prompt) => {
    const buffer = window.fxterm.term.buffer.active
    for (let i = 0; i < buffer.length; i++) if (buffer.getLine(i)?.translateToString(true).trimEnd() === `❯ ${prompt}`) return true
    return false
  }, PROMPT)
  await tab.evaluate(armRecorder, { endLine: DOC_END, timeoutMs: RUN_TIMEOUT_MS })
  await tab.keyboard.press('Enter')
  return tab.evaluate(replay, { exportChunks, replayIntoSource: replayInto.toString(), text })
}

/**
 * One run, three replies of the same document: the app's first (xterm.js cold, as on a fresh
 * page), the wire-only reader's, and the app's second after /clear (xterm.js warm). The first is
 * compared with its frames and with the reply's text, each in a fresh bare page (cold against
 * cold), the second with both in its own page (warm against warm); cold against warm would
 * charge the first reply with the JIT warm-up of xterm.js's parser that its baseline never pays.
 */
async function renderOnce(browser, baseUrl, mockUrl, doc) {
  const context = await browser.newContext()
  const tab = await context.newPage()
  try {
    await control(mockUrl, '/__reset')
    const reply = { text: doc, deltaChars: DELTA_CHARS }
    await control(mockUrl, '/__script', [reply, reply, reply])
    const params = new URLSearchParams({ baseUrl: `${mockUrl}/v1`, model: 'mock-model' })
    await tab.goto(`${baseUrl}/?${params}`)
    await tab.waitForFunction(() => Boolean(window.fxterm?.term), undefined, { timeout: 30_000 })
    await tab.evaluate(() => window.fxterm.runtime.interactive)
    await tab.locator('.xterm-helper-textarea').focus()
    const text = asTerminalText(doc)
    const first = await streamReply(tab, true)
    const cold = await replayCold(browser, baseUrl, first.chunks, first)
    const coldText = await replayCold(browser, baseUrl, [text], first)
    const wire = await tab.evaluate(readWireOnly, { url: `${mockUrl}/v1/chat/completions` })
    if (wire.chars !== doc.length) throw new Error(`the wire-only reader got ${wire.chars} characters of ${doc.length}`)
    await tab.keyboard.type('/clear')
    await tab.keyboard.press('Enter')
    await tab.waitForFunction(() => window.fxterm.term.buffer.active.length <= window.fxterm.term.rows)
    const second = await streamReply(tab, false, text)
    const { chunks: _c, options: _o, box: _b, screen: _s, textMs: _t, ...firstRun } = first
    return {
      ...firstRun,
      replayColdMs: cold.replayMs,
      coldSameScreen: cold.screen === first.screen,
      textColdMs: coldText.replayMs,
      warmStreamMs: second.streamMs,
      warmReplayMs: second.replayMs,
      textWarmMs: second.textMs,
      wireMs: wire.ms,
      wireBytes: wire.received,
      ratio: first.streamMs / first.replayMs,
      coldRatio: first.streamMs / cold.replayMs,
      warmRatio: second.streamMs / second.replayMs,
      textColdRatio: first.streamMs / coldText.replayMs,
      textWarmRatio: second.streamMs / second.textMs,
    }
  } finally {
    await context.close()
  }
}

/** `chunks` (the first reply's writes, or its text), written in a bare xterm.js page of its own (cold code), at the first reply's size. */
async function replayCold(browser, baseUrl, chunks, first) {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await page.goto(`${baseUrl}/e2e/bench/bare.html`)
    await page.waitForFunction(() => Boolean(window.fxterm?.term))
    return await page.evaluate(replayInto, { chunks, options: first.options, box: first.box })
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
      const other = run.sameScreen && run.coldSameScreen ? '' : ', A REPLAY ENDED ON ANOTHER SCREEN'
      console.log(
        `render run ${i + 1}/${runs}: first reply ${ms(run.streamMs)} vs its frames replayed in a fresh page ${ms(run.replayColdMs)} (${times(run.coldRatio)}) ` +
          `and its text written there ${ms(run.textColdMs)} (${times(run.textColdRatio)}); ` +
          `second reply ${ms(run.warmStreamMs)} vs its frames replayed warm ${ms(run.warmReplayMs)} (${times(run.warmRatio)}) ` +
          `and its text written warm ${ms(run.textWarmMs)} (${times(run.textWarmRatio)}); ` +
          `wire alone ${ms(run.wireMs)} (${run.writes} writes, ${(run.bytesWritten / 1024).toFixed(0)} KB${other})`,
      )
    }
  } finally {
    await mock.close()
  }
  const of = (key) => median(samples.map((run) => run[key]))
  const coldRatio = of('coldRatio')
  const warmRatio = of('warmRatio')
  return {
    docBytes: Buffer.byteLength(doc),
    deltaChars: DELTA_CHARS,
    sseEvents: Math.ceil(doc.length / DELTA_CHARS),
    runs,
    streamMs: of('streamMs'),
    settledMs: of('settledMs'),
    replayMs: of('replayMs'),
    replayColdMs: of('replayColdMs'),
    textColdMs: of('textColdMs'),
    warmStreamMs: of('warmStreamMs'),
    warmReplayMs: of('warmReplayMs'),
    textWarmMs: of('textWarmMs'),
    wireMs: of('wireMs'),
    ratio: of('ratio'),
    coldRatio,
    warmRatio,
    textColdRatio: of('textColdRatio'),
    textWarmRatio: of('textWarmRatio'),
    target: RATIO_TARGET,
    // Like against like: a first reply against a first write, a later one against a later one.
    ok: coldRatio <= RATIO_TARGET && warmRatio <= RATIO_TARGET,
    samples,
  }
}

/** The rows this bench adds to the printed table. */
export function renderLines(result) {
  const first = result.samples[0]
  const row = (label, value, rest = '') => `    ${pad(label, 44)} ${pad(value, 10)} ${rest}`.trimEnd()
  const target = (ratio) => `target ≤ ${result.target}× ${verdict(ratio <= result.target)}`
  return [
    `render throughput (median of ${result.runs}; ${(result.docBytes / 1e6).toFixed(2)} MB of Markdown in ${result.deltaChars}-character deltas: ${result.sseEvents} SSE events, ${(first.wireBytes / 1e6).toFixed(1)} MB on the wire; ${first.writes} frames, ${(first.bytesWritten / 1024).toFixed(0)} KB of ANSI at ${first.cols}×${first.rows})`,
    `  first reply (fresh page: xterm.js's code cold)`,
    row('streamed → last line in the buffer', ms(result.streamMs), `(turn over ${ms(result.settledMs)})`),
    row('replay of the same frames, fresh page', ms(result.replayColdMs), `ratio ${times(result.coldRatio)} ${target(result.coldRatio)}`),
    row("term.write of the reply's text, fresh page", ms(result.textColdMs), `ratio ${times(result.textColdRatio)}`),
    `  second reply (after /clear, same page: warm)`,
    row('streamed → last line in the buffer', ms(result.warmStreamMs)),
    row('replay of the same frames, same page', ms(result.warmReplayMs), `ratio ${times(result.warmRatio)} ${target(result.warmRatio)}`),
    row("term.write of the reply's text, same page", ms(result.textWarmMs), `ratio ${times(result.textWarmRatio)}`),
    `  (ratios: the reply's time over the baseline's, the median of the runs' ratios)`,
    `  ${pad('wire alone', 46)} ${pad(ms(result.wireMs), 10)} (a bare worker reading the same SSE and JSON-parsing each event: ${times(result.wireMs / result.replayColdMs)} the cold replay)`,
  ]
}
