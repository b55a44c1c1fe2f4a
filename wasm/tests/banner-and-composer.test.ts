/**
 * What a person sees before talking to the model: the banner, the composer under it (the line
 * editor with its prompt `❯ `), the status line, and how typing, editing, pasting, history and
 * resizing change them. Everything is read back from @xterm/headless, as the page would show it.
 */
import { describe, expect, test } from 'vitest'
import { createHarness, type Harness } from './harness.ts'

const ESC = '\x1b'
const LEFT = `${ESC}[D`
const RIGHT = `${ESC}[C`
const UP = `${ESC}[A`
const DOWN = `${ESC}[B`
const HOME = `${ESC}[H`
const CTRL_K = '\x0b'
const CTRL_U = '\x15'
const CTRL_W = '\x17'
const BACKSPACE = '\x7f'
const paste = (text: string) => `${ESC}[200~${text}${ESC}[201~`

const isDivider = (line: string) => /^─+$/.test(line)

/** The composer's rows: the viewport lines between the last two dividers. */
function composerRows(h: Harness): string[] {
  const lines = h.viewport()
  const dividers = lines.flatMap((line, i) => (isDivider(line) ? [i] : []))
  const top = dividers.at(-2)
  const bottom = dividers.at(-1)
  if (top === undefined || bottom === undefined) throw new Error(`no composer on screen:\n${lines.join('\n')}`)
  return lines.slice(top + 1, bottom)
}

/** Where the composer's first row is in the viewport. */
function composerTop(h: Harness): number {
  const lines = h.viewport()
  const dividers = lines.flatMap((line, i) => (isDivider(line) ? [i] : []))
  return (dividers.at(-2) ?? -1) + 1
}

/** The rows from the composer's top divider to the end of the live region (status line). */
function footer(h: Harness): string[] {
  const lines = h.viewport()
  const dividers = lines.flatMap((line, i) => (isDivider(line) ? [i] : []))
  const top = dividers.at(-2) ?? 0
  const rest = lines.slice(top)
  while (rest.length && rest.at(-1) === '') rest.pop()
  return rest
}

describe('the banner', () => {
  test('boot shows the fxterm banner with the /help hint, then an empty composer and the status line', async () => {
    const h = await createHarness()
    expect(h.viewport().slice(0, 9)).toEqual([
      '✻ fxterm · Run /help for commands',
      '  a coding agent in your browser tab · offline demo model: no key, no network',
      '  Try "what\'s in this project?", "count the cities per country", !ls, /model.',
      '',
      '',
      '─'.repeat(80),
      '❯ ',
      '─'.repeat(80),
      '  auto · demo · /workspace · /help',
    ])
    expect(h.cursor()).toEqual({ x: 2, y: 6 })
  })

  test('a provider other than the demo names itself and its model in the banner and the status line', async () => {
    const h = await createHarness({ provider: 'ai-gateway', model: 'gpt-test' })
    expect(h.viewport().slice(0, 2)).toEqual([
      '✻ fxterm · Run /help for commands',
      '  a coding agent in your browser tab · ai-gateway · gpt-test',
    ])
    expect(footer(h).at(-1)).toBe('  auto · gpt-test · /workspace · /help')
  })

  test('boot notices appear under the banner', async () => {
    const h = await createHarness({ notices: ['No API key: using the offline demo.'] })
    expect(h.viewport().slice(0, 6)).toEqual([
      '✻ fxterm · Run /help for commands',
      '  a coding agent in your browser tab · offline demo model: no key, no network',
      '  Try "what\'s in this project?", "count the cities per country", !ls, /model.',
      '',
      '  No API key: using the offline demo.',
      '',
    ])
  })
})

