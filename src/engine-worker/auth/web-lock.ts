/**
 * A named lock across this origin's tabs and workers (Web Locks), so two tabs never refresh one
 * rotating refresh token at once. Where Web Locks are missing, a lock within this context only.
 */

/** Runs `fn` holding the lock `name`; the lock is released when `fn` settles. */
export type WithLock = <T>(name: string, fn: () => Promise<T>) => Promise<T>

type LockManagerLike = { request<T>(name: string, callback: () => Promise<T>): Promise<T> }

/** The Web Locks lock manager of this context, or a local queue per name. */
export function createWithLock(locks: LockManagerLike | undefined = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks): WithLock {
  if (locks) return (name, fn) => locks.request(name, fn)
  const tails = new Map<string, Promise<unknown>>()
  return async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const before = tails.get(name) ?? Promise.resolve()
    const run = before.then(fn, fn)
    tails.set(name, run.catch(() => undefined))
    return run
  }
}
