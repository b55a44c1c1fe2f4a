// Sessions: how long a commit of a 10-, 100- and 1,000-turn session takes (about 4 KB a turn), how
// long a reload takes from navigation to the resumed transcript on screen, next to a bare xterm.js
// page that reads the same bytes raw from IndexedDB and writes the same turns (same browser
// context, same run), and how fast a key echoes while 4 MB commits run.
//
// Sessions are generated in the engine's snapshot format ("FXSN" · version · meta · body JSON) and
// written straight into the page's session database, as the IndexedDB store keeps them.
//
//   node e2e/bench/session-bench.mjs [baseUrl]   on its own, against a running `vite preview`
//                                                (default http://localhost:4173); run-bench.mjs
//                                                runs it as its `sessions` part
import { pathToFileURL } from 'node:url'
import { chromium } from '@playwright/test'
import { findBrowser } from '../find-browser.mjs'
import { startMockModelServer } from '../../mock-servers/mock-model-server.mjs'
import { median, ms, pad, percentile, times, verdict } from './stats.mjs'
import { installRecorder, waitForPainted } from './echo-bench.mjs'

const SIZES = [10, 100, 1000]
const TURN_BYTES = 4096
/**
 * What the engine replays on resume (REPLAY_TURNS and REPLAY_BYTES in wasm/engine/session/session.ts):
 * the last turns, at most 10, as many as fit in 16 KiB of message text (the last one always).
 */
const REPLAY_TURNS = 10
const REPLAY_BYTES = 16 * 1024
const COMMITS_PER_RUN = 3
const RESUME_TARGET_MS = 300
const RATIO_TARGET = 2
const COMMIT_TARGET_MS = 50
const ECHO_P95_TARGET_MS = 16
const TIMEOUT_MS = 30_000
const COMMIT_MEASURE = 'fxterm:session-commit'
/** Tool steps scripted for the typing phase: each one commits the whole session twice. */
const TOOL_STEPS = 90
/** Letters only, as in echo-bench.mjs (a typed space at the end of a row reads back as trimmed). */
const TEXT = 'thequickbrownfoxjumpsoverthelazydogagain'
const WARM = 'warmkeys'

/**
 * In the page: writes a generated session into the session database, as idbSessionStore keeps it
 * (`['meta', id]` and `['data', id]` in `fxterm-sessions`; stored whole, as before parts, which
 * still loads). `live` turns stay in the conversation; older ones are `archived` (compacted away:
 * in the bytes, not in model requests). Also what the page notes after a session was saved
 * (src/page/app/page-saved-sessions-flag.ts), as the visit that saved it would have left.
 */
export async function seedSession({ id, turns, live, turnBytes }) {
  const filler =
    'The parser reads one token at a time, checks it against the grammar and either extends the current node or closes it. '
  const messages = []
  for (let t = 1; t <= turns; t++) {
    const prompt = `Turn ${t}: what does step ${t} of the parser do, and why?`
    let reply = `Step ${t} of the parser, explained.\n\n`
    for (let p = 0; reply.length + prompt.length < turnBytes; p++) reply += filler + (p % 4 === 3 ? '\n\n' : '')
    messages.push({ role: 'user', content: prompt }, { role: 'assistant', content: reply.slice(0, turnBytes - prompt.length) })
  }
  const split = messages.length - Math.min(live, turns) * 2
  const now = Date.now()
  const meta = { id, title: `Bench session of ${turns} turns`, createdMs: now - 3_600_000, updatedMs: now, turns, firstPrompt: messages[0].content }
  const body = { model: '', provider: '', mode: 'auto', fast: false, messages: messages.slice(split), archived: messages.slice(0, split), turn: { active: false, runningCallId: '' } }
  const encoder = new TextEncoder()
  const metaBytes = encoder.encode(JSON.stringify(meta))
  const bodyBytes = encoder.encode(JSON.stringify(body))
  const bytes = new Uint8Array(12 + metaBytes.length + bodyBytes.length)
  const view = new DataView(bytes.buffer)
  view.setUint32(0, 0x4e535846, true)
  view.setUint32(4, 2, true)
  view.setUint32(8, metaBytes.length, true)
  bytes.set(metaBytes, 12)
  bytes.set(bodyBytes, 12 + metaBytes.length)
  const db = await new Promise((resolve, reject) => {
    const open = indexedDB.open('fxterm-sessions')
    open.onupgradeneeded = () => open.result.createObjectStore('records')
    open.onsuccess = () => resolve(open.result)
    open.onerror = () => reject(open.error)
  })
  await new Promise((resolve, reject) => {
    const tx = db.transaction('records', 'readwrite')
    const store = tx.objectStore('records')
    store.put({ id, revision: '1.bench', seq: 1, updatedAtMs: now }, ['meta', id])
    // Stored as fxterm stores it (src/engine-worker/stores/session-parts.ts): even parts of at most 128 KiB.
    const count = Math.ceil(bytes.length / (128 * 1024))
    const parts = []
    for (let key = 0; key < count; key++) {
      const from = Math.floor((bytes.length * key) / count)
      const to = Math.floor((bytes.length * (key + 1)) / count)
      store.put(bytes.slice(from, to), ['part', id, key])
      parts.push({ key, length: to - from })
    }
    store.put({ revision: '1.bench', parts, nextKey: count }, ['data', id])
    tx.oncomplete = resolve
    tx.onerror = () => reject(tx.error)
  })
  db.close()
  // What the page that wrote this session would have left: that it saved one, and that it held
  // this session's lock (the next load claims that lock early, src/page/start-up/page-first-script.ts).
  localStorage.setItem('fxterm:has-saved-sessions', '1')
  localStorage.setItem('fxterm:held-session', id)
  return { bytes: bytes.length }
}

