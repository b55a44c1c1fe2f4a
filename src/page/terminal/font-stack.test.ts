import { describe, expect, it } from 'vitest'
import { monospaceFonts } from './font-stack.ts'

const ALL = ['ui-monospace', '"SF Mono"', 'Menlo', 'Consolas', '"DejaVu Sans Mono"', 'monospace']
const families = (ua: string) => monospaceFonts(ua).split(', ')

describe('the monospace font list', () => {
  it("puts the platform's own fonts first and keeps every other one after them", () => {
    expect(families('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Safari/605.1.15').slice(0, 3)).toEqual(['ui-monospace', '"SF Mono"', 'Menlo'])
    expect(families('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Mobile/15E148')[0]).toBe('ui-monospace')
    expect(families('Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0 Safari/537.36')[0]).toBe('Consolas')
    expect(families('Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36')[0]).toBe('"DejaVu Sans Mono"')
    for (const ua of ['Macintosh', 'Windows NT', 'X11; Linux', '']) {
      expect([...families(ua)].sort()).toEqual([...ALL].sort())
      expect(families(ua).at(-1)).toBe('monospace')
    }
  })
})
