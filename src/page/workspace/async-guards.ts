/** Small promise helpers that keep the workspace's calls from hanging. */

/** What `untilAborted` resolves with when the signal wins. */
export const ABORTED = Symbol('aborted')

/** `promise`'s value, or ABORTED as soon as `signal` aborts. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED)
  let onAbort = () => {}
  const aborted = new Promise<typeof ABORTED>((resolve) => {
    onAbort = () => resolve(ABORTED)
    signal.addEventListener('abort', onAbort, { once: true })
  })
  return Promise.race([promise, aborted]).finally(() => signal.removeEventListener('abort', onAbort))
}

/**
 * `promise`'s value, or `fallback` once `ms` have passed or `signal` aborts, whichever comes
 * first. A rejection also gives `fallback`: callers use this where an answer of "nothing" is
 * better than an error (reading AGENTS.md at startup, say).
 */
export async function withDeadline<T>(
  promise: Promise<T>,
  ms: number,
  fallback: T,
  signal?: AbortSignal,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms)
  })
  const guarded = signal ? untilAborted(promise, signal) : promise
  try {
    const value = await Promise.race([guarded.catch(() => fallback), expired])
    return value === ABORTED ? fallback : (value as T)
  } finally {
    clearTimeout(timer)
  }
}

/** Runs tasks one at a time, in call order; one task's failure does not stop the next. */
export function createSerialQueue(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve()
  return (task) => {
    const run = tail.then(task)
    tail = run.catch(() => undefined)
    return run
  }
}
