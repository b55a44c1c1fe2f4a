/**
 * Cmd+A selects the whole draft (drawn in inverse video). Typing replaces it, Backspace and
 * Delete remove it, Cmd+C copies it (a clipboard effect), Cmd+X cuts it; Ctrl+C with a
 * selection copies instead of clearing or interrupting.
 */
import { describe, expect, test } from 'vitest'
import { createHarness } from './harness.ts'
import { composer, invertedText, keys as K, paste } from './composer-helpers.ts'

describe('select all', () => {
  test('Cmd+A draws the whole draft inverted, every line of it, and not the prompt', async () => {
    const h = await createHarness()
    await h.type('hello' + K.shiftEnter + 'wide 你好')
    expect(invertedText(h)).toEqual(['', ''])
    await h.type(K.selectAll)
    expect(composer(h)).toEqual({ rows: ['❯ hello', '  wide 你好'], caret: { row: 1, x: 11 } })
    expect(invertedText(h)).toEqual(['hello', 'wide 你好'])
  })

  test('typing replaces the selection, as one undo step', async () => {
    const h = await createHarness()
    await h.type('old text' + K.selectAll + 'new')
    expect(composer(h)).toEqual({ rows: ['❯ new'], caret: { row: 0, x: 5 } })
    expect(invertedText(h)).toEqual([''])
    await h.type(K.undo)
    expect(composer(h)).toEqual({ rows: ['❯ old text'], caret: { row: 0, x: 10 } })
  })

  test('Backspace and Delete delete the selection', async () => {
    const h = await createHarness()
    await h.type('gone' + K.selectAll + K.backspace)
    expect(composer(h)).toEqual({ rows: ['❯ '], caret: { row: 0, x: 2 } })
    await h.type('also gone' + K.selectAll + K.delete)
    expect(composer(h)).toEqual({ rows: ['❯ '], caret: { row: 0, x: 2 } })
  })

  test('a paste replaces the selection', async () => {
    const h = await createHarness()
    await h.type('before' + K.selectAll + paste('after'))
    expect(composer(h)).toEqual({ rows: ['❯ after'], caret: { row: 0, x: 7 } })
  })

  test('Left and Right drop the selection at its start or end; Esc drops it in place', async () => {
    const h = await createHarness()
    await h.type('abc' + K.selectAll + K.left)
    expect(composer(h).caret).toEqual({ row: 0, x: 2 })
    expect(invertedText(h)).toEqual([''])
    await h.type(K.selectAll + K.right)
    expect(composer(h).caret).toEqual({ row: 0, x: 5 })
    await h.type(K.selectAll + '\x1b')
    expect(invertedText(h)).toEqual([''])
    expect(composer(h)).toEqual({ rows: ['❯ abc'], caret: { row: 0, x: 5 } })
  })

  test('Cmd+A on an empty draft selects nothing', async () => {
    const h = await createHarness()
    await h.type(K.selectAll + K.copy)
    expect(h.allOf('clipboard')).toEqual([])
  })
})

describe('copy and cut', () => {
  test('Cmd+C copies the selection to the clipboard and keeps it selected', async () => {
    const h = await createHarness()
    await h.type('copy me' + K.shiftEnter + 'and me')
    await h.type(K.copy)
    expect(h.allOf('clipboard')).toEqual([]) // nothing selected
    await h.type(K.selectAll + K.copy)
    expect(h.allOf('clipboard')).toEqual([{ kind: 'clipboard', text: 'copy me\nand me' }])
    expect(invertedText(h)).toEqual(['copy me', 'and me'])
    expect(composer(h).rows).toEqual(['❯ copy me', '  and me'])
  })

  test('the clipboard gets the full text of a collapsed paste', async () => {
    const h = await createHarness()
    const big = 'z'.repeat(1200)
    await h.type('see ' + paste(big) + K.selectAll + K.copy)
    expect(h.lastOf('clipboard')).toEqual({ kind: 'clipboard', text: `see ${big}` })
  })

  test('Cmd+X cuts: the clipboard gets the text, the draft empties, undo brings it back', async () => {
    const h = await createHarness()
    await h.type('cut me' + K.selectAll + K.cut)
    expect(h.lastOf('clipboard')).toEqual({ kind: 'clipboard', text: 'cut me' })
    expect(composer(h)).toEqual({ rows: ['❯ '], caret: { row: 0, x: 2 } })
    await h.type(K.undo)
    expect(composer(h)).toEqual({ rows: ['❯ cut me'], caret: { row: 0, x: 8 } })
  })

  test('Ctrl+X cuts a selection; without one it does nothing', async () => {
    const h = await createHarness()
    await h.type('abc' + K.ctrlX)
    expect(composer(h).rows).toEqual(['❯ abc'])
    await h.type(K.selectAll + K.ctrlX)
    expect(h.lastOf('clipboard')).toEqual({ kind: 'clipboard', text: 'abc' })
    expect(composer(h).rows).toEqual(['❯ '])
  })

  test('Ctrl+C with a selection copies it and keeps the draft; the next Ctrl+C clears as usual', async () => {
    const h = await createHarness()
    await h.type('precious draft' + K.selectAll + K.ctrlC)
    expect(h.allOf('clipboard')).toEqual([{ kind: 'clipboard', text: 'precious draft' }])
    expect(composer(h)).toEqual({ rows: ['❯ precious draft'], caret: { row: 0, x: 16 } })
    expect(invertedText(h)).toEqual([''])
    expect(h.screen()).not.toContain('Press Ctrl+C again')
    expect(h.allOf('timer_set')).toEqual([])
    await h.type(K.ctrlC)
    expect(composer(h).rows).toEqual(['❯ '])
    expect(h.lastOf('exit')).toBeUndefined()
  })

  test('Ctrl+C with a selection during a turn copies and does not interrupt', async () => {
    const h = await createHarness()
    await h.type('go' + K.enter + 'next' + K.selectAll + K.ctrlC)
    expect(h.lastOf('clipboard')).toEqual({ kind: 'clipboard', text: 'next' })
    expect(h.allOf('model_cancel')).toEqual([])
    expect(composer(h).rows).toEqual(['❯ next'])
  })
})
