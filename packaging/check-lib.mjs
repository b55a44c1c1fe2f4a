// The last step of `npm run build:lib`: fails loudly, naming the file, when lib/ lacks something
// the package needs (engine.wasm above all: it is built by build:wasm, and public/engine.* is not
// in git, so a build that skipped it used to pack a library that fails at its first turn).
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

/** Every file an export condition of package.json points to. */
function exportTargets(value) {
  if (typeof value === 'string') return [value]
  return Object.values(value).flatMap(exportTargets)
}

const needed = [...new Set([...exportTargets(pkg.exports), 'lib/engine.wasm', 'lib/demos/tour.json'])].map((file) => file.replace(/^\.\//, ''))
const missing = needed.filter((file) => !existsSync(join(root, file)) || statSync(join(root, file)).size === 0)
const wasm = join(root, 'lib/engine.wasm')
if (!missing.includes('lib/engine.wasm') && readFileSync(wasm).subarray(0, 4).toString('latin1') !== '\0asm') missing.push('lib/engine.wasm (not WebAssembly)')
if (missing.length > 0) {
  console.error(`build:lib: the package would lack ${missing.join(', ')}; run npm run build:lib from the repository root (it builds engine.wasm first).`)
  process.exit(1)
}
console.log(`build:lib: lib/ has everything the package exports (${needed.length} files checked).`)
