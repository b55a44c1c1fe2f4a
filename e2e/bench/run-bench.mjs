// The bench, each part in its own module: how much later than a bare xterm.js page fxterm echoes
// a key and draws the engine's prompt, and what it ships before that prompt (startup-bench.mjs,
// part `startup`); what the workspace adapter adds to a command (workspace-bench.mjs), how fast a
// key echoes (echo-bench.mjs), how fast streamed Markdown reaches the screen next to term.write of
// the same frames and of the reply's text (render-bench.mjs) and how fast a 1 MiB paste is
// accepted (paste-bench.mjs); how soon the first streamed glyph follows the server's
// first byte (stream-bench-first-glyph.mjs), and what the app's stream handling costs over a raw
// fetch-and-parse in the same worker (stream-bench.mjs).
// The built-in demo tape replayed next to its recorded durations (tape-bench.mjs, part `tape`).
// The headless agent API: a turn's overhead over the raw stream, and stream(cursor) catching up
// 10,000 lines (agent-bench.mjs, part `agent`).
// Sessions: commit and resume time for 10, 100 and 1,000 turns, and echo while commits run
// (session-bench.mjs, part `sessions`, min(FX_BENCH_RUNS, 5) runs per size).
// The agent's file edits: edit_file on a 1 MB file and /diff of 100 changed files on screen
// (edits-bench.mjs, part `edits`).
// The files kept with their session: restoring 1,000 files, the prompt on a reload with them
// stored, and what one changed file writes (persist-bench.mjs, part `persist`).
// Code in the page's sandbox: node and python3 first and warm runs, CPU-bound files next to this
// machine's Node and CPython, and echo while they run (sandbox-bench.mjs, part `sandbox`).
// git: clone next to native git, status, commit, a reload with a repository, echo during clones
// (git-bench.mjs, part `git`).
// A page left open: its thread's busy time per second next to the bare page's (idle-bench.mjs,
// part `idle`).
// Run after `vite build` (npm run bench does both).
//
//   FX_BENCH_RUNS=7     startup runs per page (fresh browser context each, pages alternated);
//                       also the paste runs, and the render runs up to 3
//   FX_BENCH_EXECS=200  `echo hi` calls per round in the workspace bench
//   FX_BENCH_ONLY=render,paste
//                       only these parts (of startup, workspace, echo, render, paste,
//                       first-glyph, stream, sessions, agent, tape, edits, persist, sandbox, git,
//                       idle); FX_BENCH_RUNS×3 (at
//                       least 9) first-glyph turns per variant, FX_BENCH_RUNS (at least 7)
//                       stream pairs
//   FX_BENCH_DIST=/tmp/variant
//                       serves that build instead of dist/ (an A/B: build each variant into
//                       its own folder, then alternate runs of the same part against each);
//                       the bench pages (bench-pages-vite.config.ts) are built into it from
//                       this tree's sources
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from '@playwright/test'
import { findBrowser } from '../find-browser.mjs'
import { echoLines, benchEcho } from './echo-bench.mjs'
import { benchPaste, pasteLines } from './paste-bench.mjs'
import { benchRender, renderLines } from './render-bench.mjs'
import { benchSessions, sessionLines } from './session-bench.mjs'
import { benchStartup, startupLines } from './startup-bench.mjs'
import { benchStreamOverhead, streamOverheadLines } from './stream-bench.mjs'
import { benchFirstGlyph, firstGlyphLines } from './stream-bench-first-glyph.mjs'
import { benchWorkspace, workspaceLines } from './workspace-bench.mjs'
import { agentLines, benchAgent } from './agent-bench.mjs'
import { DIST } from './build-bench-pages.mjs'
import { benchTape, tapeLines } from './tape-bench.mjs'
import { benchEdits, editsLines } from './edits-bench.mjs'
import { benchPersist, persistLines } from './persist-bench.mjs'
import { benchSandbox, sandboxLines } from './sandbox-bench.mjs'
import { benchGit, gitLines } from './git-bench.mjs'
import { benchIdle, idleLines } from './idle-bench.mjs'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const RESULTS = join(ROOT, 'e2e/bench/results')
const RUNS = Math.max(1, Number(process.env.FX_BENCH_RUNS ?? 7) || 7)
/** A megabyte stream takes seconds per run: a few runs give a stable median. */
const RENDER_RUNS = Math.min(RUNS, 3)
const PARTS = ['startup', 'workspace', 'echo', 'render', 'paste', 'first-glyph', 'stream', 'sessions', 'agent', 'tape', 'edits', 'persist', 'sandbox', 'git', 'idle']
/** Each session run loads two pages and commits three times per size: five runs are plenty. */
const SESSION_RUNS = Math.min(RUNS, 5)
/** A first-glyph turn takes about half a second and a stream round (every path, both sources) under one: more runs of both. */
const GLYPH_RUNS = Math.max(9, RUNS * 3)
const STREAM_RUNS = Math.max(7, RUNS)
const ONLY = (process.env.FX_BENCH_ONLY ?? '').split(',').map((part) => part.trim()).filter(Boolean)
const wanted = (part) => ONLY.length === 0 || ONLY.includes(part)
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

