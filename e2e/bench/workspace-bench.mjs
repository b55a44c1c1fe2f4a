// Workspace adapter overhead, in the app's page: the same commands run through its workspace's
// `exec` (page → comlink → bash worker → just-bash, plus limits and the snapshot of changed
// files), and in the bench's own worker started in the same page (workspace-bench-worker.ts)
// through the workspace's bash session and straight on just-bash, each timed in that worker.
// Everything is timed in the page, so Playwright's round trips never count.
import { buildBenchPages } from './build-bench-pages.mjs'
import { median, ms, pad, times, verdict } from './stats.mjs'

const EXECS = Math.max(1, Number(process.env.FX_BENCH_EXECS ?? 200) || 200)
/** Rounds per measurement, alternating which path goes first so warm-up favours neither. */
const ROUNDS = 3
const ECHO_RATIO_TARGET = 1.5
const GREP_FILES = 1000
const BIG_FILE_BYTES = 1024 * 1024
/** What the agent's commands get (OUTPUT_LIMIT_BYTES); both paths are held to the same limit. */
const OUTPUT_LIMIT_BYTES = 64 * 1024
const TIMEOUT_MS = 30_000

/** The cases: what runs, how often per round, and the target (null: reported only). */
const CASES = [
  { key: 'echo', label: `echo hi ×${EXECS}`, command: 'echo hi', runs: EXECS, target: ECHO_RATIO_TARGET },
  { key: 'grep', label: `grep -r over ${GREP_FILES} files`, command: 'grep -rn needle grep-corpus', runs: 5, target: null },
  { key: 'cat', label: 'cat 1 MB file', command: 'cat big.txt', runs: 5, target: null },
]

/**
 * In the page: starts the bench's worker (built at `url`) and keeps, as `window.fxWorkspaceBench`,
 * a call into it that resolves its answer.
 */
function startBenchWorker({ url }) {
  const worker = new Worker(url, { type: 'module' })
  const pending = new Map()
  let nextId = 1
  worker.onmessage = (event) => {
    const { id, value, error } = event.data
    const { resolve, reject } = pending.get(id)
    pending.delete(id)
    if (error === undefined) resolve(value)
    else reject(new Error(error))
  }
  worker.onerror = (event) => {
    for (const { reject } of pending.values()) reject(new Error(`the workspace bench worker failed: ${event.message}`))
    pending.clear()
  }
  const call = (message) =>
    new Promise((resolve, reject) => {
      const id = nextId++
      pending.set(id, { resolve, reject })
      worker.postMessage({ id, ...message })
    })
  window.fxWorkspaceBench = {
    writeFiles: (files) => call({ call: 'writeFiles', files }),
    time: (command, path) => call({ call: 'time', command, path }),
  }
}

/** In the page: the files the grep and cat cases read, written through the workspace and into the bench's worker. */
async function seedFiles({ grepFiles, bigFileBytes }) {
  const workspace = window.fxterm?.workspace
  if (!workspace?.writeFiles) throw new Error('window.fxterm.workspace.writeFiles is missing')
  const encoder = new TextEncoder()
  const files = []
  for (let i = 0; i < grepFiles; i++) {
    // Twenty short lines per file; every tenth file holds one match, so grep reads everything
    // but prints little (the output limit is not what is measured here).
    const lines = Array.from({ length: 20 }, (_, line) => `file ${i} line ${line}: ${line === 7 && i % 10 === 0 ? 'a needle here' : 'just hay'}`)
    files.push({ path: `grep-corpus/dir${i % 20}/file${i}.txt`, data: encoder.encode(`${lines.join('\n')}\n`) })
  }
  const row = 'the quick brown fox jumps over the lazy dog 0123456789\n'
  files.push({ path: 'big.txt', data: encoder.encode(row.repeat(Math.ceil(bigFileBytes / row.length)).slice(0, bigFileBytes)) })
  const { written, skipped } = await workspace.writeFiles(files)
  if (written.length !== files.length) throw new Error(`writeFiles wrote ${written.length} of ${files.length} (skipped: ${JSON.stringify(skipped.slice(0, 3))})`)
  const there = await window.fxWorkspaceBench.writeFiles(files)
  if (there.session !== files.length || there.bash !== files.length) throw new Error(`the bench worker wrote ${JSON.stringify(there)} of ${files.length}`)
  return written.length
}

/** In the page: total ms for `runs` sequential workspace.exec calls, as the engine makes them. */
async function adapterRuns({ command, runs, outputLimitBytes, timeoutMs }) {
  const workspace = window.fxterm.workspace
  const signal = new AbortController().signal
  const started = performance.now()
  for (let i = 0; i < runs; i++) {
    const result = await workspace.exec({ command, cwd: '/workspace', signal, timeoutMs, outputLimitBytes })
    if (result.exitCode !== 0) throw new Error(`${command} exited ${result.exitCode}: ${result.stderr.slice(0, 200)}`)
  }
  return performance.now() - started
}

