/**
 * Large bracketed pastes: over 1,000 characters a paste stands in the draft as
 * `[Pasted text #N, M lines]` and is expanded on submit (the model and the transcript card get
 * the full text). A 1 MiB paste stays responsive: the paste is linear and the keys after it do
 * small work and small writes.
 */
import { describe, expect, test } from 'vitest'
import type { EngineEffect } from '../../src/shared/messages/engine-frames.ts'
import { createHarness, type Harness } from './harness.ts'
import { composer, keys as K, lastUserMessage, paste } from './composer-helpers.ts'

/** `n` lines of 50 characters each: "line 001 xxxx…". */
function lines(n: number): string {
  return Array.from({ length: n }, (_, i) => `line ${String(i + 1).padStart(3, '0')} `.padEnd(50, 'x')).join('\n')
}

function writtenBytes(effects: EngineEffect[]): number {
  let n = 0
  for (const e of effects) if (e.kind === 'write') n += e.bytes.length
  return n
}

describe('a large paste becomes a placeholder', () => {
  test('in the draft it is one short placeholder; on submit the model and the transcript card get the full text', async () => {
    const h = await createHarness()
    const big = lines(30) // 30 × 50 + 29 newlines = 1,529 characters
    await h.type('Review this: ')
    await h.type(paste(big))
    await h.type(' thanks')
    expect(composer(h)).toEqual({ rows: ['❯ Review this: [Pasted text #1, 30 lines] thanks'], caret: { row: 0, x: 48 } })
    await h.type(K.enter)
    expect(lastUserMessage(h)).toBe(`Review this: ${big} thanks`)
    const screen = h.screen()
    expect(screen).toContain('❯ Review this: line 001 xxxx')
    expect(screen).toContain('  line 015 xxxx')
    expect(screen).toContain(`\n  ${big.split('\n').at(-1)} thanks`)
    expect(screen).not.toContain('[Pasted text')
  })

  test('1,000 characters stay inline; 1,001 collapse; CRLF counts as one line break', async () => {
    const h = await createHarness({ cols: 120, rows: 40 })
    await h.type(paste('a'.repeat(1000)))
    expect(composer(h).rows.join('')).not.toContain('[Pasted')
    await h.type(K.ctrlC)
    await h.type(paste(`${'b'.repeat(999)}\r\nc`))
    expect(composer(h).rows).toEqual(['❯ [Pasted text #1, 2 lines]'])
    await h.type(K.enter)
    expect(lastUserMessage(h)).toBe(`${'b'.repeat(999)}\nc`)
  })

  test('a single long line says "1 line"; pastes are numbered in the session, small ones not counted', async () => {
    const h = await createHarness()
    await h.type(paste('x'.repeat(1500)))
    await h.type(paste(' small '))
    await h.type(paste(lines(40)))
    expect(composer(h).rows).toEqual(['❯ [Pasted text #1, 1 line] small [Pasted text #2, 40 lines]'])
    await h.type(K.enter)
    expect(lastUserMessage(h)).toBe(`${'x'.repeat(1500)} small ${lines(40)}`)
    await h.model(1, { type: 'finish', reason: 'stop' })
    await h.type(paste(lines(21)))
    expect(composer(h).rows).toEqual(['❯ [Pasted text #3, 21 lines]'])
  })

  test('a placeholder edited by hand is sent as typed; intact ones still expand', async () => {
    const h = await createHarness()
    await h.type(paste(lines(25)) + ' and ' + paste(lines(26)))
    await h.type(K.home + K.right.repeat(26) + K.backspace) // the ']' of the first
    expect(composer(h).rows).toEqual(['❯ [Pasted text #1, 25 lines and [Pasted text #2, 26 lines]'])
    await h.type(K.enter)
    expect(lastUserMessage(h)).toBe(`[Pasted text #1, 25 lines and ${lines(26)}`)
  })

  test('a placeholder typed by hand for a paste that does not exist stays as typed', async () => {
    const h = await createHarness()
    await h.type('[Pasted text #1, 3 lines]' + K.enter)
    expect(lastUserMessage(h)).toBe('[Pasted text #1, 3 lines]')
  })

  test('pasting is one undo step, and undo brings back a replaced placeholder', async () => {
    const h = await createHarness()
    await h.type('see ' + paste(lines(30)))
    await h.type(K.undo)
    expect(composer(h)).toEqual({ rows: ['❯ see '], caret: { row: 0, x: 6 } })
    await h.type(K.redo)
    expect(composer(h)).toEqual({ rows: ['❯ see [Pasted text #1, 30 lines]'], caret: { row: 0, x: 32 } })
  })

  test('a prompt with a placeholder recalled from history expands again when sent', async () => {
    const h = await createHarness()
    await h.type(paste(lines(30)) + K.enter)
    await h.model(1, { type: 'finish', reason: 'stop' })
    await h.type(K.up)
    expect(composer(h).rows).toEqual(['❯ [Pasted text #1, 30 lines]'])
    await h.type(' again' + K.enter)
    expect(lastUserMessage(h)).toBe(`${lines(30)} again`)
  })

  test('a queued prompt with a large paste, taken back with Up, shows the placeholder again', async () => {
    const h = await createHarness()
    await h.type('go' + K.enter)
    await h.type('also ' + paste(lines(30)) + K.enter)
    expect(h.screen()).toContain('1 queued')
    await h.type(K.up)
    expect(composer(h)).toEqual({ rows: ['❯ also [Pasted text #1, 30 lines]'], caret: { row: 0, x: 33 } })
    await h.type(K.enter)
    await h.model(1, { type: 'finish', reason: 'stop' })
    expect(lastUserMessage(h)).toBe(`also ${lines(30)}`)
  })

  test('Esc puts a queued large paste back into the draft as its placeholder', async () => {
    const h = await createHarness()
    await h.type('go' + K.enter)
    await h.type(paste(lines(30)) + K.enter)
    await h.type('\x1b') // Esc
    expect(composer(h).rows).toEqual(['❯ [Pasted text #1, 30 lines]'])
  })
})

