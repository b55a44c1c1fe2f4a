import { describe, expect, test } from 'vitest'
import type { ModelEvent } from '../../shared/protocol/model-events.ts'
import { createDeltaCoalescer } from './delta-coalescer.ts'

function fakeClock() {
  let now = 0
  const timers: Array<{ at: number; fn: () => void }> = []
  return {
    clock: { now: () => now, setTimeout: (fn: () => void, ms: number) => timers.push({ at: now + ms, fn }) },
    advance(ms: number) {
      now += ms
      for (const t of timers.splice(0)) {
        if (t.at <= now) t.fn()
        else timers.push(t)
      }
    },
  }
}

const microtasks = () => new Promise<void>((resolve) => queueMicrotask(resolve))

describe('the delta coalescer', () => {
  test('deltas from one burst reach the engine as one delta on the next microtask', async () => {
    const out: ModelEvent[] = []
    const c = createDeltaCoalescer((e) => out.push(e), { clock: fakeClock().clock })
    for (const d of ['Hel', 'lo, ', 'wor', 'ld']) c.push({ type: 'text_delta', delta: d })
    expect(out).toEqual([])
    await microtasks()
    expect(out).toEqual([{ type: 'text_delta', delta: 'Hello, world' }])
  })

  test('text that arrives within a frame of the last flush waits for the frame', async () => {
    const out: ModelEvent[] = []
    const { clock, advance } = fakeClock()
    const c = createDeltaCoalescer((e) => out.push(e), { clock })
    c.push({ type: 'text_delta', delta: 'a' })
    await microtasks()
    advance(5)
    c.push({ type: 'text_delta', delta: 'b' })
    c.push({ type: 'text_delta', delta: 'c' })
    await microtasks()
    expect(out).toEqual([{ type: 'text_delta', delta: 'a' }])
    advance(11)
    expect(out).toEqual([{ type: 'text_delta', delta: 'a' }, { type: 'text_delta', delta: 'bc' }])
  })

  test('any other event first flushes the text before it, so order is kept', () => {
    const out: ModelEvent[] = []
    const c = createDeltaCoalescer((e) => out.push(e), { clock: fakeClock().clock })
    c.push({ type: 'text_delta', delta: 'Let me look.' })
    c.push({ type: 'tool_call_start', index: 0, id: 'c1', name: 'run_command' })
    c.push({ type: 'finish', reason: 'tool_calls' })
    expect(out).toEqual([
      { type: 'text_delta', delta: 'Let me look.' },
      { type: 'tool_call_start', index: 0, id: 'c1', name: 'run_command' },
      { type: 'finish', reason: 'tool_calls' },
    ])
  })

  test('after a cancel, pending and later text is dropped', async () => {
    const out: ModelEvent[] = []
    const c = createDeltaCoalescer((e) => out.push(e), { clock: fakeClock().clock })
    c.push({ type: 'text_delta', delta: 'partial' })
    c.cancel()
    c.push({ type: 'text_delta', delta: 'late' })
    await microtasks()
    expect(out).toEqual([])
  })

  test('reasoning is joined apart from text: a switch passes on what came before it', async () => {
    const out: ModelEvent[] = []
    const c = createDeltaCoalescer((e) => out.push(e), { clock: fakeClock().clock })
    c.push({ type: 'reasoning_delta', delta: 'Think' })
    c.push({ type: 'reasoning_delta', delta: 'ing.' })
    c.push({ type: 'text_delta', delta: 'An' })
    c.push({ type: 'text_delta', delta: 'swer' })
    c.push({ type: 'finish', reason: 'stop' })
    expect(out).toEqual([
      { type: 'reasoning_delta', delta: 'Thinking.' },
      { type: 'text_delta', delta: 'Answer' },
      { type: 'finish', reason: 'stop' },
    ])
  })

  test('the interval between joined deltas is a parameter', async () => {
    const out: ModelEvent[] = []
    const { clock, advance } = fakeClock()
    const c = createDeltaCoalescer((e) => out.push(e), { clock, intervalMs: 8 })
    c.push({ type: 'text_delta', delta: 'a' })
    await microtasks()
    c.push({ type: 'text_delta', delta: 'b' })
    advance(7)
    expect(out).toEqual([{ type: 'text_delta', delta: 'a' }])
    advance(1)
    expect(out).toEqual([{ type: 'text_delta', delta: 'a' }, { type: 'text_delta', delta: 'b' }])
  })
})
