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
    const sizes: string[] = []
    term.onResize(({ cols, rows }) => sizes.push(`${cols}x${rows}`))
    const refit = fitBetweenWrites(term as unknown as Terminal, { proposeDimensions: () => ({ cols: 30, rows: 8 }) })
    for (let i = 0; i < 10; i++) refit()
    await new Promise<void>((resolve) => term.write('', resolve))
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(sizes).toEqual(['30x8'])
  })

  test('the next size waits until the app has redrawn for the last one', async () => {
    const term = new Headless({ cols: 40, rows: 10, allowProposedApi: true })
    const sizes: number[] = []
    term.onResize(({ cols }) => sizes.push(cols))
    let box = 30
    let redraw!: () => void
    const refit = fitBetweenWrites(term as unknown as Terminal, { proposeDimensions: () => ({ cols: box, rows: 10 }) }, () => new Promise<void>((resolve) => (redraw = resolve)))
    refit()
    await new Promise<void>((resolve) => term.write('', resolve))
    expect(sizes).toEqual([30])
    // The box narrows again while the app is still drawing for 30 columns: nothing happens yet.
    box = 20
    refit()
    await new Promise<void>((resolve) => term.write('', resolve))
    expect(sizes).toEqual([30])
    // The frame for 30 columns is in: now the terminal follows the box.
    term.write('frame drawn for 30 columns\r\n')
    redraw()
    await new Promise((resolve) => setTimeout(resolve, 0))
    await new Promise<void>((resolve) => term.write('', resolve))
    expect(sizes).toEqual([30, 20])
  })
})
