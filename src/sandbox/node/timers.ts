/**
 * Sandbox worker: one run's timers. Node ends a process when nothing is left to wait for, so
 * every timer, interval and immediate is counted while it is pending (unless `unref`'d), and
 * `idle()` resolves when none is. Callbacks run through `guard`, which turns a throw into the
 * run's uncaught exception. Handles look like Node's Timeout objects, and also convert to the
 * number the browser's clearTimeout expects.
 */

// The worker's own timers, captured before any run can replace the globals.
const nativeSetTimeout = globalThis.setTimeout.bind(globalThis)
const nativeClearTimeout = globalThis.clearTimeout.bind(globalThis)
const nativeSetInterval = globalThis.setInterval.bind(globalThis)
const nativeClearInterval = globalThis.clearInterval.bind(globalThis)

export { nativeSetTimeout }

/** One macrotask turn: a MessageChannel message, which (unlike setTimeout) browsers never clamp. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => {
      channel.port1.close()
      resolve()
    }
    channel.port2.postMessage(null)
  })
}

type Guard = (callback: () => void) => void

export class Timeout {
  refed = true
  constructor(
    readonly id: number,
    private readonly timers: RunTimers,
  ) {}
  ref(): this {
    this.timers.setRef(this, true)
    return this
  }
  unref(): this {
    this.timers.setRef(this, false)
    return this
  }
  hasRef(): boolean {
    return this.refed
  }
  refresh(): this {
    return this
  }
  close(): this {
    this.timers.clear(this)
    return this
  }
  [Symbol.toPrimitive](): number {
    return this.id
  }
}

export class RunTimers {
  private readonly pending = new Map<number, { timeout: Timeout; native: ReturnType<typeof setTimeout>; interval: boolean }>()
  private nextId = 1
  private waiters: Array<() => void> = []
  private stopped = false

  constructor(private readonly guard: Guard) {}

  private refedCount(): number {
    let count = 0
    for (const { timeout } of this.pending.values()) if (timeout.refed) count++
    return count
  }

  private changed(): void {
    if (this.refedCount() > 0) return
    const waiters = this.waiters
    this.waiters = []
    for (const resolve of waiters) resolve()
  }

  setRef(timeout: Timeout, refed: boolean): void {
    timeout.refed = refed
    this.changed()
  }

  private start(callback: unknown, ms: unknown, args: unknown[], interval: boolean): Timeout {
    if (typeof callback !== 'function') throw new TypeError('The "callback" argument must be of type function')
    const timeout = new Timeout(this.nextId++, this)
    const delay = Math.max(0, Number(ms) || 0)
    const fire = () => {
      if (this.stopped) return
      if (!interval) this.pending.delete(timeout.id)
      this.guard(() => (callback as (...a: unknown[]) => void)(...args))
      if (!interval) this.changed()
    }
    const native = interval ? nativeSetInterval(fire, delay) : nativeSetTimeout(fire, delay)
    this.pending.set(timeout.id, { timeout, native, interval })
    return timeout
  }

  clear(handle: unknown): void {
    const id = handle instanceof Timeout ? handle.id : Number(handle)
    const entry = this.pending.get(id)
    if (!entry) return
    this.pending.delete(id)
    if (entry.interval) nativeClearInterval(entry.native)
    else nativeClearTimeout(entry.native)
    this.changed()
  }

  /** The functions a run's code sees as globals and in `timers`. */
  globals() {
    return {
      setTimeout: (callback: unknown, ms?: unknown, ...args: unknown[]) => this.start(callback, ms, args, false),
      setInterval: (callback: unknown, ms?: unknown, ...args: unknown[]) => this.start(callback, ms, args, true),
      setImmediate: (callback: unknown, ...args: unknown[]) => this.start(callback, 0, args, false),
      clearTimeout: (handle: unknown) => this.clear(handle),
      clearInterval: (handle: unknown) => this.clear(handle),
      clearImmediate: (handle: unknown) => this.clear(handle),
    }
  }

  isIdle(): boolean {
    return this.refedCount() === 0
  }

  /** Resolves once no referenced timer is pending. */
  idle(): Promise<void> {
    if (this.refedCount() === 0) return Promise.resolve()
    return new Promise((resolve) => this.waiters.push(resolve))
  }

  /** Cancels everything: the run is over. */
  stop(): void {
    this.stopped = true
    for (const id of [...this.pending.keys()]) this.clear(id)
  }
}
