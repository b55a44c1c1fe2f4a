/**
 * Sandbox worker: the `console` one run's code sees, formatting like Node's (util.format:
 * `console.log({ a: 1 })` prints `{ a: 1 }`), log/info/debug to stdout and error/warn/trace to
 * stderr.
 */

import util from 'util'

/**
 * Node's util.format. The port's quotes strings after a first argument that is not a string
 * (`console.log(1, 'a')` → `1 'a'`); Node prints them as they are (`1 a`).
 */
export function formatLikeNode(...args: unknown[]): string {
  if (typeof args[0] === 'string') return util.format(...args)
  return args.map((arg) => (typeof arg === 'string' ? arg : util.inspect(arg))).join(' ')
}

export function createConsole(write: (fd: 1 | 2, text: string) => void) {
  let indent = ''
  const counts = new Map<string, number>()
  const timers = new Map<string, number>()
  const line = (fd: 1 | 2) => (...args: unknown[]) => {
    const text = formatLikeNode(...args)
    write(fd, `${indent ? text.replace(/^/gm, indent) : text}\n`)
  }
  const out = line(1)
  const err = line(2)
  return {
    log: out,
    info: out,
    debug: out,
    error: err,
    warn: err,
    trace: (...args: unknown[]) => err(`Trace: ${formatLikeNode(...args)}\n${(new Error().stack ?? '').split('\n').slice(2).join('\n')}`),
    dir: (value: unknown, options?: object) => out(util.inspect(value, { ...options, colors: false })),
    dirxml: out,
    table: (data: unknown) => out(util.inspect(data)),
    assert: (condition: unknown, ...args: unknown[]) => {
      if (!condition) err(`Assertion failed${args.length ? `: ${formatLikeNode(...args)}` : ''}`)
    },
    count: (label = 'default') => {
      const count = (counts.get(label) ?? 0) + 1
      counts.set(label, count)
      out(`${label}: ${count}`)
    },
    countReset: (label = 'default') => counts.delete(label),
    group: (...args: unknown[]) => {
      if (args.length) out(...args)
      indent += '  '
    },
    groupCollapsed: (...args: unknown[]) => {
      if (args.length) out(...args)
      indent += '  '
    },
    groupEnd: () => {
      indent = indent.slice(2)
    },
    time: (label = 'default') => timers.set(label, performance.now()),
    timeLog: (label = 'default', ...args: unknown[]) => out(`${label}: ${(performance.now() - (timers.get(label) ?? 0)).toFixed(3)}ms`, ...args),
    timeEnd: (label = 'default') => {
      out(`${label}: ${(performance.now() - (timers.get(label) ?? 0)).toFixed(3)}ms`)
      timers.delete(label)
    },
  }
}
