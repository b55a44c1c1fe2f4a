// Keystroke echo latency: a real key (Playwright's keyboard, one key at a time) → the character
// in the terminal buffer, for fxterm (key → engine worker → wasm → write back) and for the bare
// page (xterm echoes locally), then for fxterm again while a CPU-heavy command keeps the bash
// worker busy. Both ends are stamped in the page: keydown in the capture phase, before xterm
// sees it, and xterm's onWriteParsed once the character is in the buffer (onRender, when it is
// painted, is recorded too).
import { percentile, ms, pad, times, verdict } from './stats.mjs'

/** Letters only: a typed space at the end of a row would read back as trimmed. */
const TEXT = 'thequickbrownfoxjumpsoverthelazydogagain'
/** Typed first and dropped from the stats: the first keys pay for JIT and first paints. */
const WARM = 'warmkeys'
const P95_TARGET_MS = 16
const RATIO_TARGET = 2
const ECHO_TIMEOUT_MS = 5_000
/** 2,000,000 iterations of shell arithmetic: far longer than typing 48 keys takes, if the shell lets it run. */
const CPU_COMMAND = 'i=0; while [ $i -lt 2000000 ]; do i=$((i+1)); done'

/** In the page: stamps keydowns and the moment each typed character is in the buffer / painted. */
export function installRecorder({ typed, mode }) {
  const term = window.fxterm.term
  const rec = { downs: [], queued: [], parsed: [], painted: [] }
  /** How many of the typed characters the screen shows: the composer row, or the bare page's row. */
  const shown = () => {
    const buffer = term.buffer.active
    for (let i = Math.min(buffer.length, buffer.baseY + term.rows) - 1; i >= buffer.baseY; i--) {
      let line = buffer.getLine(i)?.translateToString(true) ?? ''
      if (mode === 'composer') {
        if (line !== '❯' && !line.startsWith('❯ ')) continue
        line = line.slice(2)
      }
      if (line.length > 0 && typed.startsWith(line)) return line.length
      if (mode === 'composer') return 0
    }
    return 0
  }
  window.addEventListener(
    'keydown',
    (event) => {
      if (event.key.length !== 1) return
      const now = performance.now()
      rec.downs.push(now)
      rec.queued.push(now - event.timeStamp) // how long the key waited for the main thread
    },
    { capture: true },
  )
  term.onWriteParsed(() => {
    const count = Math.min(shown(), rec.downs.length)
    const now = performance.now()
    while (rec.parsed.length < count) rec.parsed.push(now)
  })
  term.onRender(() => {
    const now = performance.now()
    while (rec.painted.length < rec.parsed.length) rec.painted.push(now)
  })
  window.__fxEcho = rec
}

/** In the page: resolves once `count` characters are painted (or rejects after a timeout). */
export function waitForPainted({ count, timeoutMs }) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const check = () => {
      if (window.__fxEcho.painted.length >= count) resolve(undefined)
      else if (performance.now() - started > timeoutMs) reject(new Error(`key ${count} not echoed within ${timeoutMs} ms (parsed ${window.__fxEcho.parsed.length}, keys ${window.__fxEcho.downs.length})`))
      else requestAnimationFrame(check)
    }
    check()
  })
}

/**
 * In the page: keeps the bash worker busy with the CPU command, re-running it whenever it ends
 * (the shell may stop it early at its loop limit), until stopped; records when it was busy.
 */
async function startCpuLoad({ command }) {
  const workspace = window.fxterm.workspace
  const signal = new AbortController().signal
  // just-bash loads on the first command: load it before the busy phase, not during it.
  await workspace.exec({ command: 'true', cwd: '/workspace', signal, timeoutMs: 30_000, outputLimitBytes: 65_536 })
  const controller = new AbortController()
  const load = { controller, busy: [], results: [], stopped: false }
  load.done = (async () => {
    while (!load.stopped) {
      const started = performance.now()
      const result = await workspace.exec({ command, cwd: '/workspace', signal: controller.signal, timeoutMs: 30_000, outputLimitBytes: 65_536 })
      load.busy.push([started, performance.now()])
      load.results.push({ exitCode: result.exitCode, ms: performance.now() - started, stderr: result.stderr.slice(0, 160) })
    }
  })()
  window.__fxLoad = load
}

/** In the page: stops the load (the running command is cancelled) and summarizes it. */
async function stopCpuLoad() {
  const load = window.__fxLoad
  const stoppedAt = performance.now()
  const finishedBeforeStop = load.results.length
  load.stopped = true
  load.controller.abort()
  await load.done
  const downs = window.__fxEcho.downs
  // A key counts as "during the command" when a run of it was in progress at the keydown.
  const covered = downs.filter((at) => load.busy.some(([from, to]) => from <= at && at <= Math.max(to, stoppedAt))).length
  return { runs: load.results.length, finishedBeforeStop, results: load.results.slice(0, 5), keysDuringCommand: covered, keys: downs.length }
}

