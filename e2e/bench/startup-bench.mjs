// Start-up: how much later than a bare xterm.js page does fxterm take keys, and what does it
// ship before its first prompt? Time to interactive is measured twice, because type-ahead makes
// them differ: when a typed key first echoes (the page draws a provisional composer and echoes
// into it before the engine runs), and when the engine has drawn its own prompt (the composer
// between its dividers, under the banner). Both are set against the bare page's first echo in
// the same run: that page has no engine, so its echo is all it has to show. Measured for the app
// page and for <fx-terminal> on a page of its own, fresh browser context each load, pages
// alternated.
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { gzipSync } from 'node:zlib'
import { median, pad, times, verdict } from './stats.mjs'
import { readTimeline, timelineLines, timelineOf, workerMarksIn } from './startup-timeline.mjs'

const RATIO_TARGET = 1.5
const WASM_TARGET_BYTES = 150 * 1024
/** The element's own cost: what its page fetches beyond fxterm's page, gzip. */
const EMBED_EXTRA_TARGET_BYTES = 30 * 1024
const KEY_RETRY_MS = 100
const INTERACTIVE_TIMEOUT_MS = 30_000

/** The pages, and whether an engine draws a prompt on them. */
const PAGES = {
  fxterm: { path: '/', engine: true },
  bare: { path: '/e2e/bench/bare.html', engine: false },
  // A page that only holds <fx-terminal> (written into dist by writeElementPage).
  element: { path: '/e2e/bench/element.html', engine: true },
}
/**
 * FX_BENCH_STARTUP_VARIANTS=name=/path/,…: more builds of the app page, served from folders of
 * the served build (its base is relative), loaded in turn with the others: an A/B in one run.
 */
const VARIANTS = (process.env.FX_BENCH_STARTUP_VARIANTS ?? '').split(',').filter(Boolean).map((pair) => pair.split('='))
for (const [name, path] of VARIANTS) PAGES[name] = { path, engine: true }

