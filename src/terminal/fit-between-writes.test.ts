import { describe, expect, test } from 'vitest'
import xtermHeadless from '@xterm/headless'
import { fitBetweenWrites } from './fit-between-writes.ts'
import type { Terminal } from '@xterm/xterm'

const { Terminal: Headless } = xtermHeadless

describe('fitBetweenWrites', () => {
  test('a frame queued before the resize is parsed at the size it was drawn for', async () => {
    const term = new Headless({ cols: 40, rows: 10, allowProposedApi: true })
    let proposed = { cols: 20, rows: 10 }
    const refit = fitBetweenWrites(term as unknown as Terminal, { proposeDimensions: () => proposed })
    // A 40-column divider, then the cursor back up one row and erase: at 20 columns it would wrap.
    term.write('x\r\n' + '─'.repeat(40) + '\r\x1b[1A\x1b[J')
    refit()
    expect(term.cols).toBe(40) // not yet: the queued frame comes first
    await new Promise<void>((resolve) => term.write('', resolve))
    expect(term.cols).toBe(20)
    const lines = Array.from({ length: term.buffer.active.length }, (_, i) => term.buffer.active.getLine(i)?.translateToString(true) ?? '')
    expect(lines.filter((line) => line.includes('─'))).toEqual([])
    proposed = { cols: 0, rows: 0 }
    refit()
    await new Promise<void>((resolve) => term.write('', resolve))
    expect(term.cols).toBe(20) // a hidden box keeps its size
  })

  test('a burst of resizes makes one', async () => {
    const term = new Headless({ cols: 40, rows: 10, allowProposedApi: true })
    let calls = 0
    const refit = fitBetweenWrites(term as unknown as Terminal, { proposeDimensions: () => (calls++, { cols: 30, rows: 8 }) })
    for (let i = 0; i < 10; i++) refit()
    await new Promise<void>((resolve) => term.write('', resolve))
    expect(calls).toBe(1)
    expect([term.cols, term.rows]).toEqual([30, 8])
  })
})
