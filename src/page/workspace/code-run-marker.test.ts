import { describe, expect, it } from 'vitest'
import { createCodeRunMarker } from './code-run-marker'

function memoryStorage() {
  const map = new Map<string, string>()
  return { getItem: (key: string) => map.get(key) ?? null, setItem: (key: string, value: string) => void map.set(key, value), removeItem: (key: string) => void map.delete(key) }
}

describe('the code run marker', () => {
  it('tells the next page, once, that the last one ended in the middle of a run', () => {
    const storage = memoryStorage()
    const first = createCodeRunMarker(storage)
    expect(first.leftOver()).toBeNull()
    first.started('node grow.js')
    // The tab dies here: ended() never runs. The reloaded page finds the mark.
    const second = createCodeRunMarker(storage)
    expect(second.leftOver()).toBe(
      'The page was reloaded while `node grow.js` was running; the tab most likely ran out of memory. The files and the conversation are as they were before that run.',
    )
    expect(second.leftOver()).toBeNull()
    expect(createCodeRunMarker(storage).leftOver()).toBeNull()
  })

  it('says nothing after runs that ended, and survives storage that throws', () => {
    const storage = memoryStorage()
    const marker = createCodeRunMarker(storage)
    marker.started('python3 -c 1')
    marker.ended()
    expect(createCodeRunMarker(storage).leftOver()).toBeNull()
    const broken = { getItem: () => { throw new Error('blocked') }, setItem: () => { throw new Error('full') }, removeItem: () => { throw new Error('blocked') } }
    const safe = createCodeRunMarker(broken)
    expect(() => safe.started('node x.js')).not.toThrow()
    expect(safe.leftOver()).toBeNull()
    expect(createCodeRunMarker(null).leftOver()).toBeNull()
  })
})