describe('typing in the composer', () => {
  test('ASCII text echoes after the prompt and the cursor sits after it', async () => {
    const h = await createHarness()
    await h.type('hello')
    expect(composerRows(h)).toEqual(['❯ hello'])
    expect(h.cursor()).toEqual({ x: 7, y: composerTop(h) })
  })

  test('UTF-8 text such as wörld echoes whole, one cell per letter', async () => {
    const h = await createHarness()
    await h.type('hello wörld')
    expect(composerRows(h)).toEqual(['❯ hello wörld'])
    expect(h.cursor()).toEqual({ x: 13, y: composerTop(h) })
  })

  test('CJK characters take two cells each and the cursor follows them', async () => {
    const h = await createHarness()
    await h.type('你好世界')
    expect(composerRows(h)).toEqual(['❯ 你好世界'])
    expect(h.cursor()).toEqual({ x: 10, y: composerTop(h) })
  })

  test('Backspace removes the character before the cursor, a wide one included', async () => {
    const h = await createHarness()
    await h.type('ab你')
    await h.type(BACKSPACE)
    expect(composerRows(h)).toEqual(['❯ ab'])
    expect(h.cursor()).toEqual({ x: 4, y: composerTop(h) })
    await h.type(BACKSPACE + BACKSPACE + BACKSPACE)
    expect(composerRows(h)).toEqual(['❯ '])
    expect(h.cursor()).toEqual({ x: 2, y: composerTop(h) })
  })

  test('Left then typing inserts in the middle of the line, and Right moves back over it', async () => {
    const h = await createHarness()
    await h.type('helo world')
    await h.type(LEFT.repeat(7))
    expect(h.cursor()).toEqual({ x: 5, y: composerTop(h) })
    await h.type('l')
    expect(composerRows(h)).toEqual(['❯ hello world'])
    expect(h.cursor()).toEqual({ x: 6, y: composerTop(h) })
    await h.type(RIGHT.repeat(2))
    expect(h.cursor()).toEqual({ x: 8, y: composerTop(h) })
    await h.type(BACKSPACE)
    expect(composerRows(h)).toEqual(['❯ helloworld'])
    expect(h.cursor()).toEqual({ x: 7, y: composerTop(h) })
  })

  test('Left over a wide character moves the cursor back two cells', async () => {
    const h = await createHarness()
    await h.type('a你b')
    await h.type(LEFT + LEFT)
    expect(h.cursor()).toEqual({ x: 3, y: composerTop(h) })
    await h.type('x')
    expect(composerRows(h)).toEqual(['❯ ax你b'])
    expect(h.cursor()).toEqual({ x: 4, y: composerTop(h) })
  })

  test('text longer than the width wraps onto a second composer row and the cursor follows', async () => {
    const h = await createHarness({ cols: 30, rows: 12 })
    // 30 columns: the prompt takes 2 cells and one is kept free, so a row holds 27 characters.
    await h.type('abcdefghijklmnopqrstuvwxyz0123456789ABCD')
    expect(composerRows(h)).toEqual(['❯ abcdefghijklmnopqrstuvwxyz0', '  123456789ABCD'])
    expect(h.cursor()).toEqual({ x: 15, y: composerTop(h) + 1 })
    // The status line is cut to the width (a wrapped row would break the next redraw).
    expect(footer(h).at(-1)).toBe('  auto · demo · /workspace ·')
  })

  test('wide characters wrap before the edge instead of being split', async () => {
    const h = await createHarness({ cols: 30, rows: 12 })
    await h.type('你'.repeat(15))
    expect(composerRows(h)).toEqual([`❯ ${'你'.repeat(13)}`, `  ${'你'.repeat(2)}`])
    expect(h.cursor()).toEqual({ x: 6, y: composerTop(h) + 1 })
  })

  test('moving left from the start of a wrapped row puts the cursor back on the row above', async () => {
    const h = await createHarness({ cols: 30, rows: 12 })
    await h.type('abcdefghijklmnopqrstuvwxyz0123')
    expect(h.cursor()).toEqual({ x: 5, y: composerTop(h) + 1 })
    await h.type(LEFT.repeat(4))
    expect(h.cursor()).toEqual({ x: 28, y: composerTop(h) })
  })
})

