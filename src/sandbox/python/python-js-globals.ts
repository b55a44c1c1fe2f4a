/**
 * Sandbox worker: what one Python interpreter sees as its `js` module — the worker's globals,
 * except that the timers it starts are its own, so dropping the interpreter clears them. Without
 * this, `js.setInterval(callback, 1)` from one run would go on calling into that run's dropped
 * interpreter for as long as the sandbox lives, holding its memory and taking the worker's time
 * from every later run.
 *
 * The worker's own functions are handed out bound to the worker's global, since Pyodide calls a
 * function with the object it was read from as `this` and the browser's refuse any other.
 */

type TimerFunction = (handler: unknown, timeout?: number, ...args: unknown[]) => number

export type InterpreterGlobals = {
  /** The `js` module's object. */
  globals: object
  /** Stops every timer this interpreter started; later ones never start. */
  clearAll(): void
}

export function createInterpreterGlobals(global: typeof globalThis = globalThis): InterpreterGlobals {
  const timeouts = new Set<number>()
  const intervals = new Set<number>()
  let cleared = false
  const setTimeoutOwn: TimerFunction = (handler, timeout, ...args) => {
    if (cleared) return 0
    const id: number = global.setTimeout(
      (...given: unknown[]) => {
        timeouts.delete(id)
        if (typeof handler === 'function') handler(...given)
      },
      timeout,
      ...args,
    ) as unknown as number
    timeouts.add(id)
    return id
  }
  const setIntervalOwn: TimerFunction = (handler, timeout, ...args) => {
    if (cleared) return 0
    const id = global.setInterval(handler as () => void, timeout, ...args) as unknown as number
    intervals.add(id)
    return id
  }
  const own: Record<string | symbol, unknown> = {
    setTimeout: setTimeoutOwn,
    setInterval: setIntervalOwn,
    clearTimeout: (id: number) => (timeouts.delete(id), global.clearTimeout(id)),
    clearInterval: (id: number) => (intervals.delete(id), global.clearInterval(id)),
  }
  const globals: object = new Proxy(global, {
    get(target, key) {
      if (Object.hasOwn(own, key)) return own[key]
      const value: unknown = Reflect.get(target, key)
      // Its own global, as the worker's reads it: `js.globalThis.setInterval` is this one's too.
      if (value === target) return globals
      // A constructor keeps its statics (`js.Object.keys`); a plain function gets its `this`.
      return typeof value === 'function' && !('prototype' in value) ? (value as (...args: unknown[]) => unknown).bind(target) : value
    },
  })
  return {
    globals,
    clearAll() {
      cleared = true
      for (const id of timeouts) global.clearTimeout(id)
      for (const id of intervals) global.clearInterval(id)
      timeouts.clear()
      intervals.clear()
    },
  }
}
