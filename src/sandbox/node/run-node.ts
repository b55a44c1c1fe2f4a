/**
 * Sandbox worker: `node` for the workspace, on the browser's own JavaScript engine. One run
 * gets a copy of the files, its own process, console, timers and module registry, all set on
 * the worker's global for the run and taken away after it; the page then ends the worker, so
 * the next run starts in a fresh realm (src/page/sandbox/sandbox-workers.ts). The run ends
 * like a Node process: when nothing is left to wait for, at process.exit(), or at an uncaught
 * exception (printed as Node prints it, exit 1).
 */

import { Buffer } from 'buffer'
import util from 'util'
import type { RunIo, RunRequest, RunResult, SandboxRuntime } from '../../shared/sandbox/runtime-types'
import { createBuiltins, UnsupportedModule } from './builtins'
import { createFsModule } from './fs-module'
import { absolute, MemoryFs } from './memory-fs'
import { ModuleLoader } from './module-loader'
import { createConsole } from './node-console'
import { createProcess, NODE_VERSION, ProcessExit } from './node-process'
import { createTestRunner } from './node-test'
import { findTestFiles } from './test-files'
import { nativeSetTimeout, nextTurn, RunTimers } from './timers'
import { looksLikeEsm } from './resolve'

const HELP = `Usage: node [options] [ script.js | -e "script" | - ] [arguments]
fxterm's node runs on this browser's JavaScript engine, in a sandbox with the workspace files:
  -e, --eval script     evaluate script
  -p, --print script    evaluate script and print the result
  --test [paths]        run tests (node:test)
  -v, --version         print the version
`

type Mode = { kind: 'file'; file: string; args: string[] } | { kind: 'eval'; code: string; print: boolean; args: string[] } | { kind: 'test'; paths: string[] } | { kind: 'say'; text: string; exitCode: number }

/** The first word that is not an option starts the script's own arguments. */
function parseArgs(argv: string[], hasStdin: boolean): Mode {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '-v' || arg === '--version') return { kind: 'say', text: `${NODE_VERSION}\n`, exitCode: 0 }
    if (arg === '-h' || arg === '--help') return { kind: 'say', text: HELP, exitCode: 0 }
    if (arg === '-e' || arg === '--eval' || arg === '-p' || arg === '--print' || arg === '-pe') {
      const code = argv[i + 1]
      if (code === undefined) return { kind: 'say', text: `node: ${arg} requires an argument\n`, exitCode: 9 }
      return { kind: 'eval', code, print: arg !== '-e' && arg !== '--eval', args: argv.slice(i + 2) }
    }
    if (arg === '--test') return { kind: 'test', paths: argv.slice(i + 1).filter((path) => !path.startsWith('--')) }
    if (arg === '-') return { kind: 'file', file: '-', args: argv.slice(i + 1) }
    if (arg.startsWith('-')) continue // --no-warnings, --experimental-…, --input-type=…: nothing to change here
    return { kind: 'file', file: arg, args: argv.slice(i + 1) }
  }
  if (hasStdin) return { kind: 'file', file: '-', args: [] }
  return { kind: 'say', text: "node: there is no REPL here: run a file (node app.js) or code (node -e 'console.log(1)')\n", exitCode: 1 }
}

/** The globals a run replaces or adds, restored afterwards. */
const GLOBALS = ['process', 'Buffer', 'global', 'console', 'fetch', 'setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'clearImmediate', 'require', '__fxNode']

/**
 * Node's `fetch`, failing as Node's does when the network is down ("fetch failed"), with the
 * reason: the browser's own would only say "Failed to fetch" (the sandbox's CSP allows no
 * connection at all, and stays the wall whichever fetch a script reaches for).
 */
const fetchWithoutNetwork = () => Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: new Error("fxterm's node cannot reach the network: code here runs in a sandbox without it") }))

export function createNodeRuntime(options: { moduleUrl?(source: string): string } = {}): SandboxRuntime {
  const moduleUrl = options.moduleUrl ?? ((source: string) => URL.createObjectURL(new Blob([source], { type: 'text/javascript' })))
  return {
    run: (request, io) => runNode(request, io, moduleUrl),
    warm: () => runNode(WARM_UP, SILENT, moduleUrl).then(() => undefined),
  }
}

