/**
 * Sandbox worker: `node:test` — test/it, describe/suite, before/after/beforeEach/afterEach,
 * skip and todo, subtests with `t.test`, callback tests — and a report like Node 20's spec
 * reporter (✔/✖ per test, the error indented, ℹ totals, the failing tests again at the end).
 * Tests register while a file loads and run after it; `node --test` runs file after file and
 * prints one summary.
 */

import util from 'util'
import { ProcessExit } from './node-process'

type Fn = (...args: unknown[]) => unknown
type Options = { skip?: boolean | string; todo?: boolean | string; only?: boolean; timeout?: number }
type Hooks = { before: Fn[]; after: Fn[]; beforeEach: Fn[]; afterEach: Fn[] }
type Entry = { kind: 'test' | 'suite'; name: string; fn: Fn | undefined; options: Options; children: Entry[]; hooks: Hooks }

const newSuite = (name: string, fn?: Fn, options: Options = {}): Entry => ({
  kind: 'suite',
  name,
  fn,
  options,
  children: [],
  hooks: { before: [], after: [], beforeEach: [], afterEach: [] },
})

/** test(name?, options?, fn?) in any of Node's argument orders. */
function args(raw: unknown[]): { name: string; options: Options; fn: Fn | undefined } {
  let name = '<anonymous>'
  let options: Options = {}
  let fn: Fn | undefined
  for (const arg of raw) {
    if (typeof arg === 'string') name = arg
    else if (typeof arg === 'function') {
      fn = arg as Fn
      if (name === '<anonymous>' && fn.name) name = fn.name
    } else if (typeof arg === 'object' && arg !== null) options = arg as Options
  }
  return { name, options, fn }
}

export type TestTotals = { tests: number; suites: number; pass: number; fail: number; skipped: number; todo: number }

