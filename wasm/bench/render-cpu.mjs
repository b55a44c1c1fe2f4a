// The engine's CPU for one streamed reply, without a browser: the render bench's megabyte of
// Markdown (e2e/bench/markdown-doc.mjs) fed to public/engine.wasm in 4-character text deltas,
// one input frame each. Prints the median time spent inside the engine's feed() over a few fresh
// instances (and the process CPU of the loop, steadier on a busy machine), and a SHA-256 of every
// output byte the engine returned (frames included), so a change that is meant to be faster only
// can be checked to write exactly the same bytes. The worker joins deltas per frame
// (src/worker/delta-coalescer.ts), so a fast stream reaches the engine as --chunk 4096 or so;
// 4-character frames are a slow model's stream, one redraw per delta.
//
// Hashes at 80x24, 1 MB: 0c1329fc… (4-character deltas), 8c503f3c… (--chunk 4096).
//
//   node wasm/bench/render-cpu.mjs [--runs 5] [--chunk 4] [--cols 80] [--rows 24] [--bytes 1000000] [--wasm path] [--doc mix] [--view 1]
//
// Frames are encoded here (20-byte header: kind, sub, id, now, length; see wasm/ABI.md) rather
// than through src/worker/engine-frames.ts, which Node cannot import without a TypeScript step.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { benchMarkdown } from '../../e2e/bench/markdown-doc.mjs'
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

const IN_BOOT = 1
const IN_KEYS = 2
const IN_MODEL = 4
const SUB_TEXT = 1
const SUB_FINISH = 7
const OUT_MODEL_REQUEST = 2
const HEADER = 20

const wasm = new WebAssembly.Module(readFileSync(WASM))
const encoder = new TextEncoder()
/** --doc mix: markdown-mix.mjs's document (more of the renderer's paths) instead of the bench's. */
const doc = args.doc === 'mix' ? mixMarkdown(BYTES) : benchMarkdown(BYTES)
const deltas = []
for (let at = 0; at < doc.length; at += CHUNK) deltas.push(encoder.encode(doc.slice(at, at + CHUNK)))

async function run() {
  const instance = await WebAssembly.instantiate(wasm, { env: { abort: () => { throw new Error('engine abort') } } })
  const x = instance.exports
  const hash = createHash('sha256')
  let now = 1_000_000
  let feedNs = 0n
  let outBytes = 0
  const feed = (kind, payload, id = 0, sub = 0) => {
    const len = HEADER + payload.length
    const ptr = x.inputBuffer(len)
    const frame = new Uint8Array(x.memory.buffer, ptr, len)
    const view = new DataView(frame.buffer, frame.byteOffset, HEADER)
    view.setUint8(0, kind)
    view.setUint8(1, sub)
    view.setUint16(2, 0, true)
    view.setUint32(4, id, true)
    view.setFloat64(8, now, true)
    view.setUint32(16, payload.length, true)
    frame.set(payload, HEADER)
    const t = process.hrtime.bigint()
    const outLen = x.feed(len)
    feedNs += process.hrtime.bigint() - t
    const out = new Uint8Array(x.memory.buffer, x.outputPtr(), outLen)
    hash.update(out)
    outBytes += outLen
    return out
  }
  const boot = { cols: COLS, rows: ROWS, seed: 1, provider: 'demo', model: 'demo', tools: true, cwd: '/workspace', notices: [], args: [] }
  feed(IN_BOOT, encoder.encode(JSON.stringify(boot)))
  const sent = feed(IN_KEYS, encoder.encode('render the document\r'))
  const requestId = findRequest(sent)
  feedNs = 0n
  const cpu = process.cpuUsage()
  for (const delta of deltas) {
    now += 1
    feed(IN_MODEL, delta, requestId, SUB_TEXT)
  }
  feed(IN_MODEL, encoder.encode('stop'), requestId, SUB_FINISH)
  const used = process.cpuUsage(cpu)
  // --view 1: the Ctrl+O transcript view too (its first page, pages up, the top, back), hashed
  if (args.view) for (const key of ['\x0f', '\x1b[5~', '\x1b[5~', '\x1b[H', '\x1b[6~', 'q']) feed(IN_KEYS, encoder.encode(key))
  return { feedMs: Number(feedNs) / 1e6, cpuMs: (used.user + used.system) / 1000, outBytes, sha: hash.digest('hex') }
}

/** The id of the model request among the output frames (12-byte header: kind, id at 4, length at 8). */
function findRequest(out) {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength)
  for (let at = 0; at + 12 <= out.length; at += 12 + view.getUint32(at + 8, true)) {
    if (view.getUint8(at) === OUT_MODEL_REQUEST) return view.getUint32(at + 4, true)
  }
  throw new Error('no model request after the prompt')
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
