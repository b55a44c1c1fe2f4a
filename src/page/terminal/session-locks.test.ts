/**
 * An early claim (a page's first script claims the lock of the session it wrote last): the
 * resume's claim of that session takes it over; any other claim lets it go, as does nobody
 * claiming it; one that found the lock held makes the resume read-only.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createSessionLocks, requestSessionLock } from './session-locks.ts'
import { fakeLocks } from '../../../test/support/locks.ts'

// Every wait here is on a fake clock: setTimeout, and AbortSignal.timeout (which vitest does not
// fake) made of it. The lock manager answers in promises, so one turn of the event loop
// (`settled`) lets every answer through.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  vi.spyOn(AbortSignal, 'timeout').mockImplementation((ms) => {
    const controller = new AbortController()
    setTimeout(() => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), ms)
    return controller.signal
  })
})
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

const settled = () => new Promise((resolve) => setImmediate(resolve))

const name = (id: string) => `fxterm-session:docs:${id}`

/** Session s1 held by another page (`holder`), and a tab whose first script claimed it early. */
async function heldWithAnEarlyClaim() {
  const locks = fakeLocks()
  const holder = createSessionLocks('docs', locks)
  expect(await holder.claim('s1')).toBe(true)
  const early = { id: 's1', answer: requestSessionLock(locks, 'docs', 's1', 3_000) }
  return { locks, holder, tab: createSessionLocks('docs', locks, { early }) }
}

describe('an early session lock', () => {
  it('is taken over by the claim of its session, with no second request, and the holder is told', async () => {
    const locks = fakeLocks()
    const early = { id: 's1', answer: requestSessionLock(locks, 'docs', 's1', 600) }
    await early.answer
    expect(locks.held()).toEqual([name('s1')])
    const request = vi.spyOn(locks, 'request')
    const held: string[] = []
    const tab = createSessionLocks('docs', locks, { early, onHeld: (id) => held.push(id) })
    expect(await tab.claim('s1', { waitMs: 300 })).toBe(true)
    expect([request.mock.calls.length, tab.heldId, held]).toEqual([0, 's1', ['s1']])
    tab.release()
    await settled()
    expect(locks.held()).toEqual([])
  })

  it('is let go when the resume claims another session', async () => {
    const locks = fakeLocks()
    const early = { id: 'old', answer: requestSessionLock(locks, 'docs', 'old', 600) }
    const tab = createSessionLocks('docs', locks, { early })
    expect(await tab.claim('newer')).toBe(true)
    await settled()
    expect(locks.held()).toEqual([name('newer')])
    // Another tab may now write the session this one guessed at.
    expect(await createSessionLocks('docs', locks).claim('old')).toBe(true)
  })

  it('still waiting for a reloaded page to let go, it is taken over once that page does: the resume writes', async () => {
    const { locks, holder: leaving, tab } = await heldWithAnEarlyClaim()
    const claimed = tab.claim('s1', { waitMs: 300 })
    await vi.advanceTimersByTimeAsync(30)
    leaving.release()
    expect(await claimed).toBe(true)
    expect(tab.heldId).toBe('s1')
  })

  it('the resume waits no longer than its own claim would: read-only, and a lock granted later is let go', async () => {
    const { locks, holder: other, tab } = await heldWithAnEarlyClaim()
    const claimed = tab.claim('s1', { waitMs: 20 })
    await vi.advanceTimersByTimeAsync(20)
    expect(await claimed).toBe(false)
    other.release()
    await settled()
    expect(locks.held()).toEqual([])
    expect(tab.heldId).toBeNull()
  })

  it('one that gave up before the resume claims is asked again, as the resume would', async () => {
    const locks = fakeLocks()
    const other = createSessionLocks('docs', locks)
    expect(await other.claim('s1')).toBe(true)
    const early = { id: 's1', answer: requestSessionLock(locks, 'docs', 's1', 10) }
    await vi.advanceTimersByTimeAsync(10)
    expect(await early.answer).toBe('held')
    const tab = createSessionLocks('docs', locks, { early })
    const claimed = tab.claim('s1', { waitMs: 300 })
    await vi.advanceTimersByTimeAsync(30)
    other.release()
    expect(await claimed).toBe(true)
  })

  it('is let go after 10 s when no claim takes it over', async () => {
    const locks = fakeLocks()
    const early = { id: 's1', answer: requestSessionLock(locks, 'docs', 's1', 600) }
    createSessionLocks('docs', locks, { early })
    await vi.advanceTimersByTimeAsync(9_000)
    expect(locks.held()).toEqual([name('s1')])
    await vi.advanceTimersByTimeAsync(1_000)
    expect(locks.held()).toEqual([])
  })
})
