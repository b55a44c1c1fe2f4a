// Is streaming linear in the reply? Four shapes of Markdown (one long line, paragraphs, a code
// block, a table) fed to public/engine.wasm in 4-character deltas at 16,000 and 64,000
// characters: 4× the text should take about 4× the engine's CPU, not 16× (target: under 8×).
// The least of three fresh instances per size, as process CPU: a shared machine's other work (or
// a GC pause) must not read as quadratic growth. The unit test
// (wasm/tests/markdown.test.ts) checks the same growth in bytes written, which does not depend
// on the machine.
//
//   node wasm/bench/render-linear.mjs [--wasm path]
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { startEngine } from './engine-feed.mjs'

const args = Object.fromEntries(
  process.argv.slice(2).flatMap((arg, i, all) => (arg.startsWith('--') ? [[arg.slice(2), all[i + 1]]] : [])),
)
const WASM = args.wasm ?? fileURLToPath(new URL('../../public/engine.wasm', import.meta.url))
const RATIO_TARGET = 8

const shapes = {
  'one long line': (n) => 'word '.repeat(n / 5),
  paragraphs: (n) => 'Some **bold** text and `code` in a paragraph line.\n'.repeat(n / 52),
  'code block': (n) => '```js\n' + 'const x = "string" // comment\n'.repeat(n / 30) + '```\n',
  table: (n) => '| a | b |\n|---|---|\n' + '| cell | another cell |\n'.repeat(n / 24),
}

const module = new WebAssembly.Module(readFileSync(WASM))
const encoder = new TextEncoder()

/** The least process CPU (ms) of three fresh engines streaming `text` in 4-character deltas. */
async function cpuFor(text) {
  const deltas = []
  for (let at = 0; at < text.length; at += 4) deltas.push(encoder.encode(text.slice(at, at + 4)))
  let least = Infinity
  for (let run = 0; run < 3; run++) {
    const engine = await startEngine(module)
    const id = engine.prompt('hi')
    const start = process.cpuUsage()
    for (const delta of deltas) engine.text(id, delta)
    engine.finish(id)
    const used = process.cpuUsage(start)
    least = Math.min(least, (used.user + used.system) / 1000)
  }
  return least
}

let ok = true
for (const [name, shape] of Object.entries(shapes)) {
  await cpuFor(shape(8_000)) // warm up
  const small = await cpuFor(shape(16_000))
  const large = await cpuFor(shape(64_000))
  const ratio = large / small
  ok &&= ratio < RATIO_TARGET
  console.log(`${name.padEnd(14)} 16,000 chars ${small.toFixed(1)} ms, 64,000 chars ${large.toFixed(1)} ms: ${ratio.toFixed(2)}× (target < ${RATIO_TARGET}×) ${ratio < RATIO_TARGET ? 'OK' : 'MISS'}`)
}
process.exitCode = ok ? 0 : 1
