// The bench: how much later than a bare xterm.js page does fxterm accept a key, and what does
// it ship before the first prompt? Then, each in its own module: what the workspace adapter adds
// to a command (workspace-bench.mjs), how fast a key echoes (echo-bench.mjs), how fast streamed
// Markdown reaches the screen next to term.write alone (render-bench.mjs) and how fast a 1 MiB
// paste is accepted (paste-bench.mjs); how soon the first streamed glyph follows the server's
// first byte (stream-bench-first-glyph.mjs), and what the app's stream handling costs over a raw
// fetch-and-parse in the same worker (stream-bench.mjs).
// The built-in demo tape replayed next to its recorded durations (tape-bench.mjs, part `tape`).
// The headless agent API: a turn's overhead over the raw stream, and stream(cursor) catching up
// 10,000 lines (agent-bench.mjs, part `agent`).
// Sessions: commit and resume time for 10, 100 and 1,000 turns, and echo while commits run
// (session-bench.mjs, part `sessions`, min(FX_BENCH_RUNS, 5) runs per size).
// Run after `vite build` (npm run bench does both).
//
//   FX_BENCH_RUNS=7     startup runs per page (fresh browser context each, pages alternated);
//                       also the paste runs, and the render runs up to 3
//   FX_BENCH_EXECS=200  `echo hi` calls per round in the workspace bench
//   FX_BENCH_ONLY=render,paste
//                       only these parts (of startup, workspace, echo, render, paste,
//                       first-glyph, stream); FX_BENCH_RUNS×3 (at least 9) first-glyph turns
//                       per variant, FX_BENCH_RUNS (at least 7) stream pairs
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { chromium } from '@playwright/test'
import { findBrowser } from '../find-browser.mjs'
import { echoLines, benchEcho } from './echo-bench.mjs'
import { benchPaste, pasteLines } from './paste-bench.mjs'
import { benchRender, renderLines } from './render-bench.mjs'
import { benchSessions, sessionLines } from './session-bench.mjs'
import { median, pad } from './stats.mjs'
import { benchStreamOverhead, streamOverheadLines } from './stream-bench.mjs'
import { benchFirstGlyph, firstGlyphLines } from './stream-bench-first-glyph.mjs'
import { benchWorkspace, workspaceLines } from './workspace-bench.mjs'
import { agentLines, benchAgent } from './agent-bench.mjs'
import { benchTape, tapeLines } from './tape-bench.mjs'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
// FX_BENCH_DIST serves another build (an A/B: build each variant into its own folder, then
// alternate runs of the same part against each).
const DIST = process.env.FX_BENCH_DIST ? resolve(process.env.FX_BENCH_DIST) : join(ROOT, 'dist')
const RESULTS = join(ROOT, 'e2e/bench/results')
const RUNS = Math.max(1, Number(process.env.FX_BENCH_RUNS ?? 7) || 7)
/** A megabyte stream takes seconds per run: a few runs give a stable median. */
const RENDER_RUNS = Math.min(RUNS, 3)
const PARTS = ['startup', 'workspace', 'echo', 'render', 'paste', 'first-glyph', 'stream', 'sessions', 'agent', 'tape']
/** Each session run loads two pages and commits three times per size: five runs are plenty. */
const SESSION_RUNS = Math.min(RUNS, 5)
/** A first-glyph turn takes about half a second and a stream round (every path, both sources) under one: more runs of both. */
const GLYPH_RUNS = Math.max(9, RUNS * 3)
const STREAM_RUNS = Math.max(7, RUNS)
const ONLY = (process.env.FX_BENCH_ONLY ?? '').split(',').map((part) => part.trim()).filter(Boolean)
const wanted = (part) => ONLY.length === 0 || ONLY.includes(part)
const RATIO_TARGET = 1.5
const WASM_TARGET_BYTES = 150 * 1024
const KEY_RETRY_MS = 100
const INTERACTIVE_TIMEOUT_MS = 30_000
// Same flags as playwright.config.ts, so the bench and the e2e tests see the same browser.
const BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]

