/**
 * Whether this page has saved a session before, kept in localStorage (read synchronously by the
 * page's first script). Only then does that script start the engine worker early: with a session
 * to resume, the worker's early start-up reads save ~100 ms of a reload; on a first visit there is
 * nothing to read, and a worker starting alongside the terminal's code only competed with it
 * (measured 2-7% slower to interactive on a 2-core machine). Never cleared: a stale "yes" costs
 * only that early start.
 */
import { PAGE_NAMESPACE } from './page-namespace.ts'

const KEY = `${PAGE_NAMESPACE}:has-saved-sessions`
const HELD_KEY = `${PAGE_NAMESPACE}:held-session`

export function hasSavedSessions(): boolean {
  try {
    return localStorage.getItem(KEY) === '1'
  } catch {
    return false // storage blocked: start the worker the usual way
  }
}

let noted = false

/** Called on every turn: storage is touched once per page. */
export function noteSavedSessions(): void {
  if (noted) return
  noted = true
  try {
    if (localStorage.getItem(KEY) !== '1') localStorage.setItem(KEY, '1')
  } catch {
    // Storage blocked: nothing is resumed either.
  }
}

/** The session whose lock this page held last (the one it wrote), or null. */
export function lastHeldSession(): string | null {
  try {
    return localStorage.getItem(HELD_KEY)
  } catch {
    return null
  }
}

/**
 * Remembers the session whose lock this page now holds: the next load claims that lock early
 * (page-first-script.ts), since `--resume last` most likely resumes the session written last.
 */
export function noteHeldSession(id: string): void {
  try {
    if (localStorage.getItem(HELD_KEY) !== id) localStorage.setItem(HELD_KEY, id)
  } catch {
    // Storage blocked: the next load claims its lock when it resumes, as without this.
  }
}
