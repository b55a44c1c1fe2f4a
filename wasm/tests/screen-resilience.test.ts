/**
 * The footer survives what the terminal does to it: resizes that make xterm reflow the rows the
 * engine drew, absurd sizes, drafts taller than the screen, and control characters typed in.
 */
import { describe, expect, test } from 'vitest'
import { createHarness, type Harness } from './harness.ts'

const dividers = (lines: string[]) => lines.filter((line) => /^─+$/.test(line)).length
const composers = (lines: string[]) => lines.filter((line) => line.startsWith('❯ ')).length

async function typedAt(cols: number, rows = 30): Promise<Harness> {
  const h = await createHarness({ cols, rows })
  await h.type('hello')
  return h
}

describe('resizing', () => {
  for (const widths of [[80, 12], [80, 40, 80], [60, 40, 100], [80, 20, 10, 120, 30]]) {
    test(`${widths.join(' → ')} columns leaves exactly one footer in the whole buffer`, async () => {
      const h = await typedAt(widths[0]!)
      for (const cols of widths.slice(1)) await h.resize(cols, 30)
      const lines = h.screen().split('\n')
      expect(dividers(lines)).toBe(2)
      expect(composers(lines)).toBe(1)
      const last = widths.at(-1)!
      expect(lines.slice(-4)).toEqual(['─'.repeat(last), '❯ hello', '─'.repeat(last), expect.stringMatching(/^ {2}auto/)])
    })
  }

  test('a resize to 0 columns or to an absurd width does not stop the engine', async () => {
    const h = await typedAt(80)
    // Only the engine hears these sizes: a real terminal would never take them.
    for (const cols of [0, 2 ** 30]) {
      const effects = h.engine.resize(cols, 24, 0)
      expect(effects.some((e) => e.kind === 'write')).toBe(true)
    }
    await h.resize(80, 24)
    await h.type(' again')
    expect(h.viewport().filter((line) => line.startsWith('❯ '))).toEqual(['❯ hello again'])
  })
})

describe('tall drafts', () => {
  test('a pasted draft taller than the screen shows its last half-screen and leaves no copies behind', async () => {
    const h = await createHarness({ cols: 80, rows: 24 })
    const text = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n')
    await h.type(`\x1b[200~${text}\x1b[201~`)
    await h.type('abc')
    const lines = h.screen().split('\n')
    expect(dividers(lines)).toBe(2)
    expect(lines.filter((line) => line.includes('line 29abc'))).toEqual(['  line 29abc'])
    const shown = lines.filter((line) => /^( {2}|❯ )line \d+/.test(line))
    expect(shown.length).toBe(12)
  })

  test('typing 100 characters at 20×8 keeps one footer', async () => {
    const h = await createHarness({ cols: 20, rows: 8 })
    await h.type('x'.repeat(100))
    expect(dividers(h.screen().split('\n'))).toBe(2)
  })
})

describe('typed control characters', () => {
  test('a typed C1 CSI (U+009B) never reaches the terminal and the screen stays intact', async () => {
    const h = await createHarness({ cols: 80, rows: 24 })
    const written: Uint8Array[] = []
    const effects = h.engine.keys(new TextEncoder().encode('hello\u009b2J'), 0)
    for (const e of effects) if (e.kind === 'write') written.push(e.bytes)
    const bytes = Buffer.concat(written)
    expect(bytes.includes(Buffer.from([0xc2, 0x9b]))).toBe(false)
    for (const b of written) await new Promise<void>((resolve) => h.term.write(b, resolve))
    expect(h.viewport()[0]).toBe('✻ fxterm · Run /help for commands')
    expect(h.viewport().filter((line) => line.startsWith('❯ '))).toEqual(['❯ hello2J'])
  })
})