/** The pages and how each shows that a key was accepted. */
const PAGES = {
  fxterm: { path: '/', echoed: 'composer' },
  bare: { path: '/e2e/bench/bare.html', echoed: 'anywhere' },
  // A page that only holds <fx-terminal> (written into dist by writeElementPage).
  element: { path: '/e2e/bench/element.html', echoed: 'composer' },
}
/** The element's own cost: what its page fetches beyond fxterm's page, gzip. */
const EMBED_EXTRA_TARGET_BYTES = 30 * 1024

/** A host page with one <fx-terminal> and nothing else, next to the bare page. */
function writeElementPage() {
  const dir = join(DIST, 'e2e/bench')
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    join(dir, 'element.html'),
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8" /><title>fxterm element bench</title>
<style>html, body { margin: 0; height: 100%; } fx-terminal { height: 100vh; }</style>
<script type="module" src="../../fx-terminal.js"></script>
<script type="module">
  await customElements.whenDefined('fx-terminal')
  window.fxterm = { term: document.querySelector('fx-terminal').terminal }
</script>
</head><body><fx-terminal namespace="bench-element" autofocus></fx-terminal></body></html>
`,
  )
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** Starts `vite preview` in its own process group, so stopping it also stops what npx spawned. */
async function startPreview(port) {
  const child = spawn('npx', ['vite', 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort', '--outDir', DIST], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (data) => (output += data))
  child.stderr.on('data', (data) => (output += data))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`vite preview exited early:\n${output}`)
    try {
      if ((await fetch(`${url}/`)).ok) break
    } catch {
      // Not listening yet: poll again.
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  if (Date.now() >= deadline) throw new Error(`vite preview did not answer on ${url}:\n${output}`)
  const stop = () => {
    if (child.exitCode !== null) return
    try {
      process.kill(-child.pid, 'SIGTERM')
    } catch {
      // Already gone.
    }
  }
  return { url, stop }
}

function kindOf(url, contentType) {
  const path = new URL(url).pathname
  if (path.endsWith('.wasm') || contentType.includes('wasm')) return 'wasm'
  if (/\.(m?js)$/.test(path) || contentType.includes('javascript')) return 'js'
  if (path.endsWith('.css') || contentType.includes('css')) return 'css'
  return 'other'
}

/**
 * just-bash's own error text: only its code has it. The bare name "just-bash" is not a marker:
 * the page's tool description mentions it, which made the main chunk look like just-bash.
 */
const JUST_BASH_MARKER = 'executionLimits.maxCommandCount'

/** The built chunks that carry just-bash, found by name or by its own marker in the code. */
function justBashChunks() {
  const assets = join(DIST, 'assets')
  if (!existsSync(assets)) return []
  return readdirSync(assets, { recursive: true })
    .map(String)
    .filter((name) => /\.m?js$/.test(name))
    .filter((name) => /just-bash/i.test(name) || readFileSync(join(assets, name), 'utf8').includes(JUST_BASH_MARKER))
    .map((name) => {
      const body = readFileSync(join(assets, name))
      return { file: relative(DIST, join(assets, name)), raw: body.length, gzip: gzipSync(body).length }
    })
}

/** In the page: focuses xterm's textarea once the terminal exists; true when it did. */
function focusTerminal() {
  // The element's textarea is in its shadow root: xterm's own handle finds it there too.
  const textarea = window.fxterm?.term?.textarea ?? document.querySelector('.xterm-helper-textarea')
  if (!window.fxterm?.term || !(textarea instanceof HTMLElement)) return false
  if (textarea.getRootNode().activeElement !== textarea) textarea.focus()
  return true
}

/** True (in the page) once the key shows: in fxterm's composer row, or anywhere on the bare page. */
function echoedInPage(mode) {
  const term = window.fxterm?.term
  if (!term) return false
  const buffer = term.buffer.active
  const lines = []
  for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? '')
  const ok = mode === 'composer' ? lines.some((line) => /^❯ x+$/.test(line)) : lines.some((line) => line.includes('x'))
  // performance.now() counts from navigation start: the echo time itself, free of CDP lag.
  return ok ? performance.now() : false
}

/** One cold load: fresh context, press `x` until it echoes, collect what was fetched by then. */
async function measure(browser, baseUrl, name) {
  const page = PAGES[name]
  const context = await browser.newContext()
  const tab = await context.newPage()
  const responses = []
  // context-level, so requests from the page's workers are counted as well.
  context.on('response', (response) => responses.push({ response, at: Date.now() }))
  try {
    await tab.goto(`${baseUrl}${page.path}`, { waitUntil: 'commit' })
    // Focus from inside the page as soon as the terminal exists: every CDP round trip between
    // "ready" and "key pressed" would count against both pages and blur the ratio.
    await tab.waitForFunction(focusTerminal, undefined, { timeout: INTERACTIVE_TIMEOUT_MS, polling: 'raf' })
    const deadline = Date.now() + INTERACTIVE_TIMEOUT_MS
    let interactiveMs = null
    // Keys pressed before the app is ready may be dropped, so keep offering one until it echoes.
    while (interactiveMs === null && Date.now() < deadline) {
      await tab.keyboard.press('x')
      try {
        const handle = await tab.waitForFunction(echoedInPage, page.echoed, { timeout: KEY_RETRY_MS, polling: 'raf' })
        interactiveMs = await handle.jsonValue()
      } catch {
        await tab.evaluate(focusTerminal) // not echoed yet: make sure the next key lands, then retry
      }
    }
    if (interactiveMs === null) throw new Error(`${name}: no echo within ${INTERACTIVE_TIMEOUT_MS} ms`)
    // Keys echo before the engine is up (type-ahead), so what the page needs to answer a prompt
    // is what it has fetched once the network goes quiet, not what had arrived by the echo.
    await tab.waitForLoadState('networkidle').catch(() => {})
    const cutoff = Date.now()
    const bytes = { js: { raw: 0, gzip: 0 }, css: { raw: 0, gzip: 0 }, wasm: { raw: 0, gzip: 0 }, other: { raw: 0, gzip: 0 } }
    const files = []
    for (const { response, at } of responses) {
      if (at > cutoff) continue
      const url = response.url()
      if (!url.startsWith('http')) continue
      let body
      try {
        body = await response.body()
      } catch {
        continue // e.g. a redirect or a body the browser already dropped
      }
      const kind = kindOf(url, response.headers()['content-type'] ?? '')
      const gzip = gzipSync(body).length
      bytes[kind].raw += body.length
      bytes[kind].gzip += gzip
      files.push({ path: new URL(url).pathname, kind, raw: body.length, gzip })
    }
    return { interactiveMs, bytes, files }
  } finally {
    await context.close()
  }
}

async function orError(measure) {
  try {
    return await measure()
  } catch (error) {
    console.error(error)
    return { error: error instanceof Error ? error.message : String(error) }
  }
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`

function engineWasm() {
  for (const path of [join(DIST, 'engine.wasm'), join(ROOT, 'public/engine.wasm')]) {
    if (existsSync(path)) return { file: relative(ROOT, path), raw: statSync(path).size }
  }
  return null
}

async function main() {
  const unknown = ONLY.filter((part) => !PARTS.includes(part))
  if (unknown.length > 0) {
    console.error(`FX_BENCH_ONLY: unknown part ${unknown.join(', ')} (parts: ${PARTS.join(', ')})`)
    process.exit(1)
  }
  if (!existsSync(join(DIST, 'index.html'))) {
    console.error('dist/index.html is missing: run `npm run build` first (or `npm run bench`).')
    process.exit(1)
  }
  const executablePath = await findBrowser()
  if (!executablePath) {
    console.error('No Chromium found: install one (apt-get install chromium, or npx playwright install chromium) or set CHROME_PATH.')
    process.exit(1)
  }

  const preview = await startPreview(await freePort())
  const stopPreview = () => preview.stop()
  process.on('exit', stopPreview)
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130))

  writeElementPage()
  const browser = await chromium.launch({ executablePath, args: BROWSER_ARGS })
  const runs = { fxterm: [], bare: [], element: [] }
  let workspace
  let echo
  let render
  let paste
  let firstGlyph
  let stream
  let sessions
  let agent
  let tape
  try {
    if (wanted('startup')) {
      // One unrecorded load of each first: the browser's first page pays process and cache warm-up.
      for (const name of ['fxterm', 'bare', 'element']) await measure(browser, preview.url, name)
      for (let i = 0; i < RUNS; i++) {
        // Rotate which page goes first, so warm-up and background noise hit them alike.
        const order = [['fxterm', 'bare', 'element'], ['bare', 'element', 'fxterm'], ['element', 'fxterm', 'bare']][i % 3]
        for (const name of order) {
          const result = await measure(browser, preview.url, name)
          runs[name].push(result)
          console.log(`run ${i + 1}/${RUNS} ${pad(name, 6)} interactive in ${result.interactiveMs.toFixed(0)} ms`)
        }
      }
    }
    // A module that fails reports why in its rows and the JSON; the others still count.
    if (wanted('workspace')) workspace = await orError(() => benchWorkspace(browser, preview.url))
    if (wanted('echo')) echo = await orError(() => benchEcho(browser, preview.url))
    if (wanted('render')) render = await orError(() => benchRender(browser, preview.url, { runs: RENDER_RUNS }))
    if (wanted('paste')) paste = await orError(() => benchPaste(browser, preview.url, { runs: RUNS }))
    if (wanted('first-glyph')) firstGlyph = await orError(() => benchFirstGlyph(browser, preview.url, { runs: GLYPH_RUNS }))
    if (wanted('stream')) stream = await orError(() => benchStreamOverhead(browser, preview.url, { runs: STREAM_RUNS }))
    if (wanted('sessions')) sessions = await orError(() => benchSessions(browser, preview.url, { runs: SESSION_RUNS }))
    if (wanted('agent')) agent = await orError(() => benchAgent(browser, preview.url, { runs: STREAM_RUNS }))
    if (wanted('tape')) tape = await orError(() => benchTape(browser, preview.url))
  } finally {
    await browser.close()
    stopPreview()
  }

  const result = { date: new Date().toISOString(), runs: RUNS, browser: executablePath, parts: PARTS.filter(wanted) }
  if (wanted('startup')) Object.assign(result, reportStartup(runs))
  /** Prints a module's rows (or why it failed) and keeps its result for the JSON. */
  const report = (key, value, lines, failed) => {
    if (value === undefined) return
    console.log('')
    for (const line of value.error ? [`${failed}: ${value.error}`] : lines(value)) console.log(line)
    result[key] = value
  }
  report('workspace', workspace, workspaceLines, 'workspace bench failed')
  report('keystrokeEcho', echo, echoLines, 'keystroke echo bench failed')
  report('renderThroughput', render, renderLines, 'render throughput bench failed')
  report('paste', paste, pasteLines, 'paste bench failed')
  report('firstGlyph', firstGlyph, firstGlyphLines, 'first-glyph bench failed')
  report('streamOverhead', stream, streamOverheadLines, 'stream overhead bench failed')
  report('sessions', sessions, sessionLines, 'sessions bench failed')
  report('agent', agent, agentLines, 'agent bench failed')
  report('tapeReplay', tape, tapeLines, 'tape replay bench failed')

  mkdirSync(RESULTS, { recursive: true })
  const file = join(RESULTS, `${result.date.replace(/[:.]/g, '-')}.json`)
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`)
  console.log(`\nwrote ${relative(ROOT, file)}`)
}

/** Prints time to interactive and what was shipped before the first prompt; returns their JSON. */
function reportStartup(runs) {
  const tti = {
    fxterm: median(runs.fxterm.map((run) => run.interactiveMs)),
    bare: median(runs.bare.map((run) => run.interactiveMs)),
  }
  const ratio = tti.fxterm / tti.bare
  // Bytes do not vary between cold loads; the first run's are reported.
  const shipped = runs.fxterm[0].bytes
  const shippedFiles = runs.fxterm[0].files
  const bash = justBashChunks()
  const bashLoadedEarly = bash.filter((chunk) => shippedFiles.some((file) => file.path.endsWith(`/${chunk.file}`)))
  const wasm = engineWasm()

  console.log('')
  console.log(`time to interactive (median of ${RUNS}, navigation start → key echoed)`)
  console.log(`  fxterm ${tti.fxterm.toFixed(0)} ms   bare ${tti.bare.toFixed(0)} ms   ratio ${ratio.toFixed(2)}× (target ≤ ${RATIO_TARGET}×) ${ratio <= RATIO_TARGET ? 'OK' : 'MISS'}`)
  console.log('')
  console.log('bytes shipped before the first prompt (fxterm)')
  console.log(`  ${pad('type', 6)} ${pad('raw', 12)} gzip`)
  for (const [kind, size] of Object.entries(shipped)) console.log(`  ${pad(kind, 6)} ${pad(kb(size.raw), 12)} ${kb(size.gzip)}`)
  const total = Object.values(shipped).reduce((sum, size) => ({ raw: sum.raw + size.raw, gzip: sum.gzip + size.gzip }), { raw: 0, gzip: 0 })
  console.log(`  ${pad('total', 6)} ${pad(kb(total.raw), 12)} ${kb(total.gzip)}`)
  console.log('')
  if (bash.length === 0) console.log('just-bash chunk: not identified in dist/assets')
  for (const chunk of bash) {
    const early = bashLoadedEarly.includes(chunk)
    console.log(`just-bash chunk ${chunk.file}: ${kb(chunk.raw)} raw, ${kb(chunk.gzip)} gzip, ${early ? 'LOADED BEFORE FIRST PROMPT (should be lazy)' : 'lazy (not fetched before first prompt)'}`)
  }
  console.log(wasm ? `engine wasm ${wasm.file}: ${kb(wasm.raw)} (target ≤ ${kb(WASM_TARGET_BYTES)}) ${wasm.raw <= WASM_TARGET_BYTES ? 'OK' : 'MISS'}` : 'engine wasm: not found')
  const element = elementLines(runs, tti.bare, total)

  return {
    timeToInteractiveMs: { median: tti, ratio, target: RATIO_TARGET, samples: { fxterm: runs.fxterm.map((r) => r.interactiveMs), bare: runs.bare.map((r) => r.interactiveMs) } },
    shippedBeforeFirstPrompt: { byType: shipped, total, files: shippedFiles },
    bare: { byType: runs.bare[0].bytes },
    justBash: bash.map((chunk) => ({ ...chunk, loadedBeforeFirstPrompt: bashLoadedEarly.includes(chunk) })),
    engineWasm: wasm ? { ...wasm, target: WASM_TARGET_BYTES } : null,
    element,
  }
}

/** The <fx-terminal> page next to the bare page (time) and to fxterm's own page (bytes). */
function elementLines(runs, bareMs, pageTotal) {
  if (runs.element.length === 0) return null
  const ms = median(runs.element.map((run) => run.interactiveMs))
  const ratio = ms / bareMs
  const shipped = Object.values(runs.element[0].bytes).reduce((sum, size) => sum + size.gzip, 0)
  const extra = shipped - pageTotal.gzip
  console.log('')
  console.log('<fx-terminal> on a page of its own')
  console.log(`  interactive ${ms.toFixed(0)} ms vs bare ${bareMs.toFixed(0)} ms   ratio ${ratio.toFixed(2)}× (target ≤ ${RATIO_TARGET}×) ${ratio <= RATIO_TARGET ? 'OK' : 'MISS'}`)
  console.log(`  shipped ${kb(shipped)} gzip vs fxterm's page ${kb(pageTotal.gzip)}: the embed adds ${kb(extra)} (target ≤ ${kb(EMBED_EXTRA_TARGET_BYTES)}) ${extra <= EMBED_EXTRA_TARGET_BYTES ? 'OK' : 'MISS'}`)
  return { interactiveMs: ms, ratioToBare: ratio, target: RATIO_TARGET, shippedGzip: shipped, addedGzip: extra, addedTarget: EMBED_EXTRA_TARGET_BYTES, files: runs.element[0].files }
}

await main()
