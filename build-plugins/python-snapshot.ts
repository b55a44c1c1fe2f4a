import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'
import { INSTALL_DRIVER } from '../src/sandbox/python/python-driver.ts'

/** Where the snapshot is written; src/page/sandbox/python/pyodide-assets.ts names it from there. */
export const SNAPSHOT_FILE = fileURLToPath(new URL('../build/python-snapshot.bin', import.meta.url))
const KEY_FILE = `${SNAPSHOT_FILE}.key`
const SCRIPT = fileURLToPath(new URL('./make-python-snapshot.mjs', import.meta.url))
const PYODIDE = fileURLToPath(new URL('../node_modules/pyodide/', import.meta.url))

/**
 * Python's clean memory snapshot, made at build time: Pyodide started in Node with the run
 * driver installed and no user code run, before any build that ships Pyodide's files. The
 * sandbox restores every python3 run from it (a fresh interpreter per run, in well under the
 * seconds CPython takes to start in Pyodide), so it is made here, by this build, and never in
 * the sandbox nor kept in the page's storage. Remade only when Pyodide or the driver changes
 * (a key beside it), since starting CPython in Node takes some seconds.
 */
export function pythonSnapshot(): Plugin {
  return {
    name: 'fxterm-python-snapshot',
    buildStart() {
      ensurePythonSnapshot()
    },
  }
}

export function ensurePythonSnapshot(): void {
  const key = snapshotKey()
  if (existsSync(SNAPSHOT_FILE) && existsSync(KEY_FILE) && readFileSync(KEY_FILE, 'utf8') === key) return
  mkdirSync(fileURLToPath(new URL('../build/', import.meta.url)), { recursive: true })
  // Names of this call's own: builds may ask at the same time (the app's environments).
  const own = `${SNAPSHOT_FILE}.${process.pid}-${Math.random().toString(36).slice(2)}`
  writeFileSync(`${own}.py`, INSTALL_DRIVER)
  try {
    // Written beside, then moved: a build stopped halfway leaves no half a snapshot.
    execFileSync(process.execPath, [SCRIPT, `${own}.py`, `${own}.partial`], { stdio: ['ignore', 'ignore', 'inherit'] })
    renameSync(`${own}.partial`, SNAPSHOT_FILE)
    writeFileSync(KEY_FILE, key)
  } finally {
    rmSync(`${own}.py`, { force: true })
    rmSync(`${own}.partial`, { force: true })
  }
}

/** What the snapshot is made of: Pyodide's runtime (its build id hashes these), the driver, this maker. */
function snapshotKey(): string {
  const hash = createHash('sha256')
  for (const file of ['package.json', 'pyodide.asm.mjs', 'pyodide.asm.wasm', 'python_stdlib.zip']) hash.update(readFileSync(`${PYODIDE}${file}`))
  hash.update(INSTALL_DRIVER)
  hash.update(readFileSync(SCRIPT))
  return hash.digest('hex')
}