/**
 * fxterm's own run of its own code, while the worker waits as the spare and before any run's
 * code: the first call of each function compiles it, and a fresh realm would otherwise do that
 * inside the person's run. It leaves what every run leaves: nothing (runNode restores the globals).
 */
const WARM_UP: RunRequest = {
  runtime: 'node',
  argv: ['-e', "console.log('%s %d', 'warm', 1, { up: [true] }); require('path').join('a', 'b'); setTimeout(() => {}, 0)"],
  cwd: '/workspace',
  root: '/workspace',
  env: {},
  files: {},
}
const SILENT: RunIo = { stdout: () => undefined, stderr: () => undefined, progress: () => undefined, loadAsset: () => Promise.reject(new Error('no assets while warming up')) }

async function runNode(request: RunRequest, io: RunIo, moduleUrl: (source: string) => string): Promise<RunResult> {
  const encoder = new TextEncoder()
  let alive = true
  const write = (fd: 1 | 2, bytes: Uint8Array) => {
    if (alive) (fd === 1 ? io.stdout : io.stderr)(bytes)
  }
  const writeText = (fd: 1 | 2, text: string) => write(fd, encoder.encode(text))
  const mode = parseArgs(request.argv, Boolean(request.stdin?.length))
  if (mode.kind === 'say') {
    writeText(mode.exitCode === 0 ? 1 : 2, mode.text)
    return { exitCode: mode.exitCode, changes: {} }
  }

  let cwd = request.cwd
  const fs = new MemoryFs(request.root, request.files, () => cwd)
  let ended: ((code: number) => void) | null = null
  const finished = new Promise<number>((resolve) => (ended = resolve))
  const end = (code: number) => ended?.(code)
  const loaderRef: { current: ModuleLoader | null } = { current: null }
  const report = (error: unknown) => {
    if (error instanceof ProcessExit) return end(error.code)
    writeText(2, describeUncaught(error, loaderRef.current))
    end(1)
  }
  const guard = (callback: () => void) => {
    try {
      callback()
    } catch (error) {
      report(error)
    }
  }
  const timers = new RunTimers(guard)
  const timerGlobals = timers.globals()
  const script = mode.kind === 'file' ? (mode.file === '-' ? '-' : absolute(mode.file, cwd)) : mode.kind === 'eval' ? '[eval]' : ''
  const process = createProcess({
    argv: ['/usr/local/bin/node', ...(mode.kind === 'test' ? [] : script === '[eval]' ? [] : [script]), ...(mode.kind === 'test' ? [] : mode.args)],
    env: request.env,
    cwd: () => cwd,
    chdir: (dir) => {
      const next = absolute(dir, cwd)
      if (fs.stat(next, 'chdir').kind !== 'dir') throw new Error(`ENOTDIR: not a directory, chdir '${dir}'`)
      cwd = next
    },
    write,
    stdin: mode.kind === 'file' && mode.file === '-' ? new Uint8Array() : (request.stdin ?? new Uint8Array()),
  })
  const defer = (run: () => void) => void timerGlobals.setImmediate(run)
  const fsModule = createFsModule(fs, defer, (fd, bytes) => write(fd === 1 ? 1 : 2, bytes))
  const tests = createTestRunner((text) => writeText(1, text))
  const builtins = createBuiltins({
    fs: fsModule,
    process,
    timers: timerGlobals,
    test: tests.module,
    createRequire: (filename) => loader.requireFrom(String(filename).replace(/^file:\/\//, '')),
    home: request.env.HOME ?? '/home/user',
  })
  const loader = new ModuleLoader({ fs, builtins, moduleUrl })
  loaderRef.current = loader

  const saved = new Map(GLOBALS.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)]))
  const before = new Set(Object.getOwnPropertyNames(globalThis))
  const scope = globalThis as Record<string, unknown>
  Object.assign(scope, { ...timerGlobals, process, Buffer, global: globalThis, console: createConsole(writeText), fetch: fetchWithoutNetwork, __fxNode: loader.bridge })
  const onRejection = (event: PromiseRejectionEvent) => {
    event.preventDefault()
    report(event.reason)
  }
  const onError = (event: ErrorEvent) => {
    event.preventDefault()
    report(event.error ?? event.message)
  }
  self.addEventListener('unhandledrejection', onRejection)
  self.addEventListener('error', onError)

  const main = async () => {
    if (mode.kind === 'test') {
      const files = findTestFiles(fs, mode.paths, cwd)
      if (files.length === 0) writeText(2, `Could not find any test files matching ${mode.paths.join(', ') || 'the default patterns'}\n`)
      for (const file of files) {
        await loadFile(loader, file)
        await tests.runFile()
      }
      if (tests.summary() || files.length === 0) process.exitCode = 1
      return
    }
    if (mode.kind === 'eval') await runEval(loader, mode.code, mode.print, cwd, writeText)
    else if (mode.file === '-') await runEval(loader, new TextDecoder().decode(request.stdin ?? new Uint8Array()), false, cwd, writeText)
    else await loadFile(loader, script, true)
    // Tests in a file run without --test: Node runs them and reports too.
    if (tests.hasTests()) {
      await tests.runFile()
      if (tests.summary()) process.exitCode = 1
    }
  }

  try {
    void main().then(async () => {
      // Node exits once nothing is pending: no timer left, after the microtasks have run.
      // A rejection nobody handled is reported in a task of its own: let it come first.
      do {
        await timers.idle()
        await nextTurn()
        await new Promise((resolve) => nativeSetTimeout(resolve, 0))
      } while (!timers.isIdle())
      end(Number(process.exitCode ?? 0) || 0)
    }, report)
    const code = await finished
    try {
      process.emit('exit', code)
    } catch (error) {
      if (!(error instanceof ProcessExit)) writeText(2, describeUncaught(error, loader))
    }
    return { exitCode: code, changes: fs.changes() }
  } finally {
    alive = false
    timers.stop()
    self.removeEventListener('unhandledrejection', onRejection)
    self.removeEventListener('error', onError)
    // Tidy only: the page ends this worker after the run, so what a script made impossible to
    // take back (a non-configurable global) dies with it instead of failing the run.
    for (const name of Object.getOwnPropertyNames(globalThis)) if (!before.has(name)) Reflect.deleteProperty(scope, name)
    for (const [name, descriptor] of saved) {
      if (descriptor) Reflect.defineProperty(globalThis, name, descriptor)
      else Reflect.deleteProperty(scope, name)
    }
    loader.dispose()
  }
}

