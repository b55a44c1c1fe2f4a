/**
 * Start-up's timeline, on the page's thread and in the engine worker (both import this): a
 * performance mark where each phase starts and ends (`fxterm:<phase>:start`, `…:end`) and at a
 * few moments (`fxterm:<moment>`). The engine worker's marks travel to the page with the answer
 * to `start` and are marked again on the page's timeline, so the bench reads one list
 * (e2e/bench/startup-bench.mjs) and anyone can see them in the browser's performance panel.
 */

const PREFIX = 'fxterm:'

/** A mark as the other thread can place it: its name and when, in ms since the epoch. */
export type TimelineMark = { name: string; epochMs: number }

const hasMarks = () => typeof performance !== 'undefined' && typeof performance.mark === 'function'

/** Marks a moment of start-up (`fxterm:<name>`). */
export function markStartUp(name: string): void {
  if (hasMarks()) performance.mark(`${PREFIX}${name}`)
}

/** Marks where phase `phase` starts or ends. */
export function markPhase(phase: string, edge: 'start' | 'end'): void {
  markStartUp(`${phase}:${edge}`)
}

/** This thread's start-up marks, each once (the first), to hand to the page. */
export function startUpMarks(): TimelineMark[] {
  if (!hasMarks()) return []
  const seen = new Set<string>()
  const marks: TimelineMark[] = []
  for (const entry of performance.getEntriesByType('mark')) {
    if (!entry.name.startsWith(PREFIX) || seen.has(entry.name)) continue
    seen.add(entry.name)
    marks.push({ name: entry.name, epochMs: performance.timeOrigin + entry.startTime })
  }
  return marks
}

/** Places another thread's marks on this thread's timeline (those before it began at 0). */
export function adoptMarks(marks: readonly TimelineMark[] | undefined): void {
  if (!hasMarks() || !marks) return
  for (const { name, epochMs } of marks) performance.mark(name, { startTime: Math.max(0, epochMs - performance.timeOrigin) })
}
