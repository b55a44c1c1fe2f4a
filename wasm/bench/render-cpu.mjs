// The engine's CPU for one streamed reply, without a browser: the render bench's megabyte of
// Markdown (e2e/bench/markdown-doc.mjs) fed to public/engine.wasm in 4-character text deltas,
// one input frame each. Prints the median time spent inside the engine's feed() over a few fresh
// instances (and the process CPU of the loop, steadier on a busy machine), and a SHA-256 of every
// output byte the engine returned (frames included), so a change that is meant to be faster only
// can be checked to write exactly the same bytes. The worker joins deltas per frame
// (src/engine-worker/host/delta-coalescer.ts), so a fast stream reaches the engine as --chunk 4096 or so;
// 4-character frames are a slow model's stream, one redraw per delta.
//
// Hashes at 80x24, 1 MB: 0c1329fc… (4-character deltas), 8c503f3c… (--chunk 4096).
//
//   node wasm/bench/render-cpu.mjs [--runs 5] [--chunk 4] [--cols 80] [--rows 24] [--bytes 1000000] [--wasm path] [--doc mix] [--view 1]
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { benchMarkdown } from '../../e2e/bench/markdown-doc.mjs'
import { startEngine } from './engine-feed.mjs'
import { mixMarkdown } from './markdown-mix.mjs'

const args = Object.fromEntries(
  process.argv.slice(2).flatMap((arg, i, all) => (arg.startsWith('--') ? [[arg.slice(2), all[i + 1]]] : [])),
)
const RUNS = Number(args.runs) || 5
const CHUNK = Number(args.chunk) || 4
const COLS = Number(args.cols) || 80
const ROWS = Number(args.rows) || 24
const BYTES = Number(args.bytes) || 1_000_000
/** Another build of the engine, e.g. one with a name section for --cpu-prof. */
const WASM = args.wasm ?? fileURLToPath(new URL('../../public/engine.wasm', import.meta.url))

const wasm = new WebAssembly.Module(readFileSync(WASM))
const encoder = new TextEncoder()
/** --doc mix: markdown-mix.mjs's document (more of the renderer's paths) instead of the bench's. */
const doc = args.doc === 'mix' ? mixMarkdown(BYTES) : benchMarkdown(BYTES)
const deltas = []
for (let at = 0; at < doc.length; at += CHUNK) deltas.push(encoder.encode(doc.slice(at, at + CHUNK)))

async function run() {
  const hash = createHash('sha256')
  let feedNs = 0n
  let outBytes = 0
  const engine = await startEngine(wasm, {
    cols: COLS,
    rows: ROWS,
    onFeed: (ns) => (feedNs += ns),
    onOutput: (out) => {
      hash.update(out)
      outBytes += out.length
    },
  })
  const requestId = engine.prompt('render the document')
  feedNs = 0n
  const cpu = process.cpuUsage()
  for (const delta of deltas) engine.text(requestId, delta)
  engine.finish(requestId)
  const used = process.cpuUsage(cpu)
  // --view 1: the Ctrl+O transcript view too (its first page, pages up, the top, back), hashed
  if (args.view) for (const key of ['\x0f', '\x1b[5~', '\x1b[5~', '\x1b[H', '\x1b[6~', 'q']) engine.keys(key)
  return { feedMs: Number(feedNs) / 1e6, cpuMs: (used.user + used.system) / 1000, outBytes, sha: hash.digest('hex') }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const results = []
for (let i = 0; i < RUNS; i++) {
  const r = await run()
  results.push(r)
  console.log(`run ${i + 1}: feed ${r.feedMs.toFixed(1)} ms, process CPU ${r.cpuMs.toFixed(1)} ms, ${r.outBytes} bytes out`)
}
const shas = new Set(results.map((r) => r.sha))
if (shas.size !== 1) throw new Error(`output differs between runs: ${[...shas].join(' ')}`)
console.log(`${deltas.length} deltas of ${CHUNK} chars, ${COLS}x${ROWS}`)
const feeds = results.map((r) => r.feedMs)
console.log(`feed median ${median(feeds).toFixed(1)} ms (min ${Math.min(...feeds).toFixed(1)}), process CPU median ${median(results.map((r) => r.cpuMs)).toFixed(1)} ms`)
console.log(`sha256 ${results[0].sha}`)
