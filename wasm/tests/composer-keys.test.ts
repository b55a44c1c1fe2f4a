/**
 * The browser chords xterm would lose, as encodeXtermKeyEvent encodes them, and what the engine
 * does with those bytes. Keys xterm already encodes well (Ctrl+A, Ctrl+C, Cmd+V, arrows…) are
 * left to xterm.
 */
import { describe, expect, test } from 'vitest'
import { encodeXtermKeyEvent } from '../../src/page/terminal/xterm-adapter.ts'
import { createHarness } from './harness.ts'
import { composer, invertedText } from './composer-helpers.ts'

type Chord = { key: string; code?: string; shift?: boolean; alt?: boolean; ctrl?: boolean; meta?: boolean; type?: string }

function ev(c: Chord): KeyboardEvent {
  return {
    type: c.type ?? 'keydown',
    key: c.key,
    code: c.code ?? (c.key.length === 1 ? `Key${c.key.toUpperCase()}` : c.key),
    shiftKey: c.shift ?? false,
    altKey: c.alt ?? false,
    ctrlKey: c.ctrl ?? false,
    metaKey: c.meta ?? false,
  } as KeyboardEvent
}

const enc = (c: Chord, hasSelection = false) => encodeXtermKeyEvent(ev(c), { hasSelection: () => hasSelection })

describe('encodeXtermKeyEvent', () => {
  test.each<[string, Chord, string | undefined]>([
    ['Shift+Enter', { key: 'Enter', shift: true }, '\x1b[13;2u'],
    ['Cmd+Left', { key: 'ArrowLeft', meta: true }, '\x1b[H'],
    ['Cmd+Right', { key: 'ArrowRight', meta: true }, '\x1b[F'],
    ['Cmd+Up', { key: 'ArrowUp', meta: true }, '\x1b[1;5H'],
    ['Cmd+Down', { key: 'ArrowDown', meta: true }, '\x1b[1;5F'],
    ['Cmd+Backspace', { key: 'Backspace', meta: true }, '\x15'],
    ['Alt+Backspace', { key: 'Backspace', alt: true }, '\x1b\x7f'],
    ['Ctrl+Backspace', { key: 'Backspace', ctrl: true }, '\x1b\x7f'],
    ['Cmd+Z', { key: 'z', meta: true }, '\x1f'],
    ['Ctrl+Z', { key: 'z', ctrl: true }, '\x1f'],
    ['Cmd+Shift+Z', { key: 'z', meta: true, shift: true }, '\x1b[122;6u'],
    ['Cmd+Shift+Z (key reported in capitals)', { key: 'Z', meta: true, shift: true }, '\x1b[122;6u'],
    ['Ctrl+Shift+Z', { key: 'Z', ctrl: true, shift: true }, '\x1b[122;6u'],
    ['Cmd+A', { key: 'a', meta: true }, '\x1b[97;9u'],
    ['Cmd+C', { key: 'c', meta: true }, '\x1b[99;9u'],
    ['Cmd+X', { key: 'x', meta: true }, '\x1b[120;9u'],
    ['Option+B on macOS (types ∫)', { key: '∫', code: 'KeyB', alt: true }, '\x1bb'],
    ['Option+F on macOS (types ƒ)', { key: 'ƒ', code: 'KeyF', alt: true }, '\x1bf'],
    ['Option+D on macOS (types ∂)', { key: '∂', code: 'KeyD', alt: true }, '\x1bd'],
    // left to xterm
    ['Ctrl+A (line start)', { key: 'a', ctrl: true }, undefined],
    ['Ctrl+C (interrupt)', { key: 'c', ctrl: true }, undefined],
    ['Cmd+V (the browser pastes)', { key: 'v', meta: true }, undefined],
    ['Enter', { key: 'Enter' }, undefined],
    ['Alt+Enter', { key: 'Enter', alt: true }, undefined],
    ['Left', { key: 'ArrowLeft' }, undefined],
    ['Alt+Left', { key: 'ArrowLeft', alt: true }, undefined],
    ['a', { key: 'a' }, undefined],
    ['Cmd+Z on keyup', { key: 'z', meta: true, type: 'keyup' }, undefined],
  ])('%s', (_name, chord, bytes) => {
    expect(enc(chord)).toBe(bytes)
  })

  test("Cmd+C is left to xterm when the terminal has its own selection, so xterm copies that", () => {
    expect(enc({ key: 'c', meta: true }, true)).toBeUndefined()
    expect(enc({ key: 'x', meta: true }, true)).toBe('\x1b[120;9u')
  })
})

describe('the encoded chords in the engine', () => {
  const type = async (h: Awaited<ReturnType<typeof createHarness>>, ...chords: Chord[]) => {
    for (const c of chords) await h.type(enc(c) ?? c.key)
  }

  test('Cmd+A selects, Cmd+C copies, Cmd+X cuts, Cmd+Z undoes and Cmd+Shift+Z redoes', async () => {
    const h = await createHarness()
    await h.type('draft text')
    await type(h, { key: 'a', meta: true })
    expect(invertedText(h)).toEqual(['draft text'])
    await type(h, { key: 'c', meta: true })
    expect(h.lastOf('clipboard')).toEqual({ kind: 'clipboard', text: 'draft text' })
    await type(h, { key: 'x', meta: true })
    expect(composer(h).rows).toEqual(['❯ '])
    await type(h, { key: 'z', meta: true })
    expect(composer(h).rows).toEqual(['❯ draft text'])
    await type(h, { key: 'z', meta: true, shift: true })
    expect(composer(h).rows).toEqual(['❯ '])
    await type(h, { key: 'z', ctrl: true })
    expect(composer(h).rows).toEqual(['❯ draft text'])
    await type(h, { key: 'Z', ctrl: true, shift: true })
    expect(composer(h).rows).toEqual(['❯ '])
  })

  test('Cmd+arrows and Cmd/Alt/Ctrl+Backspace edit the line; Option+B/F/D are word keys', async () => {
    const h = await createHarness()
    await h.type('one two' + '\x1b[13;2u' + 'three four')
    await type(h, { key: 'ArrowLeft', meta: true })
    expect(composer(h).caret).toEqual({ row: 1, x: 2 })
    await type(h, { key: 'ArrowRight', meta: true })
    expect(composer(h).caret).toEqual({ row: 1, x: 12 })
    await type(h, { key: 'Backspace', alt: true })
    expect(composer(h).rows).toEqual(['❯ one two', '  three '])
    await type(h, { key: 'Backspace', ctrl: true })
    expect(composer(h).rows).toEqual(['❯ one two', '  '])
    await type(h, { key: 'ArrowUp', meta: true })
    expect(composer(h).caret).toEqual({ row: 0, x: 2 })
    await type(h, { key: '∂', code: 'KeyD', alt: true })
    expect(composer(h).rows).toEqual(['❯  two', '  '])
    await type(h, { key: 'ƒ', code: 'KeyF', alt: true })
    expect(composer(h).caret).toEqual({ row: 0, x: 6 })
    await type(h, { key: '∫', code: 'KeyB', alt: true })
    expect(composer(h).caret).toEqual({ row: 0, x: 3 })
    await type(h, { key: 'ArrowDown', meta: true })
    expect(composer(h).caret).toEqual({ row: 1, x: 2 })
    await type(h, { key: 'Backspace', meta: true })
    expect(composer(h).rows).toEqual(['❯  two'])
  })
})
