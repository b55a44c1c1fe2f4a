// Reads and drives the terminal the way a user sees it. The engine draws into an xterm.js
// canvas, so the DOM holds no text: the buffer exposed as `window.fxterm.term` is the truth.
import { expect, type Page } from '@playwright/test'
import type { Terminal } from '@xterm/xterm'

/** What the page exposes for tests (and the bench): the terminal, plus an app runtime we don't rely on. */
type FxWindow = Window & { fxterm?: { term: Terminal; runtime?: unknown } }

const POLL = { intervals: [50, 100, 200] }

/** Waits until the page has created its terminal. */
export async function waitForTerminal(page: Page, timeout = 15_000): Promise<void> {
  await page.waitForFunction(() => Boolean((window as FxWindow).fxterm?.term), undefined, { timeout })
}

/**
 * The lines of a buffer range, with soft-wrapped rows joined back into one logical line so
 * long transcript text can be matched whatever the terminal width.
 */
async function readLines(page: Page, which: 'all' | 'screen'): Promise<string[]> {
  return page.evaluate((range) => {
    const term = (window as FxWindow).fxterm?.term
    if (!term) return []
    const buffer = term.buffer.active
    const start = range === 'all' ? 0 : buffer.baseY
    const end = range === 'all' ? buffer.length : Math.min(buffer.length, buffer.baseY + term.rows)
    const lines: string[] = []
    for (let i = start; i < end; i++) {
      const line = buffer.getLine(i)
      if (!line) continue
      // Keep trailing spaces of a row that continues on the next one: they are part of the text.
      const text = line.translateToString(!buffer.getLine(i + 1)?.isWrapped)
      if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text
      else lines.push(text)
    }
    return lines
  }, which)
}

/** Every line, scrollback included, joined with '\n'. */
export async function readScreen(page: Page): Promise<string> {
  return (await readLines(page, 'all')).join('\n')
}

/** Only the rows currently on screen (the bottom of the buffer), top to bottom. */
export async function readViewport(page: Page): Promise<string[]> {
  return readLines(page, 'screen')
}

/** Polls until the whole buffer contains the text (or matches the regex); returns that screen. */
export async function waitForScreen(page: Page, expected: string | RegExp, timeout = 15_000): Promise<string> {
  let last = ''
  const poll = expect.poll(async () => (last = await readScreen(page)), { ...POLL, timeout, message: `screen shows ${String(expected)}` })
  if (typeof expected === 'string') await poll.toContain(expected)
  else await poll.toMatch(expected)
  return last
}

/**
 * The composer row: the last on-screen line beginning with `❯ ` (earlier ones are submitted
 * prompts). An empty composer reads as a bare `❯`, since trailing spaces are trimmed.
 */
export async function readComposer(page: Page): Promise<string | undefined> {
  const lines = await readViewport(page)
  for (let i = lines.length - 1; i >= 0; i--) if (/^❯( |$)/.test(lines[i] ?? '')) return lines[i]
  return undefined
}

/**
 * The status line region: the rows below the composer (the engine draws composer and status
 * together under the transcript, so "bottom" is relative to the composer, not to the screen).
 */
export async function readStatus(page: Page): Promise<string> {
  const lines = await readViewport(page)
  let composer = -1
  for (let i = lines.length - 1; i >= 0 && composer === -1; i--) if (/^❯( |$)/.test(lines[i] ?? '')) composer = i
  if (composer === -1) return ''
  return lines
    .slice(composer + 1)
    .filter((line) => line.trim() !== '')
    .join('\n')
}

/** Polls until the composer row shows exactly `❯ <text>` (ignoring trailing spaces). */
export async function waitForComposer(page: Page, text: string, timeout = 10_000): Promise<void> {
  await expect
    .poll(async () => (await readComposer(page))?.trimEnd(), { ...POLL, timeout, message: `composer shows ❯ ${text}` })
    .toBe(`❯ ${text}`.trimEnd())
}

/** Focuses xterm's hidden textarea (where keystrokes go) and types like a user. */
export async function typeInTerminal(page: Page, text: string): Promise<void> {
  await page.locator('.xterm-helper-textarea').focus()
  await page.keyboard.type(text)
}

/** Presses one key or chord in the terminal, in Playwright's notation ('Shift+Enter', 'Control+c'). */
export async function pressKey(page: Page, key: string): Promise<void> {
  await page.locator('.xterm-helper-textarea').focus()
  await page.keyboard.press(key)
}

export async function pressEnter(page: Page): Promise<void> {
  await pressKey(page, 'Enter')
}

/** Types a prompt, waits for it to echo in the composer, then submits it. */
export async function submitPrompt(page: Page, prompt: string): Promise<void> {
  await typeInTerminal(page, prompt)
  await waitForComposer(page, prompt)
  await pressEnter(page)
}

/** Index of the first line (after `from`) that matches, or -1. */
export function findLine(lines: string[], matcher: string | RegExp, from = 0): number {
  for (let i = from; i < lines.length; i++) {
    const line = lines[i] ?? ''
    if (typeof matcher === 'string' ? line.includes(matcher) : matcher.test(line)) return i
  }
  return -1
}

/**
 * Types a slash command and runs it with Enter. While the draft is a bare "/word" the engine
 * shows its command menu under the composer, and the menu's selected row also starts with "❯ ",
 * so the echo is awaited as any on-screen row reading exactly `❯ <command>`, not as the last one.
 */
export async function runSlashCommand(page: Page, command: string, timeout = 10_000): Promise<void> {
  await typeInTerminal(page, command)
  await expect
    .poll(async () => (await readViewport(page)).some((line) => line.trimEnd() === `❯ ${command}`), { ...POLL, timeout, message: `composer shows ❯ ${command}` })
    .toBe(true)
  await pressEnter(page)
}

/**
 * Double-clicks a word on screen, as a person selects it: finds its cell in the viewport and
 * clicks the middle of that cell on the terminal's screen element.
 */
export async function doubleClickWord(page: Page, word: string): Promise<void> {
  const cell = await page.evaluate((word) => {
    const term = (window as FxWindow).fxterm?.term
    if (!term) return null
    const buffer = term.buffer.active
    for (let row = 0; row < term.rows; row++) {
      const col = buffer.getLine(buffer.viewportY + row)?.translateToString(true).indexOf(word) ?? -1
      if (col >= 0) return { row, col: col + Math.floor(word.length / 2), cols: term.cols, rows: term.rows }
    }
    return null
  }, word)
  if (!cell) throw new Error(`"${word}" is not on screen`)
  const box = await page.locator('.xterm-screen').first().boundingBox()
  if (!box) throw new Error('no terminal screen')
  const x = box.x + ((cell.col + 0.5) * box.width) / cell.cols
  const y = box.y + ((cell.row + 0.5) * box.height) / cell.rows
  await page.mouse.dblclick(x, y)
}
