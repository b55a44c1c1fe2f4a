/**
 * The engine's answer to a key is parsed in the task it arrives in (xterm-adapter.ts writeNow):
 * a write xterm.js queues instead held the next key's echo behind it. This relies on a private
 * member of xterm.js's write buffer; the test fails if an upgrade takes it away.
 */
import { describe, expect, test } from 'vitest'
import xtermHeadless from '@xterm/headless'
import { asUserInput } from './xterm-adapter.ts'

const line = (term: InstanceType<typeof xtermHeadless.Terminal>) => term.buffer.active.getLine(0)?.translateToString(true) ?? ''

describe('writeNow', () => {
  test('a plain write is parsed in a later task', async () => {
    const term = new xtermHeadless.Terminal({ cols: 20, rows: 2, allowProposedApi: true })
    term.write('queued')
    expect(line(term)).toBe('')
    await new Promise((resolve) => term.write('', () => resolve(undefined)))
    expect(line(term)).toBe('queued')
  })

  test('a write marked as input is parsed at once, and one after a queued write keeps its order', async () => {
    const term = new xtermHeadless.Terminal({ cols: 20, rows: 2, allowProposedApi: true })
    asUserInput(term as never)
    term.write('now')
    expect(line(term)).toBe('now')
    term.write(' later')
    asUserInput(term as never)
    term.write('!')
    expect(line(term), 'nothing overtakes a queued write').toBe('now')
    await new Promise((resolve) => term.write('', () => resolve(undefined)))
    expect(line(term)).toBe('now later!')
  })
})