async function orError(measure) {
  try {
    return await measure()
  } catch (error) {
    console.error(error)
    return { error: error instanceof Error ? error.message : String(error) }
  }
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

  const browser = await chromium.launch({ executablePath, args: BROWSER_ARGS })
  let startup
  let workspace
  let echo
  let render
  let paste
  let firstGlyph
  let stream
  let sessions
  let agent
  let tape
  let edits
  let persist
  let sandbox
  let gitPart
  let idle
  try {
    if (wanted('startup')) startup = await orError(() => benchStartup(browser, preview.url, { runs: RUNS, dist: DIST, root: ROOT }))
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
    if (wanted('edits')) edits = await orError(() => benchEdits(browser, preview.url))
    if (wanted('persist')) persist = await orError(() => benchPersist(browser, preview.url))
    if (wanted('sandbox')) sandbox = await orError(() => benchSandbox(browser, preview.url))
    if (wanted('git')) gitPart = await orError(() => benchGit(browser, preview.url))
    if (wanted('idle')) idle = await orError(() => benchIdle(browser, preview.url))
  } finally {
    await browser.close()
    stopPreview()
  }

  const result = { date: new Date().toISOString(), runs: RUNS, browser: executablePath, parts: PARTS.filter(wanted) }
  /** Prints a module's rows (or why it failed) and keeps its result for the JSON. */
  const report = (key, value, lines, failed) => {
    if (value === undefined) return
    console.log('')
    for (const line of value.error ? [`${failed}: ${value.error}`] : lines(value)) console.log(line)
    result[key] = value
  }
  report('startup', startup, startupLines, 'startup bench failed')
  report('workspace', workspace, workspaceLines, 'workspace bench failed')
  report('keystrokeEcho', echo, echoLines, 'keystroke echo bench failed')
  report('renderThroughput', render, renderLines, 'render throughput bench failed')
  report('paste', paste, pasteLines, 'paste bench failed')
  report('firstGlyph', firstGlyph, firstGlyphLines, 'first-glyph bench failed')
  report('streamOverhead', stream, streamOverheadLines, 'stream overhead bench failed')
  report('sessions', sessions, sessionLines, 'sessions bench failed')
  report('agent', agent, agentLines, 'agent bench failed')
  report('tapeReplay', tape, tapeLines, 'tape replay bench failed')
  report('edits', edits, editsLines, 'file edits bench failed')
  report('persist', persist, persistLines, 'persisted files bench failed')
  report('sandbox', sandbox, sandboxLines, 'sandbox bench failed')
  report('git', gitPart, gitLines, 'git bench failed')
  report('idle', idle, idleLines, 'idle page bench failed')

  mkdirSync(RESULTS, { recursive: true })
  const file = join(RESULTS, `${result.date.replace(/[:.]/g, '-')}.json`)
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`)
  console.log(`\nwrote ${relative(ROOT, file)}`)
}

await main()
