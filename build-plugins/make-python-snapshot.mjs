// Run by build-plugins/python-snapshot.ts in a process of its own (Pyodide's memory and its
// globals stay out of Vite's): starts the installed Pyodide in Node with the options the sandbox
// restores it with, runs the setup Python it is given (the run driver), and writes Pyodide's
// memory snapshot, gzipped (a file named .gz would be served with Content-Encoding: gzip by
// some servers, so the name does not say it; the sandbox reads gzip's magic bytes).
//
//   node build-plugins/make-python-snapshot.mjs <setup.py> <out.bin>
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { gzipSync } from 'node:zlib'

const [setupFile, outFile] = process.argv.slice(2)
if (!setupFile || !outFile) throw new Error('usage: make-python-snapshot.mjs <setup.py> <out.bin>')
const indexDir = dirname(createRequire(import.meta.url).resolve('pyodide/pyodide.mjs'))
const { loadPyodide } = await import('pyodide')
const lock = JSON.parse(readFileSync(`${indexDir}/pyodide-lock.json`, 'utf8'))
const pyodide = await loadPyodide({
  indexURL: `${indexDir}/`,
  // As src/sandbox/python/python-interpreter.ts restores it: no packages, the same HOME.
  lockFileContents: JSON.stringify({ ...lock, packages: {} }),
  env: { HOME: '/home/user' },
  _makeSnapshot: true,
})
pyodide.runPython(readFileSync(setupFile, 'utf8'))
writeFileSync(outFile, gzipSync(pyodide.makeMemorySnapshot(), { level: 6 }))