describe('prompt history', () => {
  test('Up walks back through earlier prompts and Down returns to the draft', async () => {
    const h = await createHarness()
    await h.type('first prompt\r')
    await h.model(1, { type: 'finish', reason: 'stop' })
    await h.type('second prompt\r')
    await h.model(2, { type: 'finish', reason: 'stop' })
    await h.type('draft')

    await h.type(UP)
    expect(composerRows(h)).toEqual(['❯ second prompt'])
    expect(h.cursor()).toEqual({ x: 15, y: composerTop(h) })
    await h.type(UP)
    expect(composerRows(h)).toEqual(['❯ first prompt'])
    await h.type(UP)
    expect(composerRows(h)).toEqual(['❯ first prompt'])
    await h.type(DOWN)
    expect(composerRows(h)).toEqual(['❯ second prompt'])
    await h.type(DOWN)
    expect(composerRows(h)).toEqual(['❯ draft'])
  })

  test('a prompt recalled with Up can be edited and sent again', async () => {
    const h = await createHarness()
    await h.type('list files\r')
    await h.model(1, { type: 'finish', reason: 'stop' })
    await h.type(UP + ' please\r')
    expect(h.lastOf('model_request')?.request.messages.at(-1)).toEqual({ role: 'user', content: 'list files please' })
  })
})

describe('pasting', () => {
  test('a bracketed paste inserts its text with newlines as composer rows, sent as one prompt', async () => {
    const h = await createHarness()
    await h.type(paste('line one\r\nline two\nline three'))
    expect(composerRows(h)).toEqual(['❯ line one', '  line two', '  line three'])
    expect(h.cursor()).toEqual({ x: 12, y: composerTop(h) + 2 })
    await h.type('\r')
    expect(h.allOf('model_request')).toHaveLength(1)
    expect(h.lastOf('model_request')?.request.messages.at(-1)).toEqual({ role: 'user', content: 'line one\nline two\nline three' })
  })

  test('a paste lands at the cursor, in the middle of what was typed', async () => {
    const h = await createHarness()
    await h.type('ab' + LEFT)
    await h.type(paste('XYZ'))
    expect(composerRows(h)).toEqual(['❯ aXYZb'])
    expect(h.cursor()).toEqual({ x: 6, y: composerTop(h) })
  })

  test('Enter inside a paste does not submit it', async () => {
    const h = await createHarness()
    await h.type(paste('echo hi\r'))
    expect(h.allOf('model_request')).toEqual([])
    expect(composerRows(h)).toEqual(['❯ echo hi', '  '])
  })
})

describe('line-editing keys', () => {
  test('Ctrl+U deletes from the start of the line to the cursor', async () => {
    const h = await createHarness()
    await h.type('hello world' + LEFT.repeat(5) + CTRL_U)
    expect(composerRows(h)).toEqual(['❯ world'])
    expect(h.cursor()).toEqual({ x: 2, y: composerTop(h) })
  })

  test('Ctrl+K deletes from the cursor to the end of the line', async () => {
    const h = await createHarness()
    await h.type('hello world' + HOME + RIGHT.repeat(5) + CTRL_K)
    expect(composerRows(h)).toEqual(['❯ hello'])
    expect(h.cursor()).toEqual({ x: 7, y: composerTop(h) })
  })

  test('Ctrl+W deletes the word before the cursor', async () => {
    const h = await createHarness()
    await h.type('hello big world' + CTRL_W)
    expect(composerRows(h)).toEqual(['❯ hello big '])
    expect(h.cursor()).toEqual({ x: 12, y: composerTop(h) })
    await h.type(CTRL_W)
    expect(composerRows(h)).toEqual(['❯ hello '])
    expect(h.cursor()).toEqual({ x: 8, y: composerTop(h) })
    await h.type(CTRL_W)
    expect(composerRows(h)).toEqual(['❯ '])
    expect(h.cursor()).toEqual({ x: 2, y: composerTop(h) })
  })

  test('a backslash before Enter continues the prompt on a new line instead of sending it', async () => {
    const h = await createHarness()
    await h.type('first\\\rsecond')
    expect(h.allOf('model_request')).toEqual([])
    expect(composerRows(h)).toEqual(['❯ first', '  second'])
  })

  test('Ctrl+C clears a draft and Enter on an empty composer sends nothing', async () => {
    const h = await createHarness()
    await h.type('never mind\x03')
    expect(composerRows(h)).toEqual(['❯ '])
    await h.type('\r   \r')
    expect(h.allOf('model_request')).toEqual([])
  })
})

