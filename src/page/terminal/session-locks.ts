/**
 * The Web Lock a tab holds on the session it writes (`fxterm-session:<namespace>:<id>`), so a
 * second tab that opens the same session knows to open it read-only. A tab holds at most one:
 * claiming another session's lock lets go of the previous one. Without `navigator.locks`
 * (old browsers, some sandboxed frames) every claim succeeds and revisions alone keep writes
 * apart.
 */

/** Options of one claim. */
export type ClaimOptions = {
  /**
   * How long to wait for a lock that is held. Zero (the default) answers at once. A reload needs
   * a little: the page being replaced may still hold its lock while the new one starts.
   */
  waitMs?: number
}

export type SessionLocks = {
  /** Takes and keeps the lock of `id` (true), or answers false when another tab holds it. */
  claim(id: string, options?: ClaimOptions): Promise<boolean>
  /** Lets go of the lock this tab holds, if any. */
  release(): void
  /** The session whose lock this tab holds, or null. */
  readonly heldId: string | null
}

type LockManagerLike = Pick<LockManager, 'request'>

/** A lock's release, 'held' when another tab has it, or 'broken' when the manager refuses. */
export type LockAnswer = (() => void) | 'held' | 'broken'

/**
 * A claim made before the terminal exists, by a page's first script, of the session it expects to
 * resume (the one it wrote last): the browser's lock manager took 7-47 ms to answer a claim made
 * when the resume needed it, on a page busy starting. It may wait longer than the resume's claim
 * would (a page being reloaded lets go of its lock late); see `createSessionLocks`.
 */
export type EarlyLock = { id: string; answer: Promise<LockAnswer> }

/** Options of `createSessionLocks`. */
export type SessionLocksOptions = {
  /** Taken over by the first claim of its id; let go at the first claim of another, or after 10 s unclaimed. */
  early?: EarlyLock
  /** Told the id of each lock this tab comes to hold (the page remembers it for its next early claim). */
  onHeld?(id: string): void
}

/** How long an early claim is kept for a claim of its id to take it over. */
const EARLY_KEPT_MS = 10_000

/** Asks `locks` for session `id`'s lock, waiting up to `waitMs` for it (zero: only if free now). */
export function requestSessionLock(locks: LockManagerLike, namespace: string, id: string, waitMs: number): Promise<LockAnswer> {
  return new Promise((resolve) => {
    const name = `fxterm-session:${namespace}:${id}`
    const options: LockOptions = waitMs > 0 ? { signal: AbortSignal.timeout(waitMs) } : { ifAvailable: true }
    try {
      // The callback's promise is the lock's lifetime: it settles only when this tab lets go.
      const request = locks.request(name, options, (lock) => {
        if (!lock) return resolve('held')
        return new Promise<void>((letGo) => resolve(letGo))
      })
      request.catch((error: unknown) => resolve(isAbort(error) ? 'held' : 'broken'))
    } catch {
      resolve('broken')
    }
  })
}

/** The locks of `namespace` on `locks` (default `navigator.locks`; null: no locking at all). */
export function createSessionLocks(namespace: string, locks: LockManagerLike | null | undefined = defaultLocks(), options: SessionLocksOptions = {}): SessionLocks {
  let held: { id: string; release: () => void } | null = null
  // Claims run one after another, so two quick claims cannot both end up "held".
  let queue: Promise<unknown> = Promise.resolve()
  let early = options.early ?? null

  /** The early claim when it is for `id`; an early claim of another id is let go. */
  const takeEarly = (id: string): EarlyLock | null => {
    const taken = early
    early = null
    if (taken?.id === id) return taken
    if (taken) void taken.answer.then(letGoOf)
    return null
  }

  /**
   * The lock of `id`, as a claim waiting `waitMs` would answer, taking over an early claim of it.
   * That one started sooner and may wait longer, but this claim waits no longer than it would
   * have: then the session is another tab's (and a lock that comes later is let go). An early
   * claim that gave up before this one began is asked again, as this one would.
   */
  const acquire = async (id: string, waitMs: number): Promise<LockAnswer> => {
    const taken = takeEarly(id)
    if (!taken) return requestSessionLock(locks!, namespace, id, waitMs)
    let gaveUp = false
    const answer = await new Promise<LockAnswer | 'ask again'>((resolve) => {
      const timer = waitMs > 0 ? setTimeout(() => ((gaveUp = true), resolve('held')), waitMs) : undefined
      void taken.answer.then((early) => {
        clearTimeout(timer)
        if (gaveUp) letGoOf(early)
        else resolve(early === 'held' ? 'ask again' : early)
      })
    })
    return answer === 'ask again' ? requestSessionLock(locks!, namespace, id, waitMs) : answer
  }
  if (early) setTimeout(() => void takeEarly(''), EARLY_KEPT_MS)

  const release = () => {
    takeEarly('')
    held?.release()
    held = null
  }

  return {
    claim(id, claimOptions = {}) {
      if (!locks) return Promise.resolve(true)
      const claimed = queue.then(async () => {
        if (held?.id === id) return true
        const letGo = await acquire(id, claimOptions.waitMs ?? 0)
        if (letGo === 'held') return false
        held?.release()
        held = null
        // A lock manager that fails (an opaque origin, say) is as good as none: writable.
        if (letGo === 'broken') return true
        held = { id, release: letGo }
        options.onHeld?.(id)
        return true
      })
      queue = claimed.catch(() => {})
      return claimed
    },
    release,
    get heldId() {
      return held?.id ?? null
    },
  }
}

/** Lets go of a lock that was granted; other answers hold nothing. */
function letGoOf(answer: LockAnswer): void {
  if (typeof answer === 'function') answer()
}

/** A wait that ran out (`AbortSignal.timeout`) or was aborted: the lock is someone else's. */
function isAbort(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name
  return name === 'AbortError' || name === 'TimeoutError'
}

function defaultLocks(): LockManagerLike | null {
  try {
    return globalThis.navigator?.locks ?? null
  } catch {
    return null
  }
}
