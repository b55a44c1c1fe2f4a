// Resizing keeps the whole transcript (issue 32): a reply with a table that ended "End of table."
// lost that line (once the table's bottom border too) after the window went from 1100 to 500 px,
// and it did not come back at 1100. Every resize now lays the transcript out again from the
// engine's own record; these read the xterm buffer back after each size, with a table, a code
// block, a list and a reply still streaming, and down to about 20 columns.
import type { Page } from '@playwright/test'
import { test, expect } from '../support/fixtures.ts'
import { openWithMock } from '../support/app.ts'
import { finish, roleChunk, textDelta, usage } from '../support/chunks.ts'
import { readRows, waitForFooter } from '../support/footer.ts'
import { submitPrompt, waitForScreen } from '../support/screen.ts'

type FxWindow = Window & { fxterm?: { term: import('@xterm/xterm').Terminal } }

const TABLE = [
  'Here is how each city greets you:',
  '',
  '| City | Greeting | How people say it in the street |',
  '| --- | --- | --- |',
  '| Lisbon | Olá | warmly, often with a kiss on each cheek among friends |',
  '| Tokyo | Konnichiwa | with a small bow; in shops you hear irasshaimase |',
  '',
  'End of table.',
].join('\n')

const CODE = [
  'The greeter:',
  '',
  '```js',
  "export function greet(city, name) { return `${greetings[city] ?? 'Hello'}, ${name}! Welcome to ${city}.` }",
  '```',
  '',
  '- a list item long enough to wrap when the window is narrow, keeping its indent under the text',
  '- a second item',
  '',
  'End of code.',
].join('\n')

const STREAM_FIRST = 'A reply still streaming: this sentence is long enough to wrap at five hundred pixels wide.\n\nHeld here'
const STREAM_REST = ' and then it ends.\n\nEnd of stream.'

/** Every row of the buffer (scrollback included) as drawn, and how many are soft-wrapped by xterm. */
async function bufferRows(page: Page): Promise<{ rows: string[]; wrapped: number; cols: number }> {
  return page.evaluate(() => {
    const term = (window as FxWindow).fxterm!.term
    const buffer = term.buffer.normal
    const rows: string[] = []
    let wrapped = 0
    for (let i = 0; i < buffer.length; i++) {
      const line = buffer.getLine(i)
      if (line?.isWrapped) wrapped++
      rows.push((line?.translateToString(true) ?? '').trimEnd())
    }
    return { rows, wrapped, cols: term.cols }
  })
}

/** The transcript: the rows above the footer's top divider (the live region's blank rows dropped). */
function transcript(rows: string[]): string[] {
  const top = rows.findIndex((row) => /^─+$/.test(row))
  const body = rows.slice(0, top < 0 ? rows.length : top)
  while (body.length && (body.at(-1) === '' || /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /.test(body.at(-1)!))) body.pop()
  return body
}

const count = (rows: string[], pattern: RegExp) => rows.filter((row) => pattern.test(row)).length

/** Resizes the viewport and waits for the terminal's new width and a whole footer drawn for it. */
async function resizeTo(page: Page, width: number, height = 700): Promise<number> {
  const before = (await readRows(page)).cols
  await page.setViewportSize({ width, height })
  await expect.poll(async () => (await readRows(page)).cols, `the terminal refits to ${width} px`).not.toBe(before)
  await waitForFooter(page)
  // the footer is drawn in the same frame as the transcript; wait until the frame is parsed
  await expect.poll(async () => transcript((await bufferRows(page)).rows).some((row) => row.includes('End of table.'))).toBe(true)
  return (await readRows(page)).cols
}

