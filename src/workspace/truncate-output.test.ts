import { describe, expect, it } from 'vitest'
import {
  appendLine,
  cutUtf8,
  formatCount,
  truncateOutput,
  utf8ByteLength,
} from './truncate-output'

const encoder = new TextEncoder()

describe('truncate-output', () => {
  it('counts UTF-8 bytes the way TextEncoder does, including emoji and lone surrogates', () => {
    for (const text of ['', 'abc', 'é', '€', '😀', 'a😀é€', '\ud800x', 'x\udc00']) {
      expect(utf8ByteLength(text)).toBe(encoder.encode(text).length)
    }
  })

  it('cuts before a character that would not fit whole', () => {
    expect(cutUtf8('a😀b', 4)).toBe('a')
    expect(cutUtf8('a😀b', 5)).toBe('a😀')
    expect(cutUtf8('ééé', 5)).toBe('éé')
    expect(cutUtf8('abc', 0)).toBe('')
  })

  it('formats counts with thousands separators', () => {
    expect([0, 999, 1000, 65536, 1234567].map(formatCount)).toEqual([
      '0',
      '999',
      '1,000',
      '65,536',
      '1,234,567',
    ])
  })

  it('ends an unterminated last line before appending a line', () => {
    expect([appendLine('', 'x'), appendLine('a', 'x'), appendLine('a\n', 'x')]).toEqual([
      'x\n',
      'a\nx\n',
      'a\nx\n',
    ])
  })

  it('leaves output within the limit untouched', () => {
    expect(truncateOutput({ stdout: 'é\n', stderr: 'w\n' }, 5)).toEqual({
      stdout: 'é\n',
      stderr: 'w\n',
      cutBytes: 0,
    })
  })

  it('cuts multi-byte output on a character boundary, states the cut size and fits the limit', () => {
    const stdout = '€'.repeat(100_000) // 300,000 bytes, 3 per character
    const result = truncateOutput({ stdout, stderr: '' }, 1000)
    // The notice sized for the worst case, plus two newlines, takes 70 bytes, leaving 930.
    expect(result).toEqual({
      stdout: '€'.repeat(310),
      stderr: '[output truncated: 299,070 bytes cut, showing the first 930 bytes]\n',
      cutBytes: 299_070,
    })
    expect(result.stdout + result.stderr).not.toContain('\ufffd')
    expect(utf8ByteLength(result.stdout + result.stderr)).toBeLessThanOrEqual(1000)
  })

  it('never splits a four-byte character when the budget falls inside one', () => {
    const result = truncateOutput({ stdout: '😀'.repeat(100_000), stderr: '' }, 1000)
    // 930 bytes of budget hold 232 whole emoji (928 bytes); the 233rd would need 932.
    expect(result).toEqual({
      stdout: '😀'.repeat(232),
      stderr: '[output truncated: 399,072 bytes cut, showing the first 928 bytes]\n',
      cutBytes: 399_072,
    })
    expect(result.stdout).not.toContain('\ufffd')
  })

  it('keeps up to half of the budget for stderr when stdout floods', () => {
    const result = truncateOutput({ stdout: 'o'.repeat(10_000), stderr: 'e'.repeat(10_000) }, 300)
    const budget = 300 - (utf8ByteLength('[output truncated: 20,000 bytes cut, showing the first 300 bytes]') + 2)
    expect(result).toEqual({
      stdout: 'o'.repeat(budget - Math.floor(budget / 2)),
      stderr: `${'e'.repeat(Math.floor(budget / 2))}\n[output truncated: ${formatCount(20_000 - budget)} bytes cut, showing the first ${budget} bytes]\n`,
      cutBytes: 20_000 - budget,
    })
  })
})
