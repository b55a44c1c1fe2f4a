/**
 * Resizing keeps the whole transcript (issue 32): every resize clears the terminal and lays the
 * transcript out again from the engine's journal, so no row is lost, cut by xterm's own reflow
 * or doubled, at any width and during a stream too. Read back from @xterm/headless, which
 * reflows its buffer as xterm.js in the page does.
 */
import { describe, expect, test } from 'vitest'
import { createHarness, type Harness } from './harness.ts'
import { conversation } from './turn-helpers.ts'

const TABLE_REPLY = [
  'Here is what each city is called and how it greets you:',
  '',
  '| City | Greeting | Notes about the way people say it in the street |',
  '| --- | --- | --- |',
  '| Lisbon | Olá | said warmly, often with a kiss on each cheek among friends |',
  '| Tokyo | Konnichiwa | a small bow goes with it; in shops you hear irasshaimase |',
  '',
  'End of table.',
].join('\n')

const CODE_REPLY = [
  'The greeter in one function:',
  '',
  '```js',
  "export function greet(city, name) { return `${greetings[city] ?? 'Hello'}, ${name}! Welcome to ${city}.` }",
  '```',
  '',
  '- a list item long enough that it wraps when the window is narrow, and keeps its indent',
  '- a second item',
  '',
  'End of code.',
].join('\n')

/** Sends a prompt and streams `reply` to it in pieces of `piece` characters. */
async function turn(h: Harness, id: number, prompt: string, reply: string, finish = true, piece = 17) {
  await h.type(prompt + '\r')
  for (let at = 0; at < reply.length; at += piece) await h.model(id, { type: 'text_delta', delta: reply.slice(at, at + piece) })
  if (finish) await h.model(id, { type: 'finish', reason: 'stop' })
}

/** Rows of the whole buffer xterm wrapped itself (the engine lays out every row to fit). */
function softWrapped(h: Harness): number {
  const buf = h.term.buffer.active
  let n = 0
  for (let i = 0; i < buf.length; i++) if (buf.getLine(i)?.isWrapped) n++
  return n
}

const count = (rows: string[], pattern: RegExp) => rows.filter((row) => pattern.test(row)).length

/** Each thing a person would look for is there once, and laid out for the width. */
function expectWhole(h: Harness, cols: number, streamed: string | null) {
  const rows = conversation(h)
  const context = rows.join('\n')
  expect(count(rows, /End of table\./), context).toBe(1)
  expect(count(rows, /┌/), context).toBe(1)
  expect(count(rows, /└/), context).toBe(1)
  expect(count(rows, /End of code\./), context).toBe(1)
  expect(count(rows, /^\s*• /), context).toBe(2)
  expect(count(rows, /^❯ /), context).toBe(streamed == null ? 2 : 3)
  if (streamed != null) expect(count(rows, new RegExp(streamed)), context).toBe(1)
  expect(softWrapped(h), context).toBe(0)
  for (const row of rows) expect(row.length, row).toBeLessThanOrEqual(cols)
  return rows
}

describe('resizing reflows the whole transcript', () => {
  test('a table, a code block and a list keep every line after 120 → 55 → 120 columns', async () => {
    const h = await createHarness({ cols: 120, rows: 30 })
    await turn(h, 1, 'show me a table', TABLE_REPLY)
    await turn(h, 2, 'and some code', CODE_REPLY)
    const wide = expectWhole(h, 120, null)

    await h.resize(55, 30)
    expectWhole(h, 55, null)
    await h.resize(120, 30)
    expect(expectWhole(h, 120, null)).toEqual(wide)
  })

  test('during a stream: nothing is lost or doubled, and the reply goes on at the new width', async () => {
    const h = await createHarness({ cols: 120, rows: 20 })
    await turn(h, 1, 'show me a table', TABLE_REPLY)
    await turn(h, 2, 'and some code', CODE_REPLY)
    // stops mid-line: "Held here" is still the live region's unfinished line
    await turn(h, 3, 'go on', 'A reply still streaming, long enough to wrap when the window is narrow.\n\nHeld here', false)
    const wide = expectWhole(h, 120, 'Held here')

    await h.resize(55, 20)
    expectWhole(h, 55, 'Held here')
    await h.resize(120, 20)
    expect(expectWhole(h, 120, 'Held here')).toEqual(wide)

    await h.resize(55, 20)
    await h.model(3, { type: 'text_delta', delta: ' and then it ends.\n\nEnd of stream.' })
    await h.model(3, { type: 'finish', reason: 'stop' })
    const rows = expectWhole(h, 55, 'Held here and then it ends\\.')
    expect(count(rows, /End of stream\./)).toBe(1)
  })

  test('down to 20 columns and back, the transcript is whole and drawn as before', async () => {
    const h = await createHarness({ cols: 100, rows: 24 })
    await turn(h, 1, 'show me a table', TABLE_REPLY)
    await turn(h, 2, 'and some code', CODE_REPLY)
    const wide = expectWhole(h, 100, null)
    for (const cols of [60, 33, 20, 27]) {
      await h.resize(cols, 24)
      expectWhole(h, cols, null)
    }
    await h.resize(100, 24)
    expect(expectWhole(h, 100, null)).toEqual(wide)
  })

  test('a resize while the Ctrl+O view is open redraws the transcript when it closes', async () => {
    const h = await createHarness({ cols: 120, rows: 24 })
    await turn(h, 1, 'show me a table', TABLE_REPLY)
    await turn(h, 2, 'and some code', CODE_REPLY)
    await h.type('\x0f')
    await h.resize(50, 24)
    await h.type('q')
    expectWhole(h, 50, null)
  })
})

describe('a long transcript', () => {
  test('a resize writes its newest rows again, up to the last line, not the whole megabyte', async () => {
    const h = await createHarness({ cols: 100, rows: 24 })
    await h.type('go\r')
    const lines = Array.from({ length: 12_000 }, (_, i) => `Line ${i} of a long reply.`)
    await h.model(1, { type: 'text_delta', delta: lines.join('\n') })
    await h.model(1, { type: 'finish', reason: 'stop' })
    const effects = await h.resize(60, 24)
    const written = new TextDecoder().decode(Uint8Array.from(effects.flatMap((e) => (e.kind === 'write' ? [...e.bytes] : []))))
    expect(written).toContain('Line 11999 of a long reply.')
    expect(written).toContain('Line 2500 of a long reply.')
    // the oldest rows are past what xterm keeps anyway (1000 rows unless an app asks for more)
    expect(written).not.toContain('Line 1 of a long reply.')
    expect(count(conversation(h), /Line 11999 of a long reply\./)).toBe(1)
  })
})