/** Init script for the fxterm page: stamps when the resumed session's notice is in the buffer and painted. */
function installResumeProbe() {
  const rec = (window.__fxResume = { shownAt: null, paintedAt: null })
  let handle
  // main.ts assigns window.fxterm once the terminal exists; hook its writes from that moment.
  Object.defineProperty(window, 'fxterm', {
    configurable: true,
    get: () => handle,
    set(value) {
      handle = value
      const term = value.term
      const shows = () => {
        const buffer = term.buffer.active
        for (let i = buffer.baseY; i < buffer.baseY + term.rows; i++) {
          if ((buffer.getLine(i)?.translateToString(true) ?? '').includes('Session resumed: Bench session')) return true
        }
        return false
      }
      term.onWriteParsed(() => {
        if (rec.shownAt === null && shows()) rec.shownAt = performance.now()
      })
      term.onRender(() => {
        if (rec.shownAt !== null && rec.paintedAt === null) rec.paintedAt = performance.now()
      })
    },
  })
}

/**
 * Init script for the bare page: at document start, reads the session's bytes raw from IndexedDB
 * and takes the text of the turns fxterm replays; once xterm.js exists, writes it. Stamps each step.
 */
function installRawResume({ id, replayTurns, replayBytes }) {
  const rec = (window.__rawResume = { readAt: null, decodedAt: null, shownAt: null, paintedAt: null, chars: 0 })
  const text = (async () => {
    const db = await new Promise((resolve, reject) => {
      const open = indexedDB.open('fxterm-sessions')
      open.onsuccess = () => resolve(open.result)
      open.onerror = () => reject(open.error)
    })
    // In parts, as seeded and as fxterm commits it (in the same transaction: the data record,
    // then every part, joined in the record's order).
    const bytes = await new Promise((resolve, reject) => {
      const store = db.transaction('records', 'readonly').objectStore('records')
      const request = store.get(['data', id])
      const range = IDBKeyRange.bound(['part', id], ['part', id, []])
      const keys = store.getAllKeys(range)
      const values = store.getAll(range)
      values.onsuccess = () => {
        const record = request.result
        const byKey = new Map(keys.result.map((key, i) => [key[2], values.result[i]]))
        const out = new Uint8Array(record.parts.reduce((n, part) => n + part.length, 0))
        record.parts.reduce((at, part) => (out.set(byKey.get(part.key), at), at + part.length), 0)
        resolve(out)
      }
      values.onerror = () => reject(values.error)
    })
    db.close()
    rec.readAt = performance.now()
    const metaLen = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(8, true)
    const body = JSON.parse(new TextDecoder().decode(bytes.subarray(12 + metaLen)))
    // The same turns fxterm shows (the seeded turns are a prompt and a reply each).
    const size = (m) => new TextEncoder().encode(m.content).length
    let shown = 0
    let textBytes = 0
    while (shown < replayTurns && shown * 2 < body.messages.length) {
      const turn = size(body.messages.at(-2 * shown - 2)) + size(body.messages.at(-2 * shown - 1))
      if (shown > 0 && textBytes + turn > replayBytes) break
      textBytes += turn
      shown++
    }
    const messages = body.messages.slice(-shown * 2)
    const out = messages.map((m) => (m.role === 'user' ? `> ${m.content}` : m.content)).join('\n\n').replace(/\n/g, '\r\n')
    rec.decodedAt = performance.now()
    rec.chars = out.length
    return out
  })()
  let handle
  Object.defineProperty(window, 'fxterm', {
    configurable: true,
    get: () => handle,
    set(value) {
      handle = value
      void text.then((transcript) => {
        value.term.write(transcript, () => {
          rec.shownAt = performance.now()
          const painted = value.term.onRender(() => {
            rec.paintedAt = performance.now()
            painted.dispose()
          })
        })
      })
    },
  })
}