/** A host page with one <fx-terminal> and nothing else, next to the bare page. */
function writeElementPage(dist) {
  const dir = join(dist, 'e2e/bench')
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
function justBashChunks(dist) {
  const assets = join(dist, 'assets')
  if (!existsSync(assets)) return []
  return readdirSync(assets, { recursive: true })
    .map(String)
    .filter((name) => /\.m?js$/.test(name))
    .filter((name) => /just-bash/i.test(name) || readFileSync(join(assets, name), 'utf8').includes(JUST_BASH_MARKER))
    .map((name) => {
      const body = readFileSync(join(assets, name))
      return { file: relative(dist, join(assets, name)), raw: body.length, gzip: gzipSync(body).length }
    })
}

function engineWasm(dist, root) {
  for (const path of [join(dist, 'engine.wasm'), join(root, 'public/engine.wasm')]) {
    if (existsSync(path)) return { file: relative(root, path), raw: statSync(path).size }
  }
  return null
}

/**
 * In the page, before its own scripts: once the page assigns `window.fxterm`, checks the screen
 * on every parsed write and stamps the first time a typed `x` shows (`echoAt`: in the composer
 * row, or anywhere on the bare page) and the first time the engine's prompt shows (`promptAt`:
 * a `❯` row right under a divider; the provisional composer has none). performance.now() counts
 * from navigation start, so the stamps are free of CDP lag.
 */
function installStartupRecorder(engine) {
  const rec = { echoAt: null, promptAt: null }
  window.__fxStartup = rec
  const check = (term) => {
    const buffer = term.buffer.active
    const lines = []
    for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? '')
    const now = performance.now()
    if (rec.echoAt === null && (engine ? lines.some((line) => /^❯ x+$/.test(line)) : lines.some((line) => line.includes('x')))) rec.echoAt = now
    if (engine && rec.promptAt === null && lines.some((line, i) => /^❯( |$)/.test(line) && /^─+$/.test(lines[i - 1] ?? ''))) rec.promptAt = now
  }
  const attach = (term) => {
    check(term)
    const parsed = term.onWriteParsed(() => {
      check(term)
      if (rec.echoAt !== null && (!engine || rec.promptAt !== null)) parsed.dispose()
    })
  }
  let handle
  Object.defineProperty(window, 'fxterm', {
    configurable: true,
    enumerable: true,
    get: () => handle,
    set: (value) => {
      handle = value
      if (value?.term) attach(value.term)
    },
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

/** One cold load: fresh context, press `x` until it echoes, wait for the engine's prompt, collect what was fetched. */
async function measure(browser, baseUrl, name) {
  const page = PAGES[name]
  const context = await browser.newContext()
  const tab = await context.newPage()
  const responses = []
  // context-level, so requests from the page's workers are counted as well.
  context.on('response', (response) => responses.push({ response, at: Date.now() }))
  try {
    await tab.addInitScript(installStartupRecorder, page.engine)
    await tab.goto(`${baseUrl}${page.path}`, { waitUntil: 'commit' })
    // Focus from inside the page as soon as the terminal exists: every CDP round trip between
    // "ready" and "key pressed" would count against both pages and blur the ratio.
    await tab.waitForFunction(focusTerminal, undefined, { timeout: INTERACTIVE_TIMEOUT_MS, polling: 'raf' })
    const deadline = Date.now() + INTERACTIVE_TIMEOUT_MS
    let echoed = false
    // Keys pressed before the app is ready may be dropped, so keep offering one until it echoes.
    while (!echoed && Date.now() < deadline) {
      await tab.keyboard.press('x')
      try {
        await tab.waitForFunction(() => window.__fxStartup.echoAt !== null, undefined, { timeout: KEY_RETRY_MS, polling: 'raf' })
        echoed = true
      } catch {
        await tab.evaluate(focusTerminal) // not echoed yet: make sure the next key lands, then retry
      }
    }
    if (!echoed) throw new Error(`${name}: no echo within ${INTERACTIVE_TIMEOUT_MS} ms`)
    if (page.engine) await tab.waitForFunction(() => window.__fxStartup.promptAt !== null, undefined, { timeout: Math.max(1, deadline - Date.now()) })
    // Keys echo before the engine is up (type-ahead), so what the page needs to answer a prompt
    // is what it has fetched by the prompt, not what had arrived by the echo. Not later: once the
    // page is interactive, the offline shell (sw.js) fetches every file of the app, Python's too.
    const cutoff = Date.now()
    const { echoAt, promptAt } = await tab.evaluate(() => window.__fxStartup)
    if (page.engine) await tab.waitForFunction(workerMarksIn, undefined, { timeout: Math.max(1, deadline - Date.now()) })
    const timeline = { ...(await tab.evaluate(readTimeline)), echo: echoAt, ...(promptAt === null ? {} : { prompt: promptAt }) }
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
    return { echoMs: echoAt, promptMs: promptAt, bytes, files, timeline }
  } finally {
    await context.close()
  }
}

/** A page's medians against the bare page's first echo. */
function against(runs, bareEchoMs) {
  const echoMs = median(runs.map((run) => run.echoMs))
  const promptMs = median(runs.map((run) => run.promptMs))
  return {
    firstEcho: { ms: echoMs, ratio: echoMs / bareEchoMs, ok: echoMs / bareEchoMs <= RATIO_TARGET },
    enginePrompt: { ms: promptMs, ratio: promptMs / bareEchoMs, ok: promptMs / bareEchoMs <= RATIO_TARGET },
    samples: { firstEcho: runs.map((run) => run.echoMs), enginePrompt: runs.map((run) => run.promptMs) },
  }
}

const gzipTotal = (bytes) => Object.values(bytes).reduce((sum, size) => ({ raw: sum.raw + size.raw, gzip: sum.gzip + size.gzip }), { raw: 0, gzip: 0 })

/** `runs` cold loads of each page, order rotated; then the bytes, the just-bash chunk and the wasm. */
export async function benchStartup(browser, baseUrl, { runs, dist, root }) {
  writeElementPage(dist)
  const loads = Object.fromEntries(Object.keys(PAGES).map((name) => [name, []]))
  // One unrecorded load of each first: the browser's first page pays process and cache warm-up.
  for (const name of Object.keys(PAGES)) await measure(browser, baseUrl, name)
  for (let i = 0; i < runs; i++) {
    // Rotate which page goes first, so warm-up and background noise hit them alike.
    const names = Object.keys(PAGES)
    const order = names.map((_, k) => names[(k + i) % names.length])
    for (const name of order) {
      const result = await measure(browser, baseUrl, name)
      loads[name].push(result)
      const prompt = result.promptMs === null ? '' : `, engine's prompt drawn at ${result.promptMs.toFixed(0)} ms`
      console.log(`run ${i + 1}/${runs} ${pad(name, 7)} first key echoed at ${result.echoMs.toFixed(0)} ms${prompt}`)
    }
  }
  const bareEchoMs = median(loads.bare.map((run) => run.echoMs))
  // Bytes do not vary between cold loads; the first run's are reported.
  const shipped = loads.fxterm[0].bytes
  const shippedFiles = loads.fxterm[0].files
  const total = gzipTotal(shipped)
  const bash = justBashChunks(dist)
  const wasm = engineWasm(dist, root)
  const elementGzip = gzipTotal(loads.element[0].bytes).gzip
  return {
    runs,
    target: RATIO_TARGET,
    timeline: { fxterm: timelineOf(loads.fxterm.map((run) => run.timeline)), bare: timelineOf(loads.bare.map((run) => run.timeline)) },
    variants: Object.fromEntries(VARIANTS.map(([name]) => [name, { ...against(loads[name], bareEchoMs), timeline: timelineOf(loads[name].map((run) => run.timeline)) }])),
    bare: { firstEchoMs: bareEchoMs, samples: loads.bare.map((run) => run.echoMs), byType: loads.bare[0].bytes },
    fxterm: against(loads.fxterm, bareEchoMs),
    element: {
      ...against(loads.element, bareEchoMs),
      shippedGzip: elementGzip,
      addedGzip: elementGzip - total.gzip,
      addedTarget: EMBED_EXTRA_TARGET_BYTES,
      files: loads.element[0].files,
    },
    shippedBeforeFirstPrompt: { byType: shipped, total, files: shippedFiles },
    justBash: bash.map((chunk) => ({ ...chunk, loadedBeforeFirstPrompt: shippedFiles.some((file) => file.path.endsWith(`/${chunk.file}`)) })),
    engineWasm: wasm ? { ...wasm, target: WASM_TARGET_BYTES } : null,
  }
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`

/** The rows this bench adds to the printed table. */
export function startupLines(result) {
  const { bare, fxterm, element, target } = result
  const row = (label, figure) => `  ${pad(label, 40)} ${pad(`${figure.ms.toFixed(0)} ms`, 9)} ${pad(times(figure.ratio), 7)} (target ≤ ${target}×) ${verdict(figure.ok)}`
  const lines = [
    `time to interactive (median of ${result.runs} cold loads, from navigation start; ratio to the bare xterm.js page's first echo, ${bare.firstEchoMs.toFixed(0)} ms)`,
    row('fxterm: first key echoed (type-ahead)', fxterm.firstEcho),
    row("fxterm: engine's prompt drawn", fxterm.enginePrompt),
    row('<fx-terminal>: first key echoed', element.firstEcho),
    row("<fx-terminal>: engine's prompt drawn", element.enginePrompt),
    '',
    ...Object.entries(result.variants ?? {}).flatMap(([name, variant]) => [row(`${name}: first key echoed`, variant.firstEcho), row(`${name}: engine's prompt drawn`, variant.enginePrompt)]),
    '',
    ...timelineLines(result.timeline.fxterm, result.timeline.bare, result.runs),
    ...Object.entries(result.variants ?? {}).flatMap(([name, variant]) => ['', `${name}:`, ...timelineLines(variant.timeline, result.timeline.bare, result.runs).slice(1)]),
    '',
    'bytes shipped before the first prompt (fxterm)',
    `  ${pad('type', 6)} ${pad('raw', 12)} gzip`,
  ]
  const shipped = result.shippedBeforeFirstPrompt
  for (const [kind, size] of Object.entries(shipped.byType)) lines.push(`  ${pad(kind, 6)} ${pad(kb(size.raw), 12)} ${kb(size.gzip)}`)
  lines.push(`  ${pad('total', 6)} ${pad(kb(shipped.total.raw), 12)} ${kb(shipped.total.gzip)}`)
  const added = element.addedGzip
  lines.push(`  <fx-terminal>'s page: ${kb(element.shippedGzip)} gzip, ${kb(added)} more than fxterm's page (target ≤ ${kb(element.addedTarget)}) ${verdict(added <= element.addedTarget)}`)
  lines.push('')
  if (result.justBash.length === 0) lines.push('just-bash chunk: not identified in dist/assets')
  for (const chunk of result.justBash) {
    lines.push(`just-bash chunk ${chunk.file}: ${kb(chunk.raw)} raw, ${kb(chunk.gzip)} gzip, ${chunk.loadedBeforeFirstPrompt ? 'LOADED BEFORE FIRST PROMPT (should be lazy)' : 'lazy (not fetched before first prompt)'}`)
  }
  const wasm = result.engineWasm
  lines.push(wasm ? `engine wasm ${wasm.file}: ${kb(wasm.raw)} (target ≤ ${kb(wasm.target)}) ${verdict(wasm.raw <= wasm.target)}` : 'engine wasm: not found')
  return lines
}
