/**
 * Sandbox worker: `python3` for the workspace — CPython (Pyodide) loaded once per sandbox on
 * its first run, entirely from bytes the page hands over (the sandbox may fetch nothing): the
 * loader and the Emscripten module are imported from blob: URLs, and while Pyodide starts,
 * `fetch` answers its two requests (the wasm, the standard library) from those bytes. Each run
 * copies the workspace files in at the same paths, runs the code (python-driver.ts) and
 * reports what changed under the root.
 */

import type { loadPyodide as LoadPyodide } from 'pyodide'
import type { RunIo, RunRequest, RunResult, SandboxRuntime } from '../runtime-types'
import { DRIVER } from './python-driver'

type Pyodide = Awaited<ReturnType<typeof LoadPyodide>>

export const PYTHON_CAPABILITIES = 'python3 is CPython (Pyodide) with its standard library: -c, files, -m unittest; pip cannot install packages and nothing reaches the network.'

/** Where Pyodide believes its files are; only the fetch stand-in below ever answers for it. */
const BASE = 'https://pyodide.fxterm.invalid/'

const HELP = `usage: python3 [option] ... [-c cmd | -m mod | file | -] [arg] ...
fxterm's python3 is CPython (Pyodide) in a sandbox with the workspace files, no network, no pip.
`

type Mode = { kind: 'code' | 'file' | 'module'; target: string; args: string[] } | { kind: 'say'; text: string; exitCode: number; fd: 1 | 2 }

function parseArgs(argv: string[], stdin: string | null, version: string): Mode {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '-V' || arg === '--version') return { kind: 'say', text: `Python ${version}\n`, exitCode: 0, fd: 1 }
    if (arg === '-h' || arg === '--help') return { kind: 'say', text: HELP, exitCode: 0, fd: 1 }
    if (arg === '-c' || arg === '-m') {
      const target = argv[i + 1]
      if (target === undefined) return { kind: 'say', text: `Argument expected for the ${arg} option\n`, exitCode: 2, fd: 2 }
      return { kind: arg === '-c' ? 'code' : 'module', target, args: argv.slice(i + 2) }
    }
    if (arg === '-') return { kind: 'code', target: stdin ?? '', args: argv.slice(i + 1) }
    if (arg.startsWith('-')) continue // -u, -B, -q, -I, -E, -X …: nothing to change here
    return { kind: 'file', target: arg, args: argv.slice(i + 1) }
  }
  if (stdin) return { kind: 'code', target: stdin, args: [] }
  return { kind: 'say', text: "python3: there is no interactive prompt here: run a file (python3 app.py) or code (python3 -c 'print(1)')\n", exitCode: 1, fd: 2 }
}

