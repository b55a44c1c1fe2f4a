/**
 * The engine's answer to a key is parsed in the task it arrives in (xterm-adapter.ts writeNow):
 * a write xterm.js queues instead held the next key's echo behind it. This relies on xterm.js
 * parsing the first write after user input at once; the test fails if an upgrade changes that.
 */
import { describe, expect, test } from 'vitest'
import xtermHeadless from '@xterm/headless'
import { parseNextWriteAtOnce } from './xterm-adapter.ts'

type Headless = InstanceType<typeof xtermHeadless.Terminal>

const line = (term: Headless, y = 0) => term.buffer.active.getLine(y)?.translateToString(true) ?? ''
const parsed = (term: Headless) => new Promise((resolve) => term.write('', () => resolve(undefined)))

/** A headless terminal (it has no selection of its own: `selected` stands for one). */
function terminal(rows = 2, selected = false) {
  const term = new xtermHeadless.Terminal({ cols: 20, rows, allowProposedApi: true })
  const data: string[] = []
  term.onData((text) => data.push(text))
  return { term, data, marked: { input: term.input.bind(term), buffer: term.buffer, hasSelection: () => selected } }
}

describe('writeNow', () => {
  test('a plain write is parsed in a later task', async () => {
    const { term } = terminal()
    term.write('queued')
    expect(line(term)).toBe('')
    await parsed(term)
    expect(line(term)).toBe('queued')
  })

  test('a write marked as input is parsed at once, and one after a queued write keeps its order', async () => {
    const { term, marked, data } = terminal()
    parseNextWriteAtOnce(marked)
    term.write('now')
    expect(line(term)).toBe('now')
    term.write(' later')
    parseNextWriteAtOnce(marked)
    term.write('!')
    expect(line(term), 'nothing overtakes a queued write').toBe('now')
    await parsed(term)
    expect([line(term), data]).toEqual(['now later!', ['', '']])
  })

  test('with a selection, or a view scrolled back, nothing is marked: the write is queued', async () => {
    const selected = terminal(2, true)
    parseNextWriteAtOnce(selected.marked)
    selected.term.write('queued')
    expect([line(selected.term), selected.data]).toEqual(['', []])

    const { term, marked, data } = terminal(2)
    term.write('1\r\n2\r\n3\r\n4')
    await parsed(term)
    term.scrollLines(-1)
    parseNextWriteAtOnce(marked)
    term.write('!')
    expect([line(term, 3), data]).toEqual(['4', []])
    await parsed(term)
    expect([line(term, 3), term.buffer.active.viewportY]).toEqual(['4!', 1])
  })
})
