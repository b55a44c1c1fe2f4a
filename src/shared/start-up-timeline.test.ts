import { afterEach, describe, expect, it } from 'vitest'
import { adoptMarks, markPhase, startUpMarks } from './start-up-timeline.ts'

afterEach(() => performance.clearMarks())

describe('start-up timeline', () => {
  it('hands over each phase edge once, with the time it was marked', () => {
    markPhase('wasm-compile', 'start')
    const marked = performance.timeOrigin + performance.getEntriesByName('fxterm:wasm-compile:start')[0]!.startTime
    markPhase('wasm-compile', 'start') // a second compile of another URL: the first one counts
    performance.mark('other:mark')
    expect(startUpMarks()).toEqual([{ name: 'fxterm:wasm-compile:start', epochMs: marked }])
  })

  it("places another thread's marks on this thread's timeline, at their own time", () => {
    const epochMs = performance.timeOrigin + performance.now() - 5
    adoptMarks([{ name: 'fxterm:engine-boot:end', epochMs }, { name: 'fxterm:worker-thread', epochMs: performance.timeOrigin - 100 }])
    const boot = performance.getEntriesByName('fxterm:engine-boot:end')[0]!
    expect(boot.startTime).toBeCloseTo(epochMs - performance.timeOrigin, 3)
    // Before this thread began: at its start, never a negative time.
    expect(performance.getEntriesByName('fxterm:worker-thread')[0]!.startTime).toBe(0)
  })
})