export function createPythonRuntime(options: { moduleUrl?(bytes: Uint8Array): string } = {}): SandboxRuntime {
  const moduleUrl = options.moduleUrl ?? ((bytes: Uint8Array) => URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'text/javascript' })))
  let loading: Promise<Pyodide> | null = null
  let loaded = false
  /** The run whose output the interpreter's streams go to. */
  let current: RunIo | null = null

  async function load(io: Pick<RunIo, 'loadAsset'>): Promise<Pyodide> {
    const names = ['pyodide.mjs', 'pyodide.asm.mjs', 'pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json']
    const [loader, asm, wasm, stdlib, lock] = await Promise.all(names.map((name) => io.loadAsset(name)))
    const { loadPyodide } = (await import(/* @vite-ignore */ moduleUrl(loader!))) as { loadPyodide: typeof LoadPyodide }
    const createPyodideModule = ((await import(/* @vite-ignore */ moduleUrl(asm!))) as { default: unknown }).default
    const served: Record<string, () => Response> = {
      [`${BASE}pyodide.asm.wasm`]: () => new Response(wasm as BlobPart, { headers: { 'content-type': 'application/wasm' } }),
      [`${BASE}python_stdlib.zip`]: () => new Response(stdlib as BlobPart),
    }
    const realFetch = globalThis.fetch
    globalThis.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input)
      return served[url] ? Promise.resolve(served[url]()) : realFetch(input, init)
    }
    try {
      const pyodide = await loadPyodide({
        indexURL: BASE,
        // No packages: a missing module gets CPython's own message, not a hint to install it
        // with micropip, which cannot download anything here.
        lockFileContents: JSON.stringify({ ...JSON.parse(new TextDecoder().decode(lock)), packages: {} }),
        env: { HOME: '/home/user' },
        ...({ createPyodideModule } as object),
      })
      const stream = (fd: 1 | 2) => ({
        write: (bytes: Uint8Array) => {
          const copy = bytes.slice()
          if (fd === 1) current?.stdout(copy)
          else current?.stderr(copy)
          return bytes.length
        },
        isatty: false,
      })
      pyodide.setStdout(stream(1))
      pyodide.setStderr(stream(2))
      pyodide.runPython(DRIVER)
      loaded = true
      return pyodide
    } finally {
      globalThis.fetch = realFetch
    }
  }

  async function run(request: RunRequest, io: RunIo): Promise<RunResult> {
    const stdinText = request.stdin?.length ? new TextDecoder().decode(request.stdin) : null
    const early = parseArgs(request.argv, stdinText, '3')
    if (early.kind === 'say' && early.exitCode !== 0) {
      ;(early.fd === 1 ? io.stdout : io.stderr)(new TextEncoder().encode(early.text))
      return { exitCode: early.exitCode, changes: {} }
    }
    // Said while it loads, whether this run started the load or a `prepare` did.
    if (!loaded) io.progress('Loading Python (first use)…')
    loading ??= load(io)
    let pyodide: Pyodide
    try {
      pyodide = await loading
    } catch (error) {
      loading = null
      throw new Error(`Python could not start: ${error instanceof Error ? error.message : String(error)}`)
    }
    const mode = parseArgs(request.argv, stdinText, pyodide.runPython('import sys; sys.version.split()[0]') as string)
    if (mode.kind === 'say') {
      ;(mode.fd === 1 ? io.stdout : io.stderr)(new TextEncoder().encode(mode.text))
      return { exitCode: mode.exitCode, changes: {} }
    }
    copyIn(pyodide, request)
    current = io
    try {
      const runOnce = pyodide.globals.get('_fx_run') as (...args: unknown[]) => number
      const exitCode = runOnce(mode.kind, mode.target, mode.args, request.cwd, pyodide.toPy(request.env), request.root, request.stdin ?? new Uint8Array())
      return { exitCode: Number(exitCode), changes: changesOut(pyodide, request) }
    } catch (error) {
      // The interpreter itself failed (e.g. the JS stack overflowed inside C code): the next
      // run loads a fresh one.
      loading = null
      loaded = false
      throw new Error(`Python crashed (${error instanceof Error ? error.message : String(error)}); the next python3 starts a fresh one`)
    } finally {
      current = null
    }
  }

  return {
    run,
    prepare(io) {
      if (loading) return
      const started = (loading = load(io))
      // A failed early load is not an error yet: the next run tries again and says why.
      started.catch(() => {
        if (loading === started) loading = null
      })
    },
  }
}

type Fs = Pyodide['FS']

/** Puts the request's files in place, after taking out the copies of the run before. */
function copyIn(pyodide: Pyodide, request: RunRequest): void {
  const fs: Fs = pyodide.FS
  for (const path of walk(fs, request.root)) fs.unlink(path)
  fs.mkdirTree(request.root)
  for (const [path, bytes] of Object.entries(request.files)) {
    fs.mkdirTree(path.slice(0, path.lastIndexOf('/')) || '/')
    fs.writeFile(path, bytes)
  }
}

/** Every file under `dir` (none when it does not exist). */
function walk(fs: Fs, dir: string): string[] {
  let names: string[]
  try {
    names = fs.readdir(dir)
  } catch {
    return []
  }
  const files: string[] = []
  for (const name of names) {
    if (name === '.' || name === '..') continue
    const path = `${dir}/${name}`
    const mode = fs.lstat(path).mode
    if (fs.isDir(mode)) files.push(...walk(fs, path))
    else if (fs.isFile(mode)) files.push(path)
  }
  return files
}

function changesOut(pyodide: Pyodide, request: RunRequest): Record<string, Uint8Array | null> {
  const fs: Fs = pyodide.FS
  const changes: Record<string, Uint8Array | null> = {}
  const now = walk(fs, request.root).filter((path) => !path.includes('/__pycache__/'))
  for (const path of now) {
    const bytes = fs.readFile(path) as Uint8Array
    const before = request.files[path]
    if (!before || before.length !== bytes.length || before.some((byte, i) => byte !== bytes[i])) changes[path] = bytes
  }
  const present = new Set(now)
  for (const path of Object.keys(request.files)) if (!present.has(path)) changes[path] = null
  return changes
}
