/**
 * Sandbox worker: `python3` for the workspace. Every run gets an interpreter of its own,
 * restored from the clean snapshot taken before any user code ran (python-interpreter.ts), and
 * drops it when it ends: a patched module, a global, a file outside the workspace, a hook or a
 * grown heap (a `MemoryError`) is gone with it. The next run's interpreter is restored as soon
 * as a run ends (and on `prepare`, before the first), so a run does not wait for its restore.
 * Each run copies the workspace files in at the same paths, runs the code (python-driver.ts)
 * and reports what changed under the root.
 */

import type { RunIo, RunRequest, RunResult, SandboxRuntime } from '../../shared/sandbox/runtime-types'
import { loadPythonKit, restoreInterpreter, type Interpreter, type PythonKit } from './python-interpreter'
import { changesOut, copyIn } from './python-files'
import { parsePythonArgs } from './python-args'

export function createPythonRuntime(options: { moduleUrl?(code: Blob): string } = {}): SandboxRuntime {
  // Typed anew: a module from a blob: URL needs a JavaScript type, whatever the server said.
  const moduleUrl = options.moduleUrl ?? ((code: Blob) => URL.createObjectURL(new Blob([code], { type: 'text/javascript' })))
  let kit: Promise<PythonKit> | null = null
  let kitLoaded = false
  /** The interpreter the next run takes, restored ahead. */
  let spare: Promise<Interpreter> | null = null
  /** Restores one at a time: each puts stand-ins for fetch and the wasm compile in place. */
  let restoring: Promise<unknown> = Promise.resolve()
  let version: string | null = null

  function loadKit(io: Pick<RunIo, 'loadAsset'>): Promise<PythonKit> {
    if (kit) return kit
    const loading = loadPythonKit((name) => io.loadAsset(name), moduleUrl).then((loaded) => {
      kitLoaded = true
      return loaded
    })
    kit = loading
    // A failed load is not kept: the next run tries again and says why.
    loading.catch(() => {
      if (kit === loading) kit = null
    })
    return loading
  }

  function restore(io: Pick<RunIo, 'loadAsset'>): Promise<Interpreter> {
    const restored = restoring.then(() => loadKit(io)).then(restoreInterpreter)
    restoring = restored.catch(() => undefined)
    return restored
  }

  /** Restores the next run's interpreter ahead of it, unless one is ready or on its way. */
  function refill(io: Pick<RunIo, 'loadAsset'>): void {
    if (spare) return
    const next = restore(io)
    spare = next
    next.catch(() => {
      if (spare === next) spare = null
    })
  }

  function take(io: Pick<RunIo, 'loadAsset'>): Promise<Interpreter> {
    const taken = spare ?? restore(io)
    spare = null
    return taken
  }

  async function run(request: RunRequest, io: RunIo): Promise<RunResult> {
    const stdinText = request.stdin?.length ? new TextDecoder().decode(request.stdin) : null
    const early = parsePythonArgs(request.argv, stdinText, '3')
    if (early.kind === 'say' && early.exitCode !== 0) {
      ;(early.fd === 1 ? io.stdout : io.stderr)(new TextEncoder().encode(early.text))
      return { exitCode: early.exitCode, changes: {} }
    }
    // Said while it loads, whether this run started the load or a `prepare` did (the page
    // waits for a `prepare` before a command that names python3, and says it there).
    if (!kitLoaded) io.progress('Loading Python (first use)…')
    let interpreter: Interpreter
    try {
      interpreter = await take(io)
    } catch (error) {
      throw new Error(`Python could not start: ${error instanceof Error ? error.message : String(error)}`)
    }
    try {
      return runIn(interpreter, request, stdinText, io)
    } finally {
      interpreter.drop()
      // After this run's answer has gone out: a restore holds the worker for a moment.
      setTimeout(() => refill(io), 0)
    }
  }

  function runIn(interpreter: Interpreter, request: RunRequest, stdinText: string | null, io: RunIo): RunResult {
    const pyodide = interpreter.pyodide
    version ??= String(pyodide.runPython('__import__("sys").version.split()[0]', { globals: pyodide.toPy({}) }))
    const mode = parsePythonArgs(request.argv, stdinText, version)
    if (mode.kind === 'say') {
      ;(mode.fd === 1 ? io.stdout : io.stderr)(new TextEncoder().encode(mode.text))
      return { exitCode: mode.exitCode, changes: {} }
    }
    // Taken before the run: once Python has exited (os._exit), Pyodide's public API refuses.
    const fs = pyodide.FS
    copyIn(fs, request)
    interpreter.attach(io)
    const driver = pyodide.pyimport('_fxterm_driver')
    let exitCode: number
    try {
      exitCode = Number(driver.run(mode.kind, mode.target, mode.args, request.cwd, pyodide.toPy(request.env), request.stdin ?? new Uint8Array()))
    } catch (error) {
      const status = exitStatus(error)
      // The interpreter itself failed (e.g. the JS stack overflowed inside C code).
      if (status === null) throw new Error(`Python crashed (${error instanceof Error ? error.message : String(error)}); the next python3 starts a fresh one`)
      exitCode = status
    } finally {
      interpreter.attach(null)
    }
    return { exitCode, changes: changesOut(fs, request) }
  }

  return {
    run,
    prepare(io) {
      refill(io)
      return spare?.then(
        () => undefined,
        () => undefined,
      )
    },
  }
}

/**
 * The status of `os._exit(n)`, or null for any other error: Emscripten throws its ExitStatus,
 * which Pyodide may wrap in an error of its own that keeps only the message.
 */
function exitStatus(error: unknown): number | null {
  if (typeof error !== 'object' || error === null) return null
  const { status, message } = error as { status?: unknown; message?: unknown }
  if (typeof status === 'number') return status
  const said = typeof message === 'string' ? /^Program terminated with exit\((-?\d+)\)$/.exec(message) : null
  return said ? Number(said[1]) : null
}