export function createTestRunner(write: (text: string) => void) {
  const totals: TestTotals = { tests: 0, suites: 0, pass: 0, fail: 0, skipped: 0, todo: 0 }
  const failures: string[] = []
  const started = performance.now()
  let root = newSuite('<root>')
  let current = root

  const register = (kind: 'test' | 'suite', raw: unknown[], extra: Options = {}) => {
    const { name, options, fn } = args(raw)
    const entry = kind === 'suite' ? newSuite(name, fn, { ...options, ...extra }) : { ...newSuite(name, fn, { ...options, ...extra }), kind }
    current.children.push(entry)
    if (kind === 'suite' && fn) {
      const outer = current
      current = entry
      try {
        fn()
      } finally {
        current = outer
      }
    }
    return Promise.resolve()
  }
  const hook = (which: keyof Hooks) => (fn: Fn) => void current.hooks[which].push(fn)
  const withVariants = (kind: 'test' | 'suite') =>
    Object.assign((...raw: unknown[]) => register(kind, raw), {
      skip: (...raw: unknown[]) => register(kind, raw, { skip: true }),
      todo: (...raw: unknown[]) => register(kind, raw, { todo: true }),
      only: (...raw: unknown[]) => register(kind, raw),
    })
  const test = withVariants('test')
  const describe = withVariants('suite')
  const module = Object.assign(test, {
    test,
    it: test,
    describe,
    suite: describe,
    before: hook('before'),
    after: hook('after'),
    beforeEach: hook('beforeEach'),
    afterEach: hook('afterEach'),
    mock: { fn: (impl: Fn = () => undefined) => mockFn(impl) },
  })

  const line = (depth: number, text: string) => write(`${'  '.repeat(depth)}${text}\n`)
  const took = (from: number) => `(${(performance.now() - from).toFixed(6).replace(/\.?0+$/, '')}ms)`
  const describeError = (error: unknown, depth: number) =>
    (error instanceof Error ? (error.stack ?? String(error)) : util.inspect(error)).replace(/^/gm, '  '.repeat(depth + 1))

  async function call(fn: Fn, context: unknown): Promise<void> {
    if (fn.length >= 2) {
      await new Promise<void>((resolve, reject) => {
        const done = (error?: unknown) => (error ? reject(error) : resolve())
        Promise.resolve(fn(context, done)).catch(reject)
      })
    } else await fn(context)
  }

  async function runTest(entry: Entry, depth: number, each: Hooks[]): Promise<boolean> {
    totals.tests++
    const from = performance.now()
    const skip = entry.options.skip
    if (skip || !entry.fn) {
      totals.skipped++
      line(depth, `﹣ ${entry.name} ${took(from)} # SKIP${typeof skip === 'string' ? ` ${skip}` : ''}`)
      return true
    }
    let skipped: string | boolean = false
    let headerShown = false
    const subtests: Array<Promise<unknown>> = []
    const context = {
      name: entry.name,
      signal: new AbortController().signal,
      skip: (message?: string) => void (skipped = message ?? true),
      todo: (message?: string) => void (entry.options.todo = message ?? true),
      diagnostic: (message: string) => line(depth + 1, `ℹ ${message}`),
      plan: () => undefined,
      mock: module.mock,
      assert: undefined,
      test: (...raw: unknown[]) => {
        if (!headerShown) line(depth, `▶ ${entry.name}`)
        headerShown = true
        const { name, options, fn } = args(raw)
        const run = runTest({ ...newSuite(name, fn, options), kind: 'test' }, depth + 1, [])
        subtests.push(run)
        return run
      },
    }
    let error: unknown = null
    try {
      for (const hooks of each) for (const fn of hooks.beforeEach) await call(fn, context)
      await call(entry.fn, context)
      await Promise.all(subtests)
      for (const hooks of [...each].reverse()) for (const fn of hooks.afterEach) await call(fn, context)
    } catch (thrown) {
      if (thrown instanceof ProcessExit) throw thrown
      error = thrown
    }
    const subtestFailed = (await Promise.all(subtests)).some((passed) => passed === false)
    if (skipped) {
      totals.skipped++
      line(depth, `﹣ ${entry.name} ${took(from)} # SKIP${typeof skipped === 'string' ? ` ${skipped}` : ''}`)
      return true
    }
    const todo = entry.options.todo
    const failed = error !== null || subtestFailed
    const mark = headerShown ? '▶' : failed ? '✖' : '✔'
    const suffix = todo ? ` # TODO${typeof todo === 'string' ? ` ${todo}` : ''}` : ''
    line(depth, `${mark} ${entry.name} ${took(from)}${suffix}`)
    if (error !== null) line(0, describeError(error, depth))
    if (todo) totals.todo++
    else if (failed) {
      totals.fail++
      failures.push(`✖ ${entry.name}\n${error !== null ? describeError(error, 0) : '  a subtest failed'}`)
    } else totals.pass++
    return todo ? true : !failed
  }

  async function runSuite(suite: Entry, depth: number, each: Hooks[], isRoot = false): Promise<void> {
    const from = performance.now()
    if (!isRoot) {
      totals.suites++
      if (suite.options.skip) {
        line(depth, `﹣ ${suite.name} ${took(from)} # SKIP`)
        totals.skipped += suite.children.length
        return
      }
      line(depth, `▶ ${suite.name}`)
    }
    const inner = isRoot ? depth : depth + 1
    const chain = [...each, suite.hooks]
    let beforeFailed: unknown = null
    try {
      for (const fn of suite.hooks.before) await call(fn, {})
    } catch (error) {
      if (error instanceof ProcessExit) throw error
      beforeFailed = error
    }
    for (const child of suite.children) {
      if (beforeFailed !== null) {
        totals.tests++
        totals.fail++
        line(inner, `✖ ${child.name} (0ms)`)
        failures.push(`✖ ${child.name}\n${describeError(beforeFailed, 0)}`)
      } else if (child.kind === 'suite') await runSuite(child, inner, chain)
      else await runTest(child, inner, chain)
    }
    for (const fn of suite.hooks.after) await call(fn, {}).catch((error: unknown) => {
      if (error instanceof ProcessExit) throw error
      totals.fail++
      failures.push(`✖ after hook of ${suite.name}\n${describeError(error, 0)}`)
    })
    if (!isRoot) line(depth, `▶ ${suite.name} ${took(from)}`)
  }

  return {
    module,
    /** Whether the loaded file registered any test. */
    hasTests: () => root.children.length > 0,
    /** Runs what the last file registered, then starts a fresh file. */
    async runFile(): Promise<void> {
      const file = root
      root = current = newSuite('<root>')
      await runSuite(file, 0, [], true)
    },
    /** The totals and the failing tests again; answers whether any failed. */
    summary(): boolean {
      const rows = [
        `ℹ tests ${totals.tests}`,
        `ℹ suites ${totals.suites}`,
        `ℹ pass ${totals.pass}`,
        `ℹ fail ${totals.fail}`,
        `ℹ cancelled 0`,
        `ℹ skipped ${totals.skipped}`,
        `ℹ todo ${totals.todo}`,
        `ℹ duration_ms ${(performance.now() - started).toFixed(3)}`,
      ]
      write(`${rows.join('\n')}\n`)
      if (failures.length) write(`\n✖ failing tests:\n\n${failures.join('\n\n')}\n`)
      return totals.fail > 0
    },
  }
}

function mockFn(impl: Fn) {
  const calls: Array<{ arguments: unknown[]; result: unknown }> = []
  const fn = (...callArgs: unknown[]) => {
    const result = impl(...callArgs)
    calls.push({ arguments: callArgs, result })
    return result
  }
  return Object.assign(fn, { mock: { calls, callCount: () => calls.length, resetCalls: () => void (calls.length = 0) } })
}
