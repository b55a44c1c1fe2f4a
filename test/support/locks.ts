/**
 * A Web Locks manager in memory for tests: exclusive locks by name, `ifAvailable`, and waits
 * that an AbortSignal ends. Two "tabs" share one manager, as tabs of an origin share the
 * browser's.
 */

type Callback = (lock: Lock | null) => unknown

/** A lock manager for tests, and the names it holds. */
export type FakeLocks = Pick<LockManager, 'request'> & {
  /** The names held right now. */
  held(): string[]
}

/** A fresh lock manager: share one between the bridges of two "tabs". */
export function fakeLocks(): FakeLocks {
  const held = new Set<string>()
  const waiting = new Map<string, Array<() => void>>()

  const grant = (name: string, callback: Callback): Promise<unknown> => {
    held.add(name)
    return Promise.resolve()
      .then(() => callback({ name, mode: 'exclusive' } as Lock))
      .finally(() => {
        held.delete(name)
        waiting.get(name)?.shift()?.()
      })
  }

  const request = (name: string, options: LockOptions, callback: Callback): Promise<unknown> => {
    if (!held.has(name)) return grant(name, callback)
    if (options.ifAvailable) return Promise.resolve().then(() => callback(null))
    return new Promise((resolve, reject) => {
      const queue = waiting.get(name) ?? []
      waiting.set(name, queue)
      const wake = () => {
        options.signal?.removeEventListener('abort', abort)
        grant(name, callback).then(resolve, reject)
      }
      const abort = () => {
        queue.splice(queue.indexOf(wake), 1)
        reject(options.signal!.reason)
      }
      queue.push(wake)
      options.signal?.addEventListener('abort', abort, { once: true })
    })
  }

  return {
    request: request as unknown as LockManager['request'],
    held: () => [...held].sort(),
  }
}
