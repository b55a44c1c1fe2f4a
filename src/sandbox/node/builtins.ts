/**
 * Sandbox worker: Node's built-in modules as one run's code gets them from `require` and
 * `import` (with or without `node:`). Most come from well-kept ports (path-browserify, util,
 * assert, events, buffer); `fs`, `process`, `timers` and `node:test` are this run's own. A
 * module fxterm's node does not have fails with one line saying so.
 */

import { Buffer } from 'buffer'
import assert from 'assert'
import events from 'events'
import util from 'util'
import path from 'path-browserify'
import { formatLikeNode } from './node-console'
import { createReadline } from './node-readline'

export class UnsupportedModule extends Error {
  readonly code = 'ERR_FXTERM_UNSUPPORTED'
}

const NETWORK = new Set(['http', 'https', 'http2', 'net', 'tls', 'dgram', 'dns', 'dns/promises', 'inspector'])
const PROCESSES = new Set(['child_process', 'worker_threads', 'cluster'])

export function unsupported(name: string): UnsupportedModule {
  const why = NETWORK.has(name)
    ? 'code here cannot reach the network'
    : PROCESSES.has(name)
      ? 'code here cannot start processes or threads'
      : 'it is not one of the modules it offers (fs, path, assert, node:test, util, events, url, timers, process, buffer, crypto, os, readline)'
  return new UnsupportedModule(`fxterm's node has no '${name}' module: ${why}`)
}

export type RunModules = {
  fs: Record<string, unknown>
  process: Record<string, unknown>
  timers: Record<string, (...args: never[]) => unknown>
  test: unknown
  /** `module.createRequire`. */
  createRequire(filename: string | URL): (specifier: string) => unknown
  home: string
}

function isDeepStrictEqual(a: unknown, b: unknown): boolean {
  try {
    assert.deepStrictEqual(a, b)
    return true
  } catch {
    return false
  }
}

const fileURLToPath = (url: string | URL) => {
  const parsed = typeof url === 'string' ? new URL(url) : url
  if (parsed.protocol !== 'file:') throw new TypeError('The URL must be of scheme file')
  return decodeURIComponent(parsed.pathname)
}
const pathToFileURL = (file: string) => new URL(`file://${encodeURI(path.resolve(file))}`)

/** The table of one run's built-in modules, by name without `node:`. */
export function createBuiltins(run: RunModules): Map<string, () => unknown> {
  const timers = run.timers as unknown as {
    setTimeout(callback: () => void, ms?: number): unknown
    setImmediate(callback: () => void): unknown
  }
  const timersPromises = {
    setTimeout: (ms?: number, value?: unknown) => new Promise((resolve) => timers.setTimeout(() => resolve(value), ms)),
    setImmediate: (value?: unknown) => new Promise((resolve) => timers.setImmediate(() => resolve(value))),
    scheduler: { wait: (ms: number) => new Promise((resolve) => timers.setTimeout(() => resolve(undefined), ms)), yield: () => new Promise((resolve) => timers.setImmediate(() => resolve(undefined))) },
  }
  const randomBytes = (size: number) => Buffer.from(crypto.getRandomValues(new Uint8Array(size)))
  const table: Record<string, () => unknown> = {
    fs: () => run.fs,
    'fs/promises': () => run.fs.promises,
    path: () => path,
    'path/posix': () => path,
    assert: () => assert,
    'assert/strict': () => assert.strict,
    events: () => events,
    util: () => ({ ...util, format: formatLikeNode, isDeepStrictEqual, types: { ...util.types } }),
    'util/types': () => util.types,
    url: () => ({ URL, URLSearchParams, fileURLToPath, pathToFileURL }),
    timers: () => run.timers,
    'timers/promises': () => timersPromises,
    process: () => run.process,
    buffer: () => ({ Buffer, Blob, atob, btoa, constants: { MAX_LENGTH: 2 ** 32 }, kMaxLength: 2 ** 32 }),
    crypto: () => ({
      randomUUID: () => crypto.randomUUID(),
      getRandomValues: <T extends ArrayBufferView>(array: T) => crypto.getRandomValues(array as never) as T,
      webcrypto: crypto,
      subtle: crypto.subtle,
      randomBytes,
      randomInt: (min: number, max?: number) => (max === undefined ? Math.floor(Math.random() * min) : min + Math.floor(Math.random() * (max - min))),
    }),
    os: () => ({
      EOL: '\n',
      platform: () => 'linux',
      type: () => 'Linux',
      arch: () => 'x64',
      release: () => 'fxterm',
      hostname: () => 'fxterm',
      tmpdir: () => '/tmp',
      homedir: () => run.home,
      endianness: () => 'LE',
      cpus: () => Array.from({ length: navigator.hardwareConcurrency || 1 }, () => ({ model: 'browser', speed: 0, times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 } })),
      availableParallelism: () => navigator.hardwareConcurrency || 1,
      totalmem: () => 0,
      freemem: () => 0,
      uptime: () => performance.now() / 1000,
      loadavg: () => [0, 0, 0],
      userInfo: () => ({ username: 'user', uid: 1000, gid: 1000, shell: '/bin/bash', homedir: run.home }),
      networkInterfaces: () => ({}),
    }),
    string_decoder: () => ({
      StringDecoder: class {
        private readonly decoder = new TextDecoder()
        write = (bytes: Uint8Array) => this.decoder.decode(bytes, { stream: true })
        end = (bytes?: Uint8Array) => this.decoder.decode(bytes)
      },
    }),
    readline: () => createReadline(run.process),
    'readline/promises': () => createReadline(run.process).promises,
    tty: () => ({ isatty: () => false }),
    perf_hooks: () => ({ performance }),
    test: () => run.test,
    module: () => ({ createRequire: run.createRequire, builtinModules: Object.keys(table), isBuiltin: (name: string) => name.replace(/^node:/, '') in table }),
  }
  return new Map(Object.entries(table))
}
