/**
 * Up/Down (and Ctrl+P/N) in a multi-line draft: they move between rows keeping the column where
 * they can, and walk the prompt history only from the first or the last row. A draft being
 * edited survives a walk into history and back.
 */
import { describe, expect, test } from 'vitest'
import { createHarness, type Harness } from './harness.ts'
import { composer, keys as K, lastUserMessage } from './composer-helpers.ts'

async function sent(h: Harness, text: string, id: number) {
  await h.type(text + K.enter)
  await h.model(id, { type: 'finish', reason: 'stop' })
}

describe('moving between lines', () => {
  test('Up and Down keep the column, remembering it across a shorter line', async () => {
    const h = await createHarness()
    await h.type('a long first line' + K.shiftEnter + 'short' + K.shiftEnter + 'a long third line')
    await h.type(K.home + K.right.repeat(12)) // "a long third| line"
    const rows = ['❯ a long first line', '  short', '  a long third line']
    expect(composer(h)).toEqual({ rows, caret: { row: 2, x: 14 } })
    await h.type(K.up)
    expect(composer(h)).toEqual({ rows, caret: { row: 1, x: 7 } }) // end of "short"
    await h.type(K.up)
    expect(composer(h)).toEqual({ rows, caret: { row: 0, x: 14 } }) // column 12 again
    await h.type(K.down)
    expect(composer(h)).toEqual({ rows, caret: { row: 1, x: 7 } })
    await h.type(K.down)
    expect(composer(h)).toEqual({ rows, caret: { row: 2, x: 14 } })
    // typing where Up/Down left the cursor
    await h.type(K.up + K.up + 'X')
    expect(composer(h)).toEqual({ rows: ['❯ a long firstX line', '  short', '  a long third line'], caret: { row: 0, x: 15 } })
  })

  test('a horizontal move sets a new column to keep', async () => {
    const h = await createHarness()
    await h.type('abcdef' + K.shiftEnter + 'ab' + K.shiftEnter + 'abcdef')
    await h.type(K.up) // from column 6 on row 2 to the end of "ab"
    expect(composer(h).caret).toEqual({ row: 1, x: 4 })
    await h.type(K.left + K.up)
    expect(composer(h).caret).toEqual({ row: 0, x: 3 })
  })

  test('Up and Down move over the rows of a wrapped line too', async () => {
    const h = await createHarness({ cols: 30, rows: 12 })
    // a row holds 27 characters
    await h.type('abcdefghijklmnopqrstuvwxyz0123456789')
    expect(composer(h)).toEqual({ rows: ['❯ abcdefghijklmnopqrstuvwxyz0', '  123456789'], caret: { row: 1, x: 11 } })
    await h.type(K.up)
    expect(composer(h).caret).toEqual({ row: 0, x: 11 })
    await h.type('_')
    expect(composer(h).rows).toEqual(['❯ abcdefghi_jklmnopqrstuvwxyz', '  0123456789'])
    await h.type(K.down)
    expect(composer(h).caret).toEqual({ row: 1, x: 12 })
  })

  test('at the end of a line exactly one row wide, the cursor stays on that row (no blank row appears)', async () => {
    const h = await createHarness({ cols: 30, rows: 14 })
    const rows = ['❯ abcdefghijklmnopqrstuvwxyz0', '  second line here']
    await h.type('abcdefghijklmnopqrstuvwxyz0' + K.shiftEnter + 'second line here')
    await h.type(K.up + K.end)
    expect(composer(h)).toEqual({ rows, caret: { row: 0, x: 29 } })
    await h.type(K.down)
    expect(composer(h)).toEqual({ rows, caret: { row: 1, x: 18 } })
    await h.type(K.up)
    expect(composer(h)).toEqual({ rows, caret: { row: 0, x: 29 } })
    await h.type('!')
    expect(composer(h)).toEqual({ rows: ['❯ abcdefghijklmnopqrstuvwxyz0', '  !', '  second line here'], caret: { row: 1, x: 3 } })
  })

  test('wide characters: the cursor lands at the cell boundary at or before the column', async () => {
    const h = await createHarness()
    await h.type('abcde' + K.shiftEnter + '你好世界')
    await h.type(K.up + K.home + K.right.repeat(3) + K.down) // column 3 is inside 好
    expect(composer(h)).toEqual({ rows: ['❯ abcde', '  你好世界'], caret: { row: 1, x: 4 } })
  })

  test('Ctrl+P and Ctrl+N move between lines like Up and Down', async () => {
    const h = await createHarness()
    await h.type('one' + K.shiftEnter + 'two')
    await h.type(K.ctrlP)
    expect(composer(h).caret).toEqual({ row: 0, x: 5 })
    await h.type(K.ctrlN)
    expect(composer(h).caret).toEqual({ row: 1, x: 5 })
  })
})

describe('history at the edges', () => {
  test('Up walks history only from the first line, Down comes back only from the last line', async () => {
    const h = await createHarness()
    await sent(h, 'earlier prompt', 1)
    await h.type('line one' + K.shiftEnter + 'line two')
    await h.type(K.up)
    expect(composer(h)).toEqual({ rows: ['❯ line one', '  line two'], caret: { row: 0, x: 10 } })
    await h.type(K.up)
    expect(composer(h)).toEqual({ rows: ['❯ earlier prompt'], caret: { row: 0, x: 16 } })
    await h.type(K.down)
    // the draft is back as it was typed, cursor at its end
    expect(composer(h)).toEqual({ rows: ['❯ line one', '  line two'], caret: { row: 1, x: 10 } })
    await h.type(K.down)
    expect(composer(h)).toEqual({ rows: ['❯ line one', '  line two'], caret: { row: 1, x: 10 } })
  })

  test('a multi-line prompt from history is walked line by line before older history', async () => {
    const h = await createHarness()
    await sent(h, 'oldest', 1)
    await sent(h, 'first' + K.shiftEnter + 'second', 2)
    await h.type('draft')
    await h.type(K.up)
    expect(composer(h)).toEqual({ rows: ['❯ first', '  second'], caret: { row: 1, x: 8 } })
    await h.type(K.up)
    expect(composer(h)).toEqual({ rows: ['❯ first', '  second'], caret: { row: 0, x: 7 } })
    await h.type(K.up)
    expect(composer(h)).toEqual({ rows: ['❯ oldest'], caret: { row: 0, x: 8 } })
    await h.type(K.down)
    expect(composer(h)).toEqual({ rows: ['❯ first', '  second'], caret: { row: 1, x: 8 } })
    await h.type(K.down)
    expect(composer(h)).toEqual({ rows: ['❯ draft'], caret: { row: 0, x: 7 } })
  })

  test('Ctrl+P and Ctrl+N walk history at the edges too, and a recalled prompt is sent as edited', async () => {
    const h = await createHarness()
    await sent(h, 'list files', 1)
    await h.type('half typed')
    await h.type(K.ctrlP)
    expect(composer(h).rows).toEqual(['❯ list files'])
    await h.type(K.ctrlN)
    expect(composer(h).rows).toEqual(['❯ half typed'])
    await h.type(K.ctrlP + ' again' + K.enter)
    expect(lastUserMessage(h)).toBe('list files again')
  })
})
