import { describe, expect, test } from 'vitest'
import { holdSseParser } from './sse-parser-pool.ts'

const collect = () => {
  const events: string[] = []
  const errors: string[] = []
  const handlers = { onEvent: (m: { data: string; event?: string }) => events.push(m.event ? `${m.event}:${m.data}` : m.data), onError: (e: { type: string }) => errors.push(e.type) }
  return { events, errors, handlers }
}

describe('the SSE parser pool', () => {
  // eventsource-parser drops a byte order mark (as decoded byte by byte) at the start of a body only.
  const BOM = '\u00EF\u00BB\u00BF'

  test('a parser given back starts the next stream as a new one: no half event, event name or BOM state is left', () => {
    const first = collect()
    const a = holdSseParser(first.handlers)
    a.feed(`${BOM}event: delta\ndata: one\n\nevent: other\ndata: cut mid-ev`)
    a.release()
    const second = collect()
    const b = holdSseParser(second.handlers)
    b.feed(`${BOM}data: two\n\n`)
    b.release()
    expect(first.events).toEqual(['delta:one'])
    expect(second.events).toEqual(['two'])
  })

  test('streams read at the same time each hold their own parser', () => {
    const x = collect()
    const y = collect()
    const a = holdSseParser(x.handlers)
    const b = holdSseParser(y.handlers)
    a.feed('data: a1\n')
    b.feed('data: b1\n')
    a.feed('\ndata: a2\n\n')
    b.feed('\n')
    a.release()
    b.release()
    expect(x.events).toEqual(['a1', 'a2'])
    expect(y.events).toEqual(['b1'])
  })

  test('a released parser takes no more text, and its errors went to its own stream', () => {
    const x = collect()
    const a = holdSseParser(x.handlers)
    a.feed('bogus line\n\n')
    a.release()
    a.feed('data: late\n\n')
    const y = collect()
    const b = holdSseParser(y.handlers)
    b.feed('data: fresh\n\n')
    b.release()
    expect(x).toMatchObject({ events: [], errors: ['unknown-field'] })
    expect(y).toMatchObject({ events: ['fresh'], errors: [] })
  })
})