/** Opens `path`, waits until it takes keys, types WARM + TEXT one key at a time; returns samples. */
async function typeAndRecord(browser, url, mode, { cpuLoad = false } = {}) {
  const context = await browser.newContext()
  const tab = await context.newPage()
  try {
    await tab.goto(url)
    await tab.waitForFunction(() => Boolean(window.fxterm?.term), undefined, { timeout: 30_000 })
    if (mode === 'composer') await tab.evaluate(() => window.fxterm.runtime.interactive)
    await tab.locator('.xterm-helper-textarea').focus()
    if (cpuLoad) await tab.evaluate(startCpuLoad, { command: CPU_COMMAND })
    const typed = WARM + TEXT
    await tab.evaluate(installRecorder, { typed, mode })
    for (let i = 0; i < typed.length; i++) {
      await tab.keyboard.press(typed[i])
      // One key at a time, each after the last one's echo: latency, not a queue's throughput.
      await tab.evaluate(waitForPainted, { count: i + 1, timeoutMs: ECHO_TIMEOUT_MS })
    }
    const load = cpuLoad ? await tab.evaluate(stopCpuLoad) : null
    const rec = await tab.evaluate(() => window.__fxEcho)
    const from = WARM.length
    const pick = (ends) => ends.slice(from, typed.length).map((at, i) => at - rec.downs[from + i])
    const buffer = pick(rec.parsed)
    const painted = pick(rec.painted)
    const queued = rec.queued.slice(from)
    return {
      keys: buffer.length,
      buffer: { p50: percentile(buffer, 50), p95: percentile(buffer, 95), samples: buffer },
      painted: { p50: percentile(painted, 50), p95: percentile(painted, 95), samples: painted },
      queuedP95: percentile(queued, 95),
      ...(load ? { load } : {}),
    }
  } finally {
    await context.close()
  }
}

export async function benchEcho(browser, baseUrl) {
  const fxterm = await typeAndRecord(browser, `${baseUrl}/`, 'composer')
  const bare = await typeAndRecord(browser, `${baseUrl}/e2e/bench/bare.html`, 'anywhere')
  const busy = await typeAndRecord(browser, `${baseUrl}/`, 'composer', { cpuLoad: true })
  // The ratio is judged on what a person sees, the painted character: the bare page writes the
  // echo into its buffer synchronously (≈0.2 ms), so a buffer-to-buffer ratio only measures
  // that fxterm's echo comes from another thread. Both are reported.
  const ratio = {
    painted: { p50: fxterm.painted.p50 / bare.painted.p50, p95: fxterm.painted.p95 / bare.painted.p95 },
    buffer: { p50: fxterm.buffer.p50 / bare.buffer.p50, p95: fxterm.buffer.p95 / bare.buffer.p95 },
  }
  const result = {
    text: TEXT,
    cpuCommand: CPU_COMMAND,
    targets: { p95Ms: P95_TARGET_MS, ratio: RATIO_TARGET },
    fxterm,
    bare,
    ratio,
    busy,
    ok: {
      fxtermP95: fxterm.buffer.p95 <= P95_TARGET_MS,
      ratio: ratio.painted.p95 <= RATIO_TARGET,
      busyP95: busy.buffer.p95 <= P95_TARGET_MS,
      busyCovered: busy.load.keysDuringCommand === busy.load.keys,
    },
  }
  for (const [name, run] of Object.entries({ fxterm, bare, 'fxterm+cpu': busy })) {
    console.log(`echo ${pad(name, 10)} buffer p50 ${ms(run.buffer.p50)} p95 ${ms(run.buffer.p95)}   painted p50 ${ms(run.painted.p50)} p95 ${ms(run.painted.p95)}`)
  }
  return result
}

/** The rows this bench adds to the printed table. */
export function echoLines(result) {
  const { fxterm, bare, busy, ratio, ok, targets } = result
  const row = (name, run) => `  ${pad(name, 22)} p50 ${pad(ms(run.buffer.p50), 9)} p95 ${pad(ms(run.buffer.p95), 9)} (painted p50 ${ms(run.painted.p50)}, p95 ${ms(run.painted.p95)})`
  const load = busy.load
  const finished = load.results.slice(0, load.finishedBeforeStop)
  const how = finished.length === 0
    ? `still running after the last key (${ms(load.results[0]?.ms)}, then stopped by the bench)`
    : `ended ${finished.length}× before the last key (exit ${[...new Set(finished.map((r) => r.exitCode))].join(', ')}, first after ${ms(finished[0].ms)}) and was re-run`
  return [
    `keystroke echo latency (${fxterm.keys} keys, keydown → character in term.buffer)`,
    `${row('fxterm', fxterm)} target p95 ≤ ${targets.p95Ms} ms ${verdict(ok.fxtermP95)}`,
    row('bare xterm.js', bare),
    `  ${pad('ratio fxterm/bare', 22)} painted p50 ${times(ratio.painted.p50)} p95 ${times(ratio.painted.p95)} target p95 ≤ ${targets.ratio}× ${verdict(ok.ratio)}   (buffer p50 ${times(ratio.buffer.p50)} p95 ${times(ratio.buffer.p95)})`,
    `${row('fxterm + CPU command', busy)} target p95 ≤ ${targets.p95Ms} ms ${verdict(ok.busyP95)}`,
    `  ${pad('', 22)} CPU command: ${load.keysDuringCommand}/${load.keys} keys while it ran; ${how}`,
  ]
}
