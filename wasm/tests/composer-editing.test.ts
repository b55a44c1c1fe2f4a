/**
 * The composer's editing keys, read back from @xterm/headless: Enter and the ways to make a new
 * line, cursor moves (characters, words, lines), deletions, the kill ring (Ctrl+K/U/W, Alt+D,
 * Alt/Ctrl+Backspace, Ctrl+Y) and undo/redo. Each step checks the whole composer and the cursor.
 */
import { describe, expect, test } from 'vitest'
import { createHarness } from './harness.ts'
import { composer, keys as K, lastUserMessage, paste } from './composer-helpers.ts'

describe('Enter and new lines', () => {
  test('Enter submits the draft and empties the composer', async () => {
    const h = await createHarness()
    await h.type('hello there' + K.enter)
    expect(lastUserMessage(h)).toBe('hello there')
    expect(composer(h)).toEqual({ rows: ['❯ '], caret: { row: 0, x: 2 } })
  })

  test.each([
    ['Shift+Enter (CSI 13;2u)', K.shiftEnter],
    ['Alt+Enter (ESC CR)', K.altEnter],
    ['Ctrl+J (LF)', K.ctrlJ],
  ])('%s starts a new line without submitting', async (_name, newline) => {
    const h = await createHarness()
    await h.type('first' + newline)
    expect(composer(h)).toEqual({ rows: ['❯ first', '  '], caret: { row: 1, x: 2 } })
    await h.type('second')
    expect(composer(h)).toEqual({ rows: ['❯ first', '  second'], caret: { row: 1, x: 8 } })
    expect(h.allOf('model_request')).toEqual([])
    await h.type(K.enter)
    expect(lastUserMessage(h)).toBe('first\nsecond')
  })

  test('a backslash before the cursor then Enter becomes a new line, in the middle of a draft too', async () => {
    const h = await createHarness()
    await h.type('ab\\cd' + K.left + K.left + K.enter)
    expect(composer(h)).toEqual({ rows: ['❯ ab', '  cd'], caret: { row: 1, x: 2 } })
    expect(h.allOf('model_request')).toEqual([])
    await h.type(K.undo)
    expect(composer(h)).toEqual({ rows: ['❯ ab\\cd'], caret: { row: 0, x: 5 } })
  })
})

describe('moving the cursor', () => {
  test('Left/Right and Ctrl+B/F move one character, stopping at the ends', async () => {
    const h = await createHarness()
    await h.type('abc' + K.left)
    expect(composer(h)).toEqual({ rows: ['❯ abc'], caret: { row: 0, x: 4 } })
    await h.type(K.ctrlB + K.ctrlB + K.ctrlB)
    expect(composer(h).caret).toEqual({ row: 0, x: 2 })
    await h.type(K.right + K.ctrlF)
    expect(composer(h).caret).toEqual({ row: 0, x: 4 })
    await h.type(K.ctrlF + K.ctrlF + K.right)
    expect(composer(h).caret).toEqual({ row: 0, x: 5 })
  })

  test('Home/End, Ctrl+A/E and Cmd+Left/Right go to the start and end of the current line', async () => {
    const h = await createHarness()
    await h.type('one two' + K.shiftEnter + 'three four' + K.shiftEnter + 'five')
    await h.type(K.up + K.left) // "three fou|r"
    expect(composer(h)).toEqual({ rows: ['❯ one two', '  three four', '  five'], caret: { row: 1, x: 5 } })
    await h.type(K.home)
    expect(composer(h).caret).toEqual({ row: 1, x: 2 })
    await h.type(K.end)
    expect(composer(h).caret).toEqual({ row: 1, x: 12 })
    await h.type(K.ctrlA)
    expect(composer(h).caret).toEqual({ row: 1, x: 2 })
    await h.type(K.ctrlE)
    expect(composer(h).caret).toEqual({ row: 1, x: 12 })
    await h.type(K.home + 'X')
    expect(composer(h)).toEqual({ rows: ['❯ one two', '  Xthree four', '  five'], caret: { row: 1, x: 3 } })
  })

  test('Ctrl+Home/End (Cmd+Up/Down) go to the start and end of the whole draft', async () => {
    const h = await createHarness()
    await h.type('one' + K.shiftEnter + 'two' + K.left)
    await h.type(K.ctrlHome)
    expect(composer(h).caret).toEqual({ row: 0, x: 2 })
    await h.type(K.ctrlEnd)
    expect(composer(h).caret).toEqual({ row: 1, x: 5 })
  })

  test('Alt+B/F, Alt+Left/Right and Ctrl+Left/Right move by words of letters and digits', async () => {
    const h = await createHarness()
    await h.type('cat src/main.ts now')
    for (const [key, x] of [
      [K.altB, 18],
      [K.altB, 15],
      [K.altLeft, 10],
      [K.ctrlLeft, 6],
      [K.altB, 2],
      [K.altB, 2],
    ] as const) {
      await h.type(key)
      expect(composer(h)).toEqual({ rows: ['❯ cat src/main.ts now'], caret: { row: 0, x } })
    }
    for (const [key, x] of [
      [K.altF, 5],
      [K.altF, 9],
      [K.altRight, 14],
      [K.ctrlRight, 17],
      [K.altF, 21],
      [K.altF, 21],
    ] as const) {
      await h.type(key)
      expect(composer(h).caret).toEqual({ row: 0, x })
    }
  })
})