describe('a 1 MiB paste stays responsive', () => {
  async function typeKeys(h: Harness, count: number) {
    const sizes: number[] = []
    const typed = 'the quick brown fox '.repeat(10).slice(0, count)
    for (const ch of typed) sizes.push(writtenBytes(await h.type(ch)))
    return sizes
  }

  test('after a 1 MiB paste, each of 200 typed keys writes under 4 KB (it redraws a row, not the paste)', async () => {
    const h = await createHarness()
    const big = `${'0123456789abcdef'.repeat(63)}\n`.repeat(1040) // 1,049,600 bytes, 1,040 lines
    expect(big.length).toBeGreaterThan(1 << 20)
    // Speed is the bench's (1 MiB paste, npm run bench); here, what each key costs in output.
    const pasteWrites = writtenBytes(await h.type(paste(big)))
    const sizes = await typeKeys(h, 200)
    expect(sizes).toHaveLength(200)
    expect(pasteWrites).toBeLessThan(4096)
    expect(Math.max(...sizes)).toBeLessThan(4096)
    expect(composer(h).rows[0]).toMatch(/^❯ \[Pasted text #1, 1041 lines\]the quick brown fox/)
    // Editing keys stay cheap as well: each redraws a row, never the pasted text.
    for (let i = 0; i < 50; i++) expect(writtenBytes(await h.type(K.left + K.ctrlW + K.undo + K.end))).toBeLessThan(4096)
    await h.type(K.enter)
    expect(lastUserMessage(h).length).toBe(big.length + 200)
  })

  test('a 1 MiB paste in one line (no newlines) collapses too', async () => {
    const h = await createHarness()
    await h.type(paste('y'.repeat(1 << 20)))
    expect(composer(h).rows).toEqual(['❯ [Pasted text #1, 1 line]'])
    const sizes = await typeKeys(h, 50)
    expect(Math.max(...sizes)).toBeLessThan(4096)
  })
})
