/**
 * The agent worker's hook calls, joined into few messages. A call that changes what the page
 * must do next (a turn's start or end, a commit, a tool call, an error) goes out at the end of
 * the current microtask run, with everything queued before it; so does reply text after a quiet
 * period (the first text of a reply is not delayed). Text during a burst waits until MAX_HOLD_MS
 * after the last message, so the network reads of that time travel in one: one message per read
 * cost the reading thread 0.05–0.2 ms each, 8–30 times per 200 KB turn, and over 200 times when
 * a busy machine hands the body over in small pieces (10–15 ms a turn). The check runs at the
 * end of each microtask run too, since a body whose bytes are all there is read in one long
 * chain of microtasks, which no timer interrupts.
 */

/** Reply text goes to the page at most this often (the terminal draws once per 16 ms frame). */
export const MAX_HOLD_MS = 8

export type HookBatcher<T> = {
  /** Queues a call; `urgent`: the page must see it now (anything but reply text). */
  push(call: T, urgent: boolean): void
  /** Keeps every call until `take()` (they travel with a `restore` answer instead). */
  hold(): void
  /** The calls kept, oldest first; posting resumes. */
  take(): T[]
  /** Drops what is queued and stops the timer. */
  close(): void
}

export function createHookBatcher<T>(post: (calls: T[]) => void, now: () => number = () => performance.now()): HookBatcher<T> {
  let pending: T[] = []
  let lastPost = -Infinity
  let urgent = false
  let checking = false
  let holding = false
  let timer: ReturnType<typeof setTimeout> | null = null

  const flush = () => {
    if (timer !== null) clearTimeout(timer)
    timer = null
    urgent = false
    if (holding || pending.length === 0) return
    const calls = pending
    pending = []
    lastPost = now()
    post(calls)
  }

  const check = () => {
    checking = false
    if (pending.length === 0) return
    const wait = lastPost + MAX_HOLD_MS - now()
    if (urgent || wait <= 0) flush()
    else timer ??= setTimeout(flush, wait)
  }

  return {
    push(call, isUrgent) {
      pending.push(call)
      if (isUrgent) urgent = true
      if (checking) return
      checking = true
      queueMicrotask(check)
    },
    hold() {
      holding = true
    },
    take() {
      holding = false
      urgent = false
      const calls = pending
      pending = []
      return calls
    },
    close() {
      if (timer !== null) clearTimeout(timer)
      timer = null
      pending = []
    },
  }
}
