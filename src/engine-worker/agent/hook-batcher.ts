/**
 * The agent worker's hook calls, joined into one message per microtask run: what one network
 * read or one engine feed caused (text, usage, the turn's end, its commit) travels together.
 * Nothing here waits on a timer: during a burst the engine runner already passes a reply's text
 * on at most every 8 ms (engine-runner.ts), so a busy reply is a few messages, not one per read.
 */

export type HookBatcher<T> = {
  /** Queues a call; the batch goes out at the end of the current microtask run. */
  push(call: T): void
  /** Keeps every call until `take()` (they travel with a `restore` answer instead). */
  hold(): void
  /** The calls kept, oldest first; posting resumes. */
  take(): T[]
  /** Drops what is queued. */
  close(): void
}

export function createHookBatcher<T>(post: (calls: T[]) => void): HookBatcher<T> {
  let pending: T[] = []
  let scheduled = false
  let holding = false

  const flush = () => {
    scheduled = false
    if (holding || pending.length === 0) return
    const calls = pending
    pending = []
    post(calls)
  }

  return {
    push(call) {
      pending.push(call)
      if (scheduled) return
      scheduled = true
      queueMicrotask(flush)
    },
    hold() {
      holding = true
    },
    take() {
      holding = false
      const calls = pending
      pending = []
      return calls
    },
    close() {
      pending = []
    },
  }
}
