/**
 * Asks a closing tab to wait while the workspace's files are being stored (`beforeunload`),
 * where the browser allows it: the listener is there only while a write is on its way, since a
 * `beforeunload` listener also keeps the page out of the back/forward cache.
 */

/** A switch: `hold(true)` while writes are pending, `hold(false)` once they have settled. */
export function createCloseGuard(target: Pick<Window, 'addEventListener' | 'removeEventListener'> | undefined = typeof window === 'undefined' ? undefined : window): (hold: boolean) => void {
  let held = false
  const ask = (event: BeforeUnloadEvent) => {
    event.preventDefault()
    event.returnValue = '' // older browsers ask only when this is set
  }
  return (hold) => {
    if (!target || hold === held) return
    held = hold
    if (hold) target.addEventListener('beforeunload', ask)
    else target.removeEventListener('beforeunload', ask)
  }
}
