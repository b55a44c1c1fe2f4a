// The footer as a person sees it: a divider, the composer's rows, a divider and the status line,
// redrawn in place under the transcript. Specs read it row by row (soft-wrapped rows are not
// joined here), since "drawn once and whole" is a statement about rows.
import { expect, type Page } from '@playwright/test'
import type { Terminal } from '@xterm/xterm'

type FxWindow = Window & { fxterm?: { term: Terminal } }

/** One screen's worth of rows, and which buffer (normal or alternate) they came from. */
export type ScreenRows = { rows: string[]; cols: number; buffer: 'normal' | 'alternate' }

/** A row that is only divider line; the engine draws its dividers the terminal's full width. */
export const DIVIDER = /^─+$/

/** The rows on screen right now, top to bottom, trailing spaces trimmed (written blanks too). */
export async function readRows(page: Page): Promise<ScreenRows> {
  return page.evaluate(() => {
    const term = (window as FxWindow).fxterm?.term
    if (!term) throw new Error('window.fxterm.term is missing')
    const buffer = term.buffer.active
    const rows: string[] = []
    for (let i = buffer.viewportY; i < buffer.viewportY + term.rows; i++) rows.push((buffer.getLine(i)?.translateToString(true) ?? '').trimEnd())
    return { rows, cols: term.cols, buffer: buffer.type }
  })
}

/**
 * Where divider rows are in the whole buffer, scrollback included: their row numbers, the first
 * row on screen, and each one with the rows around it (to say where a stray one came from).
 */
export async function findDividerRows(page: Page): Promise<{ rows: number[]; screenTop: number; context: string }> {
  return page.evaluate((source) => {
    const term = (window as FxWindow).fxterm?.term
    if (!term) throw new Error('window.fxterm.term is missing')
    const divider = new RegExp(source)
    const buffer = term.buffer.active
    const text = (i: number) => (buffer.getLine(i)?.translateToString(true) ?? '').trimEnd()
    const rows: number[] = []
    for (let i = 0; i < buffer.length; i++) if (divider.test(text(i))) rows.push(i)
    const context = rows
      .map((at) => {
        const around: string[] = []
        for (let i = Math.max(0, at - 2); i <= Math.min(buffer.length - 1, at + 2); i++) around.push(`${String(i).padStart(5)}${i === at ? '>' : ' '} ${text(i)}`)
        return around.join('\n')
      })
      .join('\n  ...\n')
    return { rows, screenTop: buffer.baseY, context }
  }, DIVIDER.source)
}

/** The whole buffer, scrollback included, holds the two divider rows of one footer and no old ones. */
export async function expectOneFooterInBuffer(page: Page, when = ''): Promise<void> {
  const found = await findDividerRows(page)
  expect(found.rows.length, `divider rows in the whole buffer ${when} (screen starts at row ${found.screenTop}):\n${found.context}`).toBe(2)
}

export type Footer = {
  /** Rows between the two dividers: the draft, `❯ ` first. */
  composer: string[]
  /** The row under the second divider. */
  status: string
  /** Non-blank rows under the status line: a footer drawn once has none. */
  below: string[]
}

/**
 * Reads the footer off the screen rows, or says what is wrong with it: it must have exactly two
 * divider rows, each the full width, with the composer between them and a status line under them.
 */
export function parseFooter(screen: ScreenRows): Footer | string {
  const at = screen.rows.flatMap((row, i) => (DIVIDER.test(row) ? [i] : []))
  if (at.length !== 2) return `expected 2 divider rows on screen, found ${at.length}`
  const [top, bottom] = at as [number, number]
  for (const i of at) {
    const width = screen.rows[i]?.length ?? 0
    if (width !== screen.cols) return `divider row ${i} is ${width} wide, the terminal ${screen.cols}`
  }
  const composer = screen.rows.slice(top + 1, bottom)
  if (!/^❯( |$)/.test(composer[0] ?? '')) return `the row under the first divider is not the composer: ${JSON.stringify(composer[0])}`
  const status = screen.rows[bottom + 1] ?? ''
  if (status.trim() === '') return 'no status line under the second divider'
  const below = screen.rows.slice(bottom + 2).filter((row) => row.trim() !== '')
  return { composer, status, below }
}

/** Polls until the screen shows one whole footer (the engine redraws it a frame or more after a change). */
export async function waitForFooter(page: Page, timeout = 10_000): Promise<Footer> {
  let last: ScreenRows | undefined
  await expect
    .poll(
      async () => {
        last = await readRows(page)
        const footer = parseFooter(last)
        return typeof footer === 'string' ? `${footer} in:\n${last.rows.join('\n')}` : 'ok'
      },
      { intervals: [50, 100, 200], timeout, message: 'the screen shows one whole footer' },
    )
    .toBe('ok')
  return parseFooter(last as ScreenRows) as Footer
}

/** The composer's rows as drawn between the dividers (the first one starts with `❯`). */
export async function readComposerRows(page: Page): Promise<string[]> {
  const footer = parseFooter(await readRows(page))
  return typeof footer === 'string' ? [] : footer.composer
}