describe('resizing', () => {
  const prompts = (lines: string[]) => lines.filter((line) => line.startsWith('❯ '))
  const statuses = (lines: string[]) => lines.filter((line) => line.startsWith('  auto · demo · '))

  test('narrower then wider leaves exactly one composer row and one status line on screen', async () => {
    const h = await createHarness({ cols: 80, rows: 24 })
    await h.type('hello there')

    await h.resize(40, 24)
    expect(prompts(h.viewport())).toEqual(['❯ hello there'])
    expect(statuses(h.viewport())).toEqual(['  auto · demo · /workspace · /help'])
    expect(footer(h)).toEqual(['─'.repeat(40), '❯ hello there', '─'.repeat(40), '  auto · demo · /workspace · /help'])
    expect(h.cursor()).toEqual({ x: 13, y: composerTop(h) })

    await h.resize(80, 24)
    expect(prompts(h.viewport())).toEqual(['❯ hello there'])
    expect(statuses(h.viewport())).toEqual(['  auto · demo · /workspace · /help'])
    expect(footer(h)).toEqual(['─'.repeat(80), '❯ hello there', '─'.repeat(80), '  auto · demo · /workspace · /help'])
    expect(h.cursor()).toEqual({ x: 13, y: composerTop(h) })
  })

  test('a wrapped draft re-wraps to the new width with one composer and one status line', async () => {
    const h = await createHarness({ cols: 60, rows: 24 })
    await h.type('the quick brown fox jumps over the lazy dog again and again')
    expect(composerRows(h)).toEqual(['❯ the quick brown fox jumps over the lazy dog again and aga', '  in'])

    await h.resize(40, 24)
    expect(composerRows(h)).toEqual(['❯ the quick brown fox jumps over the la', '  zy dog again and again'])
    expect(prompts(h.viewport())).toHaveLength(1)
    expect(statuses(h.viewport())).toHaveLength(1)
    expect(h.cursor()).toEqual({ x: 24, y: composerTop(h) + 1 })

    await h.resize(100, 24)
    expect(composerRows(h)).toEqual(['❯ the quick brown fox jumps over the lazy dog again and again'])
    expect(prompts(h.viewport())).toHaveLength(1)
    expect(statuses(h.viewport())).toHaveLength(1)
    expect(h.cursor()).toEqual({ x: 61, y: composerTop(h) })
  })

  test('resizing during a turn keeps one spinner, one composer and one status line', async () => {
    const h = await createHarness({ cols: 80, rows: 24 })
    await h.type('go\r')
    await h.model(1, { type: 'text_delta', delta: 'a reply still streaming' })
    await h.resize(50, 24)
    await h.resize(80, 24)
    const lines = h.viewport()
    expect(lines.filter((line) => line.startsWith('⠋ Thinking…'))).toEqual(['⠋ Thinking… (0s · esc to interrupt)'])
    expect(lines.filter((line) => line.startsWith('● '))).toEqual(['● a reply still streaming'])
    expect(statuses(lines)).toHaveLength(1)
    expect(footer(h)).toEqual(['─'.repeat(80), '❯ ', '─'.repeat(80), '  auto · demo · /workspace · /help'])
  })
})
