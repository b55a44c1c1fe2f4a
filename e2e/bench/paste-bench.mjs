// A 1 MiB paste: from `term.paste(text)` (what xterm does with a browser paste: bracketed-paste
// marks around the text, then onData) to the composer showing its placeholder, timed in the page.
// Each run is a fresh page on the offline demo, so every paste is the session's first (#1).
import { median, ms, pad, percentile, verdict } from './stats.mjs'

const PASTE_BYTES = 1024 * 1024
const TARGET_MS = 200
const TIMEOUT_MS = 30_000

/** `bytes` of ASCII in 80-byte lines (newline included), the same every run. */
function pasteText(bytes) {
  const lines = []
  let length = 0
  for (let n = 1; length < bytes; n++) {
    const line = `paste-bench line ${String(n).padStart(6, '0')}: the quick brown fox jumps over the lazy dog`.padEnd(79, '.')
    lines.push(line)
    length += line.length + 1
  }
  return lines.join('\n').slice(0, bytes)
}

/** In the page: pastes, then stamps when the placeholder is in the buffer and when it is painted. */
function pasteAndTime({ text, timeoutMs }) {
  const term = window.fxterm.term
  const expected = /^❯ \[Pasted text #1, \d+ lines\]/
  const shows = () => {
    const buffer = term.buffer.active
    for (let i = buffer.baseY; i < buffer.baseY + term.rows; i++) if (expected.test(buffer.getLine(i)?.translateToString(true) ?? '')) return true
    return false
  }
  return new Promise((resolve, reject) => {
    let shownAt = null
    let started = 0
    let returnedAt = 0
    const timer = setTimeout(() => {
      stop()
      reject(new Error(`no paste placeholder within ${timeoutMs} ms`))
    }, timeoutMs)
    const parsed = term.onWriteParsed(() => {
      if (shownAt === null && shows()) shownAt = performance.now()
    })
    const rendered = term.onRender(() => {
      if (shownAt === null) return
      const paintedAt = performance.now()
      stop()
      resolve({ pasteCallMs: returnedAt - started, shownMs: shownAt - started, paintedMs: paintedAt - started, chars: text.length })
    })
    function stop() {
      clearTimeout(timer)
      parsed.dispose()
      rendered.dispose()
    }
    started = performance.now()
    term.paste(text)
    returnedAt = performance.now()
  })
}

async function pasteOnce(browser, baseUrl, text) {
  const context = await browser.newContext()
  const tab = await context.newPage()
  try {
    await tab.goto(`${baseUrl}/`)
    await tab.waitForFunction(() => Boolean(window.fxterm?.term), undefined, { timeout: 30_000 })
    await tab.evaluate(() => window.fxterm.runtime.interactive)
    return await tab.evaluate(pasteAndTime, { text, timeoutMs: TIMEOUT_MS })
  } finally {
    await context.close()
  }
}

export async function benchPaste(browser, baseUrl, { runs = 5 } = {}) {
  const text = pasteText(PASTE_BYTES)
  // One unrecorded paste first: the first page in the browser pays for compiling the engine.
  await pasteOnce(browser, baseUrl, text)
  const samples = []
  for (let i = 0; i < runs; i++) {
    const run = await pasteOnce(browser, baseUrl, text)
    samples.push(run)
    console.log(`paste run ${i + 1}/${runs}: placeholder in buffer ${ms(run.shownMs)}, painted ${ms(run.paintedMs)} (term.paste itself ${ms(run.pasteCallMs)})`)
  }
  const shown = samples.map((run) => run.shownMs)
  const result = {
    bytes: PASTE_BYTES,
    runs,
    shownMs: { median: median(shown), max: percentile(shown, 100) },
    paintedMs: { median: median(samples.map((run) => run.paintedMs)) },
    pasteCallMs: { median: median(samples.map((run) => run.pasteCallMs)) },
    target: TARGET_MS,
    samples,
  }
  result.ok = result.shownMs.median <= TARGET_MS
  return result
}

/** The rows this bench adds to the printed table. */
export function pasteLines(result) {
  return [
    `1 MiB paste (median of ${result.runs}, term.paste → "[Pasted text #1, N lines]" in the composer)`,
    `  ${pad('in term.buffer', 22)} ${pad(ms(result.shownMs.median), 10)} (slowest ${ms(result.shownMs.max)}) target ≤ ${result.target} ms ${verdict(result.ok)}`,
    `  ${pad('painted', 22)} ${pad(ms(result.paintedMs.median), 10)} (term.paste itself ${ms(result.pasteCallMs.median)})`,
  ]
}
