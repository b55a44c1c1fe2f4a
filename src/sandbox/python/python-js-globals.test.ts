import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createInterpreterGlobals } from './python-js-globals'

type Timers = { setTimeout(handler: () => void, ms: number): number; setInterval(handler: () => void, ms: number): number; clearInterval(id: number): void }

describe('an interpreter’s js globals', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('stops the timers an interpreter started once it is dropped, and starts none after', () => {
    const own = createInterpreterGlobals()
    const timers = own.globals as Timers
    const calls: string[] = []
    timers.setInterval(() => calls.push('interval'), 10)
    timers.setTimeout(() => calls.push('timeout'), 15)
    vi.advanceTimersByTime(20)
    expect(calls).toEqual(['interval', 'timeout', 'interval'])
    own.clearAll()
    timers.setTimeout(() => calls.push('after drop'), 1)
    vi.advanceTimersByTime(100)
    expect(calls).toEqual(['interval', 'timeout', 'interval'])
  })

  it('reaches the worker’s timers through globalThis too, and leaves other interpreters’ running', () => {
    const dropped = createInterpreterGlobals()
    const kept = createInterpreterGlobals()
    const calls: string[] = []
    ;((dropped.globals as { globalThis: Timers }).globalThis).setInterval(() => calls.push('dropped'), 10)
    ;(kept.globals as Timers).setInterval(() => calls.push('kept'), 10)
    dropped.clearAll()
    vi.advanceTimersByTime(10)
    expect(calls).toEqual(['kept'])
  })

  it('hands out the worker’s functions bound to it and its constructors whole', () => {
    const { globals } = createInterpreterGlobals()
    const js = globals as { atob(text: string): string; Object: ObjectConstructor; Uint8Array: Uint8ArrayConstructor }
    const atob = js.atob
    expect(atob('aGk=')).toBe('hi')
    expect(js.Object.keys({ a: 1 })).toEqual(['a'])
    expect(js.Uint8Array).toBe(Uint8Array)
  })
})