describe('deleting', () => {
  test('Backspace deletes before the cursor, Delete and Ctrl+D after it', async () => {
    const h = await createHarness()
    await h.type('abcdef' + K.left + K.left + K.left)
    await h.type(K.backspace)
    expect(composer(h)).toEqual({ rows: ['❯ abdef'], caret: { row: 0, x: 4 } })
    await h.type(K.delete)
    expect(composer(h)).toEqual({ rows: ['❯ abef'], caret: { row: 0, x: 4 } })
    await h.type(K.ctrlD)
    expect(composer(h)).toEqual({ rows: ['❯ abf'], caret: { row: 0, x: 4 } })
    await h.type(K.end + K.delete + K.ctrlD)
    expect(composer(h)).toEqual({ rows: ['❯ abf'], caret: { row: 0, x: 5 } })
    expect(h.lastOf('exit')).toBeUndefined()
  })

  test('Backspace at the start of a line joins it to the line above', async () => {
    const h = await createHarness()
    await h.type('ab' + K.shiftEnter + 'cd' + K.home + K.backspace)
    expect(composer(h)).toEqual({ rows: ['❯ abcd'], caret: { row: 0, x: 4 } })
  })

  test('Ctrl+D on an empty idle composer says how to exit, and does not', async () => {
    const h = await createHarness()
    await h.type(K.ctrlD)
    expect(h.lastOf('exit')).toBeUndefined()
    expect(h.screen()).toContain('/exit ends the session')
  })
})

describe('killing and yanking', () => {
  test('Ctrl+K kills to the end of the line; at the end of a line it joins the next one', async () => {
    const h = await createHarness()
    await h.type('hello world' + K.shiftEnter + 'next')
    await h.type(K.up + K.home + K.altF + K.ctrlK)
    expect(composer(h)).toEqual({ rows: ['❯ hello', '  next'], caret: { row: 0, x: 7 } })
    await h.type(K.ctrlK)
    expect(composer(h)).toEqual({ rows: ['❯ hellonext'], caret: { row: 0, x: 7 } })
    await h.type(K.ctrlY)
    expect(composer(h)).toEqual({ rows: ['❯ hello world', '  next'], caret: { row: 1, x: 2 } })
  })

  test('Ctrl+U kills to the start of the line; at the start of a line it joins the line above', async () => {
    const h = await createHarness()
    await h.type('first' + K.shiftEnter + 'second half')
    await h.type(K.altB + K.ctrlU)
    expect(composer(h)).toEqual({ rows: ['❯ first', '  half'], caret: { row: 1, x: 2 } })
    await h.type(K.ctrlU)
    expect(composer(h)).toEqual({ rows: ['❯ firsthalf'], caret: { row: 0, x: 7 } })
    await h.type(K.end + K.ctrlY)
    expect(composer(h)).toEqual({ rows: ['❯ firsthalf', '  second '], caret: { row: 1, x: 9 } })
  })

  test('Ctrl+W kills back to the previous space; Ctrl+Y yanks it', async () => {
    const h = await createHarness()
    await h.type('git commit -m "fix it"')
    await h.type(K.ctrlW)
    expect(composer(h)).toEqual({ rows: ['❯ git commit -m "fix '], caret: { row: 0, x: 21 } })
    await h.type(K.ctrlA + K.ctrlY)
    expect(composer(h)).toEqual({ rows: ['❯ it"git commit -m "fix '], caret: { row: 0, x: 5 } })
  })

  test('Alt+Backspace and Ctrl+Backspace (ESC DEL) kill the word before the cursor; Ctrl+Y yanks it', async () => {
    const h = await createHarness()
    await h.type('open src/main.ts')
    await h.type(K.altBackspace)
    expect(composer(h)).toEqual({ rows: ['❯ open src/main.'], caret: { row: 0, x: 16 } })
    await h.type(K.altBackspace)
    expect(composer(h)).toEqual({ rows: ['❯ open src/'], caret: { row: 0, x: 11 } })
    // consecutive kills make one killed text
    await h.type(K.ctrlY)
    expect(composer(h)).toEqual({ rows: ['❯ open src/main.ts'], caret: { row: 0, x: 18 } })
  })

  test('Alt+D and Ctrl+Delete kill the word after the cursor; Ctrl+Y yanks them together', async () => {
    const h = await createHarness()
    await h.type('rm -rf build dist' + K.home + K.altF)
    await h.type(K.altD)
    expect(composer(h)).toEqual({ rows: ['❯ rm build dist'], caret: { row: 0, x: 4 } })
    await h.type(K.ctrlDelete)
    expect(composer(h)).toEqual({ rows: ['❯ rm dist'], caret: { row: 0, x: 4 } })
    await h.type(K.end + K.ctrlY)
    expect(composer(h)).toEqual({ rows: ['❯ rm dist -rf build'], caret: { row: 0, x: 19 } })
  })

  test('a kill after another action starts a new killed text, and Ctrl+Y can yank it twice', async () => {
    const h = await createHarness()
    await h.type('aa bb cc')
    await h.type(K.ctrlW + K.left + K.ctrlW)
    expect(composer(h)).toEqual({ rows: ['❯ aa  '], caret: { row: 0, x: 5 } })
    await h.type(K.ctrlY + K.ctrlY)
    expect(composer(h)).toEqual({ rows: ['❯ aa bbbb '], caret: { row: 0, x: 9 } })
  })

  test('Ctrl+Y with nothing killed does nothing', async () => {
    const h = await createHarness()
    await h.type('abc' + K.ctrlY)
    expect(composer(h)).toEqual({ rows: ['❯ abc'], caret: { row: 0, x: 5 } })
  })
})

