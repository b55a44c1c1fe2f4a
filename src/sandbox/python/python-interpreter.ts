/**
 * Sandbox worker: one Python interpreter per run, each restored from the clean memory snapshot
 * made at build time (build-plugins/python-snapshot.ts), so no run sees what another left.
 *
 * `loadPythonKit` takes what every restore shares, once per sandbox, from the Blobs the page
 * hands over (the sandbox may fetch nothing): Pyodide's loader and Emscripten module imported
 * from blob: URLs, the wasm compiled once, the snapshot unzipped once. `restoreInterpreter` then
 * builds a new interpreter from them: a new wasm instance and memory with the snapshot copied
 * in, a new file system with the standard library. While Pyodide starts, `fetch` answers its
 * two requests (the wasm, the standard library) from those bytes, and the wasm is instantiated
 * from the compiled module instead of compiled again. Restores run one at a time, never while
 * code runs, so those stand-ins are in place only while nothing else can see them.
 *
 * Dropping an interpreter gives its memory back (a `MemoryError` grows it to gigabytes): its
 * streams are cut off and its JS timers cleared (python-js-globals.ts), so nothing it still
 * does reaches a later run, and nothing keeps it alive.
 */

import type { loadPyodide as LoadPyodide } from 'pyodide'
import type { RunIo } from '../../shared/sandbox/runtime-types'
import { createInterpreterGlobals } from './python-js-globals'
import { compileOnce } from './compile-once'

export type Pyodide = Awaited<ReturnType<typeof LoadPyodide>>

/** Where Pyodide believes its files are; only the fetch stand-in below ever answers for it. */
const BASE = 'https://pyodide.fxterm.invalid/'

export const PYTHON_ASSET_NAMES = ['pyodide.mjs', 'pyodide.asm.mjs', 'pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json', 'python-snapshot.bin'] as const

export type PythonKit = {
  loadPyodide: typeof LoadPyodide
  createPyodideModule: (settings: object) => Promise<unknown>
  wasm: WebAssembly.Module
  stdlib: Uint8Array
  snapshot: Uint8Array
  lock: string
  /** Small wasm modules Pyodide compiles at every start (see compileOnce), by their bytes. */
  compiled: Map<string, WebAssembly.Module>
}

export type Interpreter = {
  pyodide: Pyodide
  /** Where its stdout and stderr go: the run it serves, or nowhere. */
  attach(io: RunIo | null): void
  /** Cuts it off; the garbage collector then takes its memory. */
  drop(): void
}

export async function loadPythonKit(
  load: (name: (typeof PYTHON_ASSET_NAMES)[number]) => Promise<Blob>,
  moduleUrl: (code: Blob) => string,
): Promise<PythonKit> {
  const bytes = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer())
  // Each step starts as its own file arrives: the wasm compiles while the rest still comes in.
  const [{ loadPyodide }, createPyodideModule, compiled, stdlib, snapshot, lock] = await Promise.all([
    load('pyodide.mjs').then((code) => import(/* @vite-ignore */ moduleUrl(code)) as Promise<{ loadPyodide: typeof LoadPyodide }>),
    load('pyodide.asm.mjs').then(async (code) => ((await import(/* @vite-ignore */ moduleUrl(code))) as { default: PythonKit['createPyodideModule'] }).default),
    load('pyodide.asm.wasm').then(async (wasm) => WebAssembly.compile(await wasm.arrayBuffer())),
    load('python_stdlib.zip').then(bytes),
    load('python-snapshot.bin').then(gunzip),
    load('pyodide-lock.json').then((lock) => lock.text()),
  ])
  return {
    loadPyodide,
    createPyodideModule,
    wasm: compiled,
    stdlib,
    snapshot,
    // No packages: a missing module gets CPython's own message, not a hint to install it with
    // micropip, which cannot download anything here. As build-plugins/make-python-snapshot.mjs.
    lock: JSON.stringify({ ...JSON.parse(lock), packages: {} }),
    compiled: new Map(),
  }
}

export async function restoreInterpreter(kit: PythonKit): Promise<Interpreter> {
  let sink: RunIo | null = null
  let dropped = false
  const jsGlobals = createInterpreterGlobals()
  const realFetch = globalThis.fetch
  const realInstantiateStreaming = WebAssembly.instantiateStreaming
  const RealModule = WebAssembly.Module
  globalThis.fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    if (url === `${BASE}python_stdlib.zip`) return Promise.resolve(new Response(kit.stdlib as BlobPart))
    if (url === `${BASE}pyodide.asm.wasm`) return Promise.resolve(new Response(null, { headers: { 'content-type': 'application/wasm' } }))
    return realFetch(input, init)
  }
  // Pyodide streams the wasm in to compile it; this interpreter takes the compiled module instead.
  WebAssembly.instantiateStreaming = async (_source, imports) => ({ instance: await WebAssembly.instantiate(kit.wasm, imports), module: kit.wasm })
  WebAssembly.Module = compileOnce(kit.compiled, RealModule)
  try {
    const pyodide = await kit.loadPyodide({
      indexURL: BASE,
      lockFileContents: kit.lock,
      env: { HOME: '/home/user' },
      jsglobals: jsGlobals.globals,
      // Only read: the same bytes serve every restore.
      _loadSnapshot: kit.snapshot,
      ...({ createPyodideModule: kit.createPyodideModule } as object),
    })
    const stream = (fd: 1 | 2) => ({
      write: (bytes: Uint8Array) => {
        if (!dropped) (fd === 1 ? sink?.stdout : sink?.stderr)?.(bytes.slice())
        return bytes.length
      },
      isatty: false,
    })
    pyodide.setStdout(stream(1))
    pyodide.setStderr(stream(2))
    // Pyodide's start imports this into __main__; CPython's __main__ starts without it.
    pyodide.runPython('del _pyodide_core')
    let held: Pyodide | null = pyodide
    return {
      get pyodide() {
        if (!held) throw new Error('this Python interpreter was dropped')
        return held
      },
      attach(io) {
        sink = io
      },
      drop() {
        dropped = true
        jsGlobals.clearAll()
        sink = null
        held = null
      },
    }
  } finally {
    globalThis.fetch = realFetch
    WebAssembly.instantiateStreaming = realInstantiateStreaming
    WebAssembly.Module = RealModule
  }
}

/** The snapshot's bytes: gzipped as built, unless something on the way already unzipped them. */
async function gunzip(file: Blob): Promise<Uint8Array> {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer())
  const gzipped = head[0] === 0x1f && head[1] === 0x8b
  return new Uint8Array(await new Response(gzipped ? file.stream().pipeThrough(new DecompressionStream('gzip')) : file).arrayBuffer())
}