/** In the page: renames the session `count` times, each after the last commit is stored; returns the timings. */
async function timeCommits({ count, measure, timeoutMs }) {
  const runtime = window.fxterm.runtime
  await runtime.interactive
  const samples = []
  for (let i = 0; i < count; i++) {
    const stored = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no commit within ${timeoutMs} ms`)), timeoutMs)
      const observer = new PerformanceObserver((list) => {
        const entry = list.getEntriesByName(measure)[0]
        if (!entry) return
        clearTimeout(timer)
        observer.disconnect()
        resolve(entry)
      })
      observer.observe({ type: 'measure' })
    })
    const started = performance.now()
    runtime.write(`/rename Bench session renamed ${i + 1}\r`)
    const entry = await stored
    samples.push({ endToEndMs: entry.startTime + entry.duration - started, storeMs: entry.duration, bytes: entry.detail?.bytes ?? 0 })
  }
  return samples
}

async function waitFor(tab, name, what) {
  const handle = await tab.waitForFunction((key) => window[key]?.shownAt ?? null, name, { timeout: TIMEOUT_MS, polling: 50 }).catch(() => {
    throw new Error(`${what}: the transcript did not show within ${TIMEOUT_MS} ms`)
  })
  await tab.waitForFunction((key) => window[key].paintedAt !== null, name, { timeout: TIMEOUT_MS, polling: 50 })
  await handle.dispose()
  return tab.evaluate((key) => window[key], name)
}

/** One run for one size: seed, bare page and fxterm page (order alternated), then commits. */
async function resumeRun(browser, baseUrl, turns, fxtermFirst) {
  const context = await browser.newContext()
  const id = `bench-${turns}`
  try {
    const seeder = await context.newPage()
    await seeder.goto(`${baseUrl}/e2e/bench/bare.html`)
    const { bytes } = await seeder.evaluate(seedSession, { id, turns, live: turns, turnBytes: TURN_BYTES })
    await seeder.close()
    const result = { bytes }
    const fxterm = async () => {
      const tab = await context.newPage()
      await tab.addInitScript(installResumeProbe)
      await tab.goto(`${baseUrl}/`)
      const rec = await waitFor(tab, '__fxResume', 'fxterm')
      result.fxterm = { shownMs: rec.shownAt, paintedMs: rec.paintedAt }
      result.commits = await tab.evaluate(timeCommits, { count: COMMITS_PER_RUN, measure: COMMIT_MEASURE, timeoutMs: TIMEOUT_MS })
      await tab.close()
    }
    const bare = async () => {
      const tab = await context.newPage()
      await tab.addInitScript(installRawResume, { id, replayTurns: REPLAY_TURNS, replayBytes: REPLAY_BYTES })
      await tab.goto(`${baseUrl}/e2e/bench/bare.html`)
      const rec = await waitFor(tab, '__rawResume', 'bare page')
      result.bare = { readMs: rec.readAt, decodedMs: rec.decodedAt, shownMs: rec.shownAt, paintedMs: rec.paintedAt, chars: rec.chars }
      await tab.close()
    }
    // The commits rename the session, so the bare page reads it first when fxterm goes second.
    if (fxtermFirst) {
      await fxterm()
      await bare()
    } else {
      await bare()
      await fxterm()
    }
    return result
  } finally {
    await context.close()
  }
}

/** In the page: collects every commit measure from now on (the bridge keeps only the latest). */
function watchCommits({ measure }) {
  const commits = (window.__fxCommits = [])
  new PerformanceObserver((list) => {
    for (const entry of list.getEntriesByName(measure)) commits.push([entry.startTime, entry.startTime + entry.duration])
  }).observe({ type: 'measure' })
}

const choice = (delta, finish = null) => ({ choices: [{ index: 0, delta, finish_reason: finish }] })
const usage = { choices: [], usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 } }

/** A reply that runs `true` in the workspace: a tool step, so two commits (command start, result). */
function toolStep(i) {
  const call = { index: 0, id: `call_bench_${i}`, type: 'function', function: { name: 'run_command', arguments: '{"command":"true"}' } }
  return { chunks: [choice({ role: 'assistant', content: '' }), choice({ tool_calls: [call] }), choice({}, 'tool_calls'), usage] }
}

/**
 * Types while the engine commits a 4 MB session again and again: a turn of tool steps against the
 * mock model, on a 1,000-turn session whose older turns are archived (compacted away), so every
 * commit carries 4 MB while the model requests stay small.
 */
async function echoWhileCommitting(browser, baseUrl) {
  const mock = await startMockModelServer()
  const context = await browser.newContext()
  try {
    await fetch(`${mock.url}/__script`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([...Array.from({ length: TOOL_STEPS }, (_, i) => toolStep(i)), { chunks: [choice({ role: 'assistant', content: 'Done.' }), choice({}, 'stop'), usage] }]),
    })
    const tab = await context.newPage()
    await tab.goto(`${baseUrl}/e2e/bench/bare.html`)
    const { bytes } = await tab.evaluate(seedSession, { id: 'bench-echo', turns: 1000, live: 1, turnBytes: TURN_BYTES })
    await tab.goto(`${baseUrl}/?${new URLSearchParams({ baseUrl: `${mock.url}/v1`, model: 'mock-model' })}`)
    await tab.waitForFunction(() => Boolean(window.fxterm?.runtime), undefined, { timeout: TIMEOUT_MS })
    await tab.evaluate(() => window.fxterm.runtime.interactive)
    await tab.evaluate(watchCommits, { measure: COMMIT_MEASURE })
    await tab.evaluate(() => window.fxterm.runtime.write('run true a few times\r'))
    // Type only once the commits have started (the first exec also loads the bash worker).
    await tab.waitForFunction(() => window.__fxCommits.length >= 3, undefined, { timeout: TIMEOUT_MS, polling: 50 })
    await tab.locator('.xterm-helper-textarea').focus()
    const typed = WARM + TEXT
    await tab.evaluate(installRecorder, { typed, mode: 'composer' })
    for (let i = 0; i < typed.length; i++) {
      await tab.keyboard.press(typed[i])
      await tab.evaluate(waitForPainted, { count: i + 1, timeoutMs: 5_000 })
    }
    const { rec, commits } = await tab.evaluate(() => ({ rec: window.__fxEcho, commits: window.__fxCommits }))
    const from = WARM.length
    const buffer = rec.parsed.slice(from, typed.length).map((at, i) => at - rec.downs[from + i])
    const painted = rec.painted.slice(from, typed.length).map((at, i) => at - rec.downs[from + i])
    const [start, end] = [rec.downs[from], rec.painted[typed.length - 1]]
    const during = commits.filter(([a, b]) => b >= start && a <= end)
    const busyMs = during.reduce((sum, [a, b]) => sum + Math.min(b, end) - Math.max(a, start), 0)
    return {
      sessionBytes: bytes,
      keys: buffer.length,
      buffer: { p50: percentile(buffer, 50), p95: percentile(buffer, 95), samples: buffer },
      painted: { p50: percentile(painted, 50), p95: percentile(painted, 95) },
      commitsWhileTyping: during.length,
      typingMs: end - start,
      storeBusyMs: busyMs,
    }
  } finally {
    await context.close()
    await mock.close()
  }
}

/** Every measurement; `runs` resume runs per size (pages alternated, fresh context each). */
export async function benchSessions(browser, baseUrl, { runs = 5 } = {}) {
  // One unrecorded run first: the first pages in the browser pay for compiling the engine.
  await resumeRun(browser, baseUrl, SIZES[0], true)
  const sizes = []
  for (const turns of SIZES) {
    const samples = []
    for (let i = 0; i < runs; i++) {
      const run = await resumeRun(browser, baseUrl, turns, i % 2 === 0)
      samples.push(run)
      console.log(
        `sessions ${pad(`${turns} turns`, 10)} run ${i + 1}/${runs}: resume ${ms(run.fxterm.shownMs)} (bare ${ms(run.bare.shownMs)}), ` +
          `commits ${run.commits.map((c) => ms(c.endToEndMs)).join(', ')}`,
      )
    }
    const ratios = samples.map((run) => run.fxterm.shownMs / run.bare.shownMs)
    const commits = samples.flatMap((run) => run.commits)
    sizes.push({
      turns,
      bytes: samples[0].bytes,
      resume: {
        shownMs: median(samples.map((run) => run.fxterm.shownMs)),
        paintedMs: median(samples.map((run) => run.fxterm.paintedMs)),
      },
      bare: {
        readMs: median(samples.map((run) => run.bare.readMs)),
        decodedMs: median(samples.map((run) => run.bare.decodedMs)),
        shownMs: median(samples.map((run) => run.bare.shownMs)),
        chars: samples[0].bare.chars,
      },
      ratio: median(ratios),
      commit: {
        endToEndMs: median(commits.map((c) => c.endToEndMs)),
        storeMs: median(commits.map((c) => c.storeMs)),
        p95Ms: percentile(commits.map((c) => c.endToEndMs), 95),
        count: commits.length,
        // Told apart, not judged apart: the first commit of a page comes right after its resume.
        firstMs: median(samples.map((run) => run.commits[0].endToEndMs)),
        laterMs: median(samples.flatMap((run) => run.commits.slice(1).map((c) => c.endToEndMs))),
      },
      samples,
    })
  }
  const echo = await echoWhileCommitting(browser, baseUrl)
  console.log(`sessions echo while committing: buffer p50 ${ms(echo.buffer.p50)} p95 ${ms(echo.buffer.p95)}, ${echo.commitsWhileTyping} commits during ${ms(echo.typingMs)} of typing`)
  const largest = sizes.at(-1)
  return {
    turnBytes: TURN_BYTES,
    replayTurns: REPLAY_TURNS,
    replayBytes: REPLAY_BYTES,
    runs,
    targets: { resumeMs: RESUME_TARGET_MS, ratio: RATIO_TARGET, commitMs: COMMIT_TARGET_MS, echoP95Ms: ECHO_P95_TARGET_MS },
    sizes,
    echo,
    ok: {
      resume: largest.resume.shownMs <= RESUME_TARGET_MS,
      ratio: largest.ratio <= RATIO_TARGET,
      commit: largest.commit.endToEndMs <= COMMIT_TARGET_MS,
      echo: echo.buffer.p95 <= ECHO_P95_TARGET_MS && echo.commitsWhileTyping > 0,
    },
  }
}

const size = (bytes) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(0)} KB`)

/** The rows this bench adds to the printed table. */
export function sessionLines(result) {
  const { sizes, echo, ok, targets } = result
  const last = sizes.length - 1
  const lines = [
    `sessions (about ${result.turnBytes / 1024} KB a turn; median of ${result.runs} runs; resume = navigation → "Session resumed" in term.buffer,`,
    `  bare = navigation → raw IndexedDB read of the same bytes + the turns fxterm replays (the last ${result.replayTurns} within ${size(result.replayBytes)} of text) written to xterm.js; commit = /rename → stored)`,
  ]
  sizes.forEach((s, i) => {
    const judged = i === last
    lines.push(
      `  ${pad(`${s.turns} turns (${size(s.bytes)})`, 22)} resume ${pad(ms(s.resume.shownMs), 9)}${judged ? ` target ≤ ${targets.resumeMs} ms ${verdict(ok.resume)}` : ''}`,
    )
    lines.push(
      `  ${pad('', 22)} bare   ${pad(ms(s.bare.shownMs), 9)} (read ${ms(s.bare.readMs)}, decoded ${ms(s.bare.decodedMs)})  ratio ${times(s.ratio)}${judged ? ` target ≤ ${targets.ratio}× ${verdict(ok.ratio)}` : ''}`,
    )
    lines.push(
      `  ${pad('', 22)} commit ${pad(ms(s.commit.endToEndMs), 9)} (store ${ms(s.commit.storeMs)}, p95 ${ms(s.commit.p95Ms)}, ${s.commit.count} commits)${judged ? ` target ≤ ${targets.commitMs} ms ${verdict(ok.commit)}` : ''}`,
      `  ${pad('', 22)}        first of a page (right after its resume) ${ms(s.commit.firstMs)}, the others ${ms(s.commit.laterMs)}`,
    )
  })
  lines.push(
    `  ${pad('echo while committing', 22)} p50 ${pad(ms(echo.buffer.p50), 9)} p95 ${pad(ms(echo.buffer.p95), 9)} target p95 ≤ ${targets.echoP95Ms} ms ${verdict(ok.echo)}`,
    `  ${pad('', 22)} ${echo.commitsWhileTyping} commits of ${size(echo.sessionBytes)} during ${ms(echo.typingMs)} of typing (store busy ${ms(echo.storeBusyMs)}; painted p95 ${ms(echo.painted.p95)})`,
  )
  return lines
}

// On its own: `node e2e/bench/session-bench.mjs [baseUrl]` against a running preview.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const baseUrl = process.argv[2] ?? 'http://localhost:4173'
  const browser = await chromium.launch({ executablePath: await findBrowser(), args: ['--no-sandbox', '--disable-gpu'] })
  try {
    const result = await benchSessions(browser, baseUrl, { runs: Math.max(1, Number(process.env.FX_BENCH_RUNS ?? 5) || 5) })
    console.log('')
    for (const line of sessionLines(result)) console.log(line)
  } finally {
    await browser.close()
  }
}