/** What a person would miss or see twice, at the width the terminal has now. */
async function expectWhole(page: Page, when: string, streamEnded: boolean): Promise<string[]> {
  const { rows, wrapped, cols } = await bufferRows(page)
  const body = transcript(rows)
  const context = `${when} (${cols} columns):\n${body.join('\n')}`
  expect(count(body, /End of table\./), context).toBe(1)
  expect(count(body, /┌/), `the table's top border, ${context}`).toBe(1)
  expect(count(body, /└/), `the table's bottom border, ${context}`).toBe(1)
  expect(count(body, /End of code\./), context).toBe(1)
  expect(count(body, /^\s*• /), `list items, ${context}`).toBe(2)
  expect(count(body, /Held here/), context).toBe(1)
  expect(count(body, /End of stream\./), context).toBe(streamEnded ? 1 : 0)
  expect(count(body, /^❯ /), `prompts, ${context}`).toBe(3)
  // Laid out by the engine for this width: no row is longer, none was wrapped by xterm.
  expect(wrapped, `rows xterm wrapped itself, ${context}`).toBe(0)
  for (const row of body) expect(row.length, `a row wider than the terminal, ${context}`).toBeLessThanOrEqual(cols)
  return body
}

test('1100 → 500 → 1100 px keeps a table, a code block and a streaming reply, every line once', async ({ page, mock }) => {
  await page.setViewportSize({ width: 1100, height: 700 })
  await mock.script(
    { chunks: [roleChunk(), textDelta(TABLE), finish('stop'), usage()] },
    { chunks: [roleChunk(), textDelta(CODE), finish('stop'), usage()] },
    { chunks: [roleChunk(), textDelta(STREAM_FIRST), textDelta(STREAM_REST), finish('stop'), usage()], holdAfter: 2 },
  )
  await openWithMock(page, mock)
  await submitPrompt(page, 'a table please')
  await waitForScreen(page, 'End of table.')
  await waitForFooter(page)
  await submitPrompt(page, 'now some code')
  await waitForScreen(page, 'End of code.')
  await submitPrompt(page, 'and a long reply')
  await waitForScreen(page, 'Held here')
  expect(await mock.held()).toBe(1)

  const wide = await expectWhole(page, 'at 1100 px, before any resize', false)
  await resizeTo(page, 500)
  await expectWhole(page, 'at 500 px', false)
  await resizeTo(page, 1100)
  expect(await expectWhole(page, 'back at 1100 px', false), 'back at 1100 px the transcript is drawn as before').toEqual(wide)

  // The stream goes on after the resizes, and ends where it would have.
  expect(await mock.release()).toBe(1)
  await waitForScreen(page, 'End of stream.')
  await waitForFooter(page)
  const ended = await expectWhole(page, 'after the stream ended', true)
  await resizeTo(page, 500)
  await resizeTo(page, 1100)
  expect(await expectWhole(page, 'ended, 1100 → 500 → 1100 px', true)).toEqual(ended)
})

test('at about 20 columns the whole transcript is still there, and comes back whole', async ({ page, mock }) => {
  await page.setViewportSize({ width: 1100, height: 700 })
  await mock.script(
    { chunks: [roleChunk(), textDelta(TABLE), finish('stop'), usage()] },
    { chunks: [roleChunk(), textDelta(CODE), finish('stop'), usage()] },
    { chunks: [roleChunk(), textDelta(STREAM_FIRST + STREAM_REST), finish('stop'), usage()] },
  )
  await openWithMock(page, mock)
  await submitPrompt(page, 'a table please')
  await waitForScreen(page, 'End of table.')
  await waitForFooter(page)
  await submitPrompt(page, 'now some code')
  await waitForScreen(page, 'End of code.')
  await waitForFooter(page)
  await submitPrompt(page, 'and a long reply')
  await waitForScreen(page, 'End of stream.')
  await waitForFooter(page)
  const wide = await expectWhole(page, 'at 1100 px', true)

  const cols = await resizeTo(page, 185)
  expect(cols, 'the narrow size is about 20 columns').toBeLessThanOrEqual(22)
  await expectWhole(page, 'at about 20 columns', true)
  await resizeTo(page, 1100)
  expect(await expectWhole(page, 'back at 1100 px', true)).toEqual(wide)
})