describe('undo and redo', () => {
  test('a run of typed characters undoes as one step; Ctrl+_ undoes and Cmd/Ctrl+Shift+Z redoes', async () => {
    const h = await createHarness()
    await h.type('hello')
    await h.type(' world')
    await h.type(K.left + '!')
    expect(composer(h)).toEqual({ rows: ['❯ hello worl!d'], caret: { row: 0, x: 13 } })
    // undo puts the cursor back where the edit began
    await h.type(K.undo)
    expect(composer(h)).toEqual({ rows: ['❯ hello world'], caret: { row: 0, x: 12 } })
    await h.type(K.undo)
    expect(composer(h)).toEqual({ rows: ['❯ '], caret: { row: 0, x: 2 } })
    await h.type(K.undo)
    expect(composer(h)).toEqual({ rows: ['❯ '], caret: { row: 0, x: 2 } })
    await h.type(K.redo)
    expect(composer(h)).toEqual({ rows: ['❯ hello world'], caret: { row: 0, x: 12 } })
    await h.type(K.redo)
    expect(composer(h)).toEqual({ rows: ['❯ hello worl!d'], caret: { row: 0, x: 13 } })
    await h.type(K.redo)
    expect(composer(h)).toEqual({ rows: ['❯ hello worl!d'], caret: { row: 0, x: 13 } })
  })

  test('Ctrl+Z (0x1a) undoes too', async () => {
    const h = await createHarness()
    await h.type('abc' + K.ctrlZ)
    expect(composer(h)).toEqual({ rows: ['❯ '], caret: { row: 0, x: 2 } })
  })

  test('a paste is one step, and so are a kill, a run of Backspaces and a new line', async () => {
    const h = await createHarness()
    await h.type('say ')
    await h.type(paste('pasted words'))
    await h.type(K.backspace + K.backspace + K.backspace)
    await h.type(K.shiftEnter)
    await h.type(K.ctrlU)
    expect(composer(h)).toEqual({ rows: ['❯ say pasted wo'], caret: { row: 0, x: 15 } })
    await h.type(K.undo)
    expect(composer(h)).toEqual({ rows: ['❯ say pasted wo', '  '], caret: { row: 1, x: 2 } })
    await h.type(K.undo)
    expect(composer(h)).toEqual({ rows: ['❯ say pasted wo'], caret: { row: 0, x: 15 } })
    await h.type(K.undo)
    expect(composer(h)).toEqual({ rows: ['❯ say pasted words'], caret: { row: 0, x: 18 } })
    await h.type(K.undo)
    expect(composer(h)).toEqual({ rows: ['❯ say '], caret: { row: 0, x: 6 } })
    await h.type(K.undo)
    expect(composer(h)).toEqual({ rows: ['❯ '], caret: { row: 0, x: 2 } })
  })

  test('a new edit after undo drops what could be redone', async () => {
    const h = await createHarness()
    await h.type('one' + K.ctrlW + K.undo + 'X')
    expect(composer(h)).toEqual({ rows: ['❯ oneX'], caret: { row: 0, x: 6 } })
    await h.type(K.redo)
    expect(composer(h)).toEqual({ rows: ['❯ oneX'], caret: { row: 0, x: 6 } })
  })

  test('a draft cleared with Ctrl+C comes back with undo', async () => {
    const h = await createHarness()
    await h.type('almost lost' + K.ctrlC)
    expect(composer(h).rows).toEqual(['❯ '])
    await h.type(K.undo)
    expect(composer(h)).toEqual({ rows: ['❯ almost lost'], caret: { row: 0, x: 13 } })
  })

  test('after a submit there is nothing to undo', async () => {
    const h = await createHarness()
    await h.type('sent' + K.enter + K.undo)
    expect(composer(h)).toEqual({ rows: ['❯ '], caret: { row: 0, x: 2 } })
  })
})

describe('redraw', () => {
  test('Ctrl+L clears the screen and redraws the composer with the draft and cursor', async () => {
    const h = await createHarness()
    await h.type('keep' + K.left + K.ctrlL)
    expect(h.viewport().slice(0, 7)).toEqual(['', '', '─'.repeat(80), '❯ keep', '─'.repeat(80), '  auto · demo · /workspace · /help', ''])
    expect(composer(h)).toEqual({ rows: ['❯ keep'], caret: { row: 0, x: 5 } })
  })
})
