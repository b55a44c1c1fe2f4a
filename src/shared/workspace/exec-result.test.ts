import { describe, expect, it } from 'vitest'
import { clampOutputLimit, clampTimeoutMs, finishResult, withoutStopLine } from './exec-result'

describe('exec results', () => {
  it('clamps timeouts to 1..30,000 ms and output limits to 0..64 KiB, whole numbers only', () => {
    expect([120_000, 30_000, 250.7, 0, -5, Number.NaN, Number.POSITIVE_INFINITY].map(clampTimeoutMs)).toEqual([
      30_000, 30_000, 250, 1, 1, 30_000, 30_000,
    ])
    expect([1e9, 65_536, 100.5, -1, Number.NaN].map(clampOutputLimit)).toEqual([65_536, 65_536, 100, 0, 65_536])
  })

  it("drops just-bash's own stop line, in each of its forms, and keeps the lines before it", () => {
    expect(
      [
        'warn\nbash: execution aborted\n',
        'bash: execution exceeded execution deadline (200ms)\n',
        'bash: sleep exceeded its execution deadline\n',
        'bash: sleep aborted\n',
        'bash: execution aborted\nlater\n',
      ].map(withoutStopLine),
    ).toEqual(['warn\n', '', '', '', 'bash: execution aborted\nlater\n'])
  })

  it('puts notes before the stop line, sets the exit code and the cwd', () => {
    const raw = { stdout: 'partial', stderr: 'oops', exitCode: 0 }
    const finished = finishResult(raw, {
      stop: 'timeout',
      cwd: '/workspace/src',
      notes: ['fxterm: a note'],
      timeoutMs: 1500,
      outputLimitBytes: 65_536,
    })
    expect(finished).toEqual({
      stdout: 'partial',
      stderr: 'oops\nfxterm: a note\nfxterm: command timed out after 1.5 s\n',
      exitCode: 124,
      cwd: '/workspace/src',
    })
  })
})
