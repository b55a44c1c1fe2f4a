/**
 * Sandbox worker: the `process` one run's code sees. `exit()` throws ProcessExit, which the
 * runner catches wherever the code runs (the main module, a timer, a test, a promise), so no
 * line after it runs; the run then ends with its code.
 */

import { EventEmitter } from 'events'
import { Buffer } from 'buffer'

export const NODE_VERSION = 'v20.19.0'

export class ProcessExit {
  constructor(readonly code: number) {}
}

export type ProcessHooks = {
  argv: string[]
  env: Record<string, string>
  cwd(): string
  chdir(dir: string): void
  write(fd: 1 | 2, bytes: Uint8Array): void
  stdin: Uint8Array
}

const started = performance.now()

function stream(fd: 1 | 2, hooks: ProcessHooks) {
  const out = new EventEmitter() as EventEmitter & Record<string, unknown>
  Object.assign(out, {
    fd,
    isTTY: false,
    columns: 80,
    rows: 24,
    writable: true,
    write(chunk: unknown, encoding?: unknown, callback?: unknown) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : (chunk as Uint8Array)
      hooks.write(fd, bytes)
      const done = typeof encoding === 'function' ? encoding : callback
      if (typeof done === 'function') queueMicrotask(() => (done as () => void)())
      return true
    },
    end(chunk?: unknown) {
      if (chunk !== undefined) (out.write as (c: unknown) => void)(chunk)
    },
    cork() {},
    uncork() {},
    hasColors: () => false,
    getColorDepth: () => 1,
  })
  return out
}

export function createProcess(hooks: ProcessHooks) {
  const process = new EventEmitter() as EventEmitter & Record<string, unknown>
  const stdinText = new TextDecoder().decode(hooks.stdin)
  const stdin = new EventEmitter() as EventEmitter & Record<string, unknown>
  Object.assign(stdin, {
    fd: 0,
    isTTY: false,
    setEncoding() {
      return stdin
    },
    resume() {
      return stdin
    },
    pause() {
      return stdin
    },
    read: () => null,
    // All of stdin arrives at once, on the next turn, then the end.
    [Symbol.asyncIterator]: async function* () {
      if (stdinText) yield Buffer.from(stdinText)
    },
  })
  const addStdinListener = stdin.on.bind(stdin)
  stdin.on = stdin.addListener = ((event: string, listener: (...args: unknown[]) => void) => {
    addStdinListener(event, listener)
    if (event === 'data' && stdinText) queueMicrotask(() => listener(Buffer.from(stdinText)))
    if (event === 'end') queueMicrotask(() => listener())
    return stdin
  }) as typeof stdin.on
  Object.assign(process, {
    argv: hooks.argv,
    argv0: 'node',
    execArgv: [],
    execPath: '/usr/local/bin/node',
    env: { ...hooks.env },
    exitCode: undefined,
    exit(code?: number) {
      throw new ProcessExit(Number(code ?? process.exitCode ?? 0) || 0)
    },
    abort() {
      throw new ProcessExit(134)
    },
    cwd: () => hooks.cwd(),
    chdir: (dir: string) => hooks.chdir(dir),
    platform: 'linux',
    arch: 'x64',
    pid: 42,
    ppid: 1,
    title: 'node',
    version: NODE_VERSION,
    versions: { node: NODE_VERSION.slice(1), v8: 'browser', fxterm: '1' },
    release: { name: 'node' },
    config: {},
    features: {},
    nextTick: (callback: (...args: unknown[]) => void, ...args: unknown[]) => queueMicrotask(() => callback(...args)),
    hrtime: Object.assign(
      (previous?: [number, number]) => {
        const now = performance.now() * 1e6
        const seconds = Math.floor(now / 1e9)
        const nanos = Math.floor(now % 1e9)
        if (!previous) return [seconds, nanos]
        let diffNanos = nanos - previous[1]
        let diffSeconds = seconds - previous[0]
        if (diffNanos < 0) (diffSeconds -= 1), (diffNanos += 1e9)
        return [diffSeconds, diffNanos]
      },
      { bigint: () => BigInt(Math.floor(performance.now() * 1e6)) },
    ),
    uptime: () => (performance.now() - started) / 1000,
    memoryUsage: Object.assign(() => ({ rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }), { rss: () => 0 }),
    cpuUsage: () => ({ user: 0, system: 0 }),
    emitWarning(warning: unknown) {
      hooks.write(2, Buffer.from(`(node:42) Warning: ${warning instanceof Error ? warning.message : String(warning)}\n`))
    },
    umask: () => 0o22,
    getuid: () => 1000,
    getgid: () => 1000,
    stdout: stream(1, hooks),
    stderr: stream(2, hooks),
    stdin,
  })
  return process
}