/** Runs the file at `path` as Node runs a main script: an ES module, or CommonJS with require.main. */
async function loadFile(loader: ModuleLoader, path: string, main = false): Promise<void> {
  const resolved = loader.resolveMain(path)
  if (loader.kindOf(resolved) === 'esm') await loader.import(resolved)
  else loader.load(resolved, main)
}

/** `node -e` / `-p` / stdin: CommonJS in the current directory, or an ES module when it has import/export. */
async function runEval(loader: ModuleLoader, code: string, print: boolean, cwd: string, writeText: (fd: 1 | 2, text: string) => void): Promise<void> {
  if (!print && looksLikeEsm(code)) {
    await loader.importSource(code, `${cwd}/[eval1]`)
    return
  }
  const require = loader.requireFrom(`${cwd}/`)
  const fn = (0, eval)(`(function (exports, require, module, __filename, __dirname) { return eval(${JSON.stringify(code)}) })\n//# sourceURL=[eval]`) as (...args: unknown[]) => unknown
  const module = { exports: {} }
  const value = fn(module.exports, require, module, '[eval]', cwd)
  if (print) writeText(1, `${typeof value === 'string' ? value : util.inspect(await value)}\n`)
}

/** An uncaught error as Node prints it (workspace paths, not blob: URLs), plus the version line. */
function describeUncaught(error: unknown, loader: ModuleLoader | null): string {
  if (error instanceof UnsupportedModule) return `${error.message}\n`
  let text = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : `Uncaught ${util.inspect(error)}`
  if (error instanceof Error && !text.includes(error.message)) text = `${error.name}: ${error.message}\n${text}`
  for (const [url, path] of loader?.pathOfUrl ?? []) text = text.replaceAll(url, path)
  const code = error instanceof Error && 'code' in error ? ` {\n  code: '${String(error.code)}'\n}` : ''
  return `${text}${code}\n\nNode.js ${NODE_VERSION}\n`
}