/**
 * In the page: `runs` direct just-bash execs in the bench's worker, each timed there (no
 * limits, cwd tracking or truncation). `inWorker` sums those: just-bash's own time. `fromPage`
 * times the same calls from here; the difference is what one page ⇄ worker round trip costs,
 * the part of the adapter's overhead no adapter can avoid.
 */
async function directRuns({ command, runs }) {
  const bench = window.fxWorkspaceBench
  let inWorker = 0
  let adapterInWorker = 0
  const started = performance.now()
  for (let i = 0; i < runs; i++) inWorker += await bench.time(command, 'bash')
  const fromPage = performance.now() - started
  // The adapter's own work for the same command, timed in the same worker (no page hop).
  for (let i = 0; i < runs; i++) adapterInWorker += await bench.time(command, 'adapter')
  return { inWorker, fromPage, adapterInWorker }
}

/** Opens the app, starts the bench's worker there, seeds the files, and times each case every way. */
export async function benchWorkspace(browser, baseUrl) {
  await buildBenchPages()
  const context = await browser.newContext()
  const tab = await context.newPage()
  try {
    await tab.goto(`${baseUrl}/`)
    await tab.waitForFunction(() => Boolean(window.fxterm?.workspace), undefined, { timeout: 30_000 })
    await tab.evaluate(startBenchWorker, { url: `${baseUrl}/e2e/bench/workspace-bench-worker.js` })
    const limits = { outputLimitBytes: OUTPUT_LIMIT_BYTES, timeoutMs: TIMEOUT_MS }
    // The first command downloads and starts just-bash: not part of any case.
    await tab.evaluate(adapterRuns, { command: 'true', runs: 1, ...limits })
    await tab.evaluate(directRuns, { command: 'true', runs: 1 })
    await tab.evaluate(seedFiles, { grepFiles: GREP_FILES, bigFileBytes: BIG_FILE_BYTES })

    const cases = {}
    for (const { key, label, command, runs, target } of CASES) {
      const input = { command, runs, ...limits }
      const adapter = []
      const straight = []
      const roundTrip = []
      const adapterWorker = []
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? ['adapter', 'direct'] : ['direct', 'adapter']
        for (const path of order) {
          if (path === 'adapter') adapter.push((await tab.evaluate(adapterRuns, input)) / runs)
          else {
            const { inWorker, fromPage, adapterInWorker } = await tab.evaluate(directRuns, input)
            straight.push(inWorker / runs)
            roundTrip.push((fromPage - inWorker) / runs)
            adapterWorker.push(adapterInWorker / runs)
          }
        }
      }
      const adapterMs = median(adapter)
      const directMs = median(straight)
      const roundTripMs = median(roundTrip)
      const adapterInWorkerMs = median(adapterWorker)
      // The target compares like with like: the adapter's exec and a direct just-bash exec, both
      // timed in one worker. The page ⇄ worker hop is reported on its own line: it is the
      // price of running commands off the terminal's threads, which the design requires.
      const ratio = adapterInWorkerMs / directMs
      const pageRatio = adapterMs / directMs
      const ok = target ? ratio <= target : null
      cases[key] = { label, command, runs, rounds: ROUNDS, adapterMs, adapterInWorkerMs, directMs, roundTripMs, ratio, pageRatio, target, ok, samples: { adapter, adapterInWorker: adapterWorker, direct: straight, roundTrip } }
      console.log(`workspace ${pad(label, 28)} per call: adapter from the page ${ms(adapterMs)}, adapter in the worker ${ms(adapterInWorkerMs)}, just-bash alone ${ms(directMs)}, round trip ${ms(roundTripMs)}`)
    }
    return { outputLimitBytes: OUTPUT_LIMIT_BYTES, cases }
  } finally {
    await context.close()
  }
}

/** The rows this bench adds to the printed table. */
export function workspaceLines(result) {
  const lines = [`workspace adapter vs just-bash alone, both timed in one worker (per call, median of ${ROUNDS} rounds, ${result.outputLimitBytes / 1024} KiB output limit)`]
  for (const c of Object.values(result.cases)) {
    const goal = c.target ? ` (target ≤ ${c.target}×) ${verdict(c.ok)}` : ''
    lines.push(`  ${pad(c.label, 28)} adapter ${pad(ms(c.adapterInWorkerMs), 10)} just-bash ${pad(ms(c.directMs), 10)} ratio ${pad(times(c.ratio), 8)}${goal}`)
    lines.push(`  ${pad('', 28)} the adapter from the page, hop included: ${ms(c.adapterMs)} (${times(c.pageRatio)} of just-bash alone)`)
  }
  // The round trip is the floor under any adapter in another thread: shown so a miss can be read
  // as "messaging" or "the adapter's own work".
  const echo = result.cases.echo
  if (echo) lines.push(`  one page ⇄ worker round trip (a direct exec timed from the page minus in the worker): ${ms(echo.roundTripMs)}/call`)
  return lines
}
