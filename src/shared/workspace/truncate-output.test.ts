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

  it('cuts multi-byte output on a character boundary, states shown of total bytes and fits the limit', () => {
    const stdout = '€'.repeat(100_000) // 300,000 bytes, 3 per character
    const result = truncateOutput({ stdout, stderr: '' }, 1000)
    // The notice sized for the worst case, plus two newlines, takes 50 bytes, leaving 950.
    expect(result).toEqual({
      stdout: '€'.repeat(316),
      stderr: '[output truncated: 948 of 300,000 bytes shown]\n',
      cutBytes: 299_052,
    })
    expect(result.stdout + result.stderr).not.toContain('\ufffd')
    expect(utf8ByteLength(result.stdout + result.stderr)).toBeLessThanOrEqual(1000)
  })

  it('drops an emoji whose four bytes straddle the cut instead of splitting it', () => {
    // 4,949 bytes in all; the budget is 952 bytes, so it ends 3 bytes into the first emoji.
    const result = truncateOutput({ stdout: `${'x'.repeat(949)}${'😀'.repeat(1000)}`, stderr: '' }, 1000)
    expect(result).toEqual({
      stdout: 'x'.repeat(949),
      stderr: '[output truncated: 949 of 4,949 bytes shown]\n',
      cutBytes: 4000,
    })
  })

  it('drops a CJK character whose three bytes straddle the cut instead of splitting it', () => {
    // 3,950 bytes in all; the budget is 952 bytes, so it ends 2 bytes into the first 中.
    const result = truncateOutput({ stdout: `${'x'.repeat(950)}${'中'.repeat(1000)}`, stderr: '' }, 1000)
    expect(result).toEqual({
      stdout: 'x'.repeat(950),
      stderr: '[output truncated: 950 of 3,950 bytes shown]\n',
      cutBytes: 3000,
    })
  })

  it('keeps whole emoji and CJK characters in stderr when its share ends inside one', () => {
    // Budget 253: stdout takes 127 bytes; stderr's 126 hold 31 emoji (124 bytes) or 42 中 (126).
    const emoji = truncateOutput({ stdout: 'o'.repeat(10_000), stderr: '😀'.repeat(2_500) }, 300)
    const cjk = truncateOutput({ stdout: 'o'.repeat(10_000), stderr: '中'.repeat(3_334) }, 300)
    expect([emoji, cjk]).toEqual([
      {
        stdout: 'o'.repeat(127),
        stderr: `${'😀'.repeat(31)}\n[output truncated: 251 of 20,000 bytes shown]\n`,
        cutBytes: 19_749,
      },
      {
        stdout: 'o'.repeat(127),
        stderr: `${'中'.repeat(42)}\n[output truncated: 253 of 20,002 bytes shown]\n`,
        cutBytes: 19_749,
      },
    ])
  })

  it('splits the budget evenly when both streams flood', () => {
    // 20,000 bytes into 300: the notice and its newlines take 47, leaving 253.
    const result = truncateOutput({ stdout: 'o'.repeat(10_000), stderr: 'e'.repeat(10_000) }, 300)
    expect(result).toEqual({
      stdout: 'o'.repeat(127),
      stderr: `${'e'.repeat(126)}\n[output truncated: 253 of 20,000 bytes shown]\n`,
      cutBytes: 19_747,
    })
  })

  it('gives the rest of the budget to the other stream when one is short', () => {
    const shortStdout = truncateOutput({ stdout: 'o'.repeat(10), stderr: 'e'.repeat(10_000) }, 300)
    const shortStderr = truncateOutput({ stdout: 'o'.repeat(10_000), stderr: 'e'.repeat(10) }, 300)
    expect([shortStdout, shortStderr]).toEqual([
      {
        stdout: 'o'.repeat(10),
        stderr: `${'e'.repeat(243)}\n[output truncated: 253 of 10,010 bytes shown]\n`,
        cutBytes: 9757,
      },
      {
        stdout: 'o'.repeat(243),
        stderr: `eeeeeeeeee\n[output truncated: 253 of 10,010 bytes shown]\n`,
        cutBytes: 9757,
      },
    ])
  })
})
