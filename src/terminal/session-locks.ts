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

/** The locks of `namespace` on `locks` (default `navigator.locks`; null: no locking at all). */
export function createSessionLocks(namespace: string, locks: LockManagerLike | null | undefined = defaultLocks()): SessionLocks {
  let held: { id: string; release: () => void } | null = null
  // Claims run one after another, so two quick claims cannot both end up "held".
  let queue: Promise<unknown> = Promise.resolve()

  const release = () => {
    held?.release()
    held = null
  }

  /** The lock's release, 'held' when another tab has it, or 'broken' when the manager refuses. */
  const acquire = (id: string, waitMs: number): Promise<(() => void) | 'held' | 'broken'> =>
    new Promise((resolve) => {
      const name = `fxterm-session:${namespace}:${id}`
      const options: LockOptions = waitMs > 0 ? { signal: AbortSignal.timeout(waitMs) } : { ifAvailable: true }
      try {
        // The callback's promise is the lock's lifetime: it settles only when this tab lets go.
        const request = locks!.request(name, options, (lock) => {
          if (!lock) return resolve('held')
          return new Promise<void>((letGo) => resolve(letGo))
        })
        request.catch((error: unknown) => resolve(isAbort(error) ? 'held' : 'broken'))
      } catch {
        resolve('broken')
      }
    })

  return {
    claim(id, options = {}) {
      if (!locks) return Promise.resolve(true)
      const claimed = queue.then(async () => {
        if (held?.id === id) return true
        const letGo = await acquire(id, options.waitMs ?? 0)
        if (letGo === 'held') return false
        release()
        // A lock manager that fails (an opaque origin, say) is as good as none: writable.
        if (letGo === 'broken') return true
        held = { id, release: letGo }
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
