// A phone (Playwright's Pixel 7: touch, a coarse pointer, 412×839): the key row sits under the
// terminal's rows, never over the status line, and the composer stays in sight when the
// on-screen keyboard opens.
import { devices, type Page } from '@playwright/test'
import type { Terminal } from '@xterm/xterm'
import { test, expect } from '../support/fixtures.ts'
import { openDemo } from '../support/app.ts'
import { readViewport, waitForScreen } from '../support/screen.ts'

const { defaultBrowserType: _, ...pixel } = devices['Pixel 7']!
test.use(pixel)

type FxWindow = Window & { fxterm: { term: Terminal } }
type Box = { top: number; bottom: number }

const keyRow = (page: Page) => page.getByRole('toolbar', { name: 'Terminal keys' })

/** The on-screen box of the terminal row (0 = top of the screen) whose text matches `pattern`, the last such row. */
async function rowBox(page: Page, pattern: RegExp): Promise<Box & { text: string }> {
  const rows = await readViewport(page)
  let index = -1
  for (let i = rows.length - 1; i >= 0 && index === -1; i--) if (pattern.test(rows[i] ?? '')) index = i
  expect(index, `a row matching ${pattern} on screen`).toBeGreaterThanOrEqual(0)
  const box = await page.evaluate((i) => {
    const term = (window as unknown as FxWindow).fxterm.term
    const row = term.element!.querySelectorAll('.xterm-rows > div')[i]!.getBoundingClientRect()
    return { top: row.top, bottom: row.bottom }
  }, index)
  return { ...box, text: rows[index]! }
}

/** The footer as drawn now: the composer's row and the status line (the last row under it). */
async function footerBoxes(page: Page): Promise<{ composer: Box & { text: string }; status: Box & { text: string } }> {
  const rows = await readViewport(page)
  let composerAt = rows.length - 1
  while (composerAt >= 0 && !/^❯( |$)/.test(rows[composerAt] ?? '')) composerAt--
  const statusText = rows.slice(composerAt + 1).filter((row) => row.trim() !== '' && !/^─+$/.test(row)).at(-1)
  if (statusText === undefined) throw new Error(`no status line under the composer:\n${rows.join('\n')}`)
  return { composer: await rowBox(page, /^❯( |$)/), status: await rowBox(page, new RegExp(`^${statusText.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)) }
}

/** Fills the screen so the footer is drawn on the terminal's last rows. */
async function fillScreen(page: Page): Promise<void> {
  await page.locator('.xterm-screen').tap()
  for (let i = 0; i < 2; i++) {
    await page.keyboard.type('/help')
    await keyRow(page).getByRole('button', { name: 'Send', exact: true }).tap()
  }
  await expect.poll(async () => (await readViewport(page)).at(-1)?.trim() ?? '').not.toBe('')
}

test('the key row sits under the status line, never over it', async ({ page }) => {
  await openDemo(page)
  await fillScreen(page)
  const keys = (await keyRow(page).boundingBox())!
  const { status } = await footerBoxes(page)
  expect(status.text).toMatch(/demo/)
  expect(status.bottom).toBeLessThanOrEqual(keys.y)
  // Every row of the terminal ends above the key row, and the key row is on screen.
  const screenBottom = await page.evaluate(() => (window as unknown as FxWindow).fxterm.term.element!.querySelector('.xterm-screen')!.getBoundingClientRect().bottom)
  expect(screenBottom).toBeLessThanOrEqual(keys.y)
  expect(keys.y + keys.height).toBeLessThanOrEqual(page.viewportSize()!.height)
})

test('when the on-screen keyboard opens, the composer and the key row stay above it', async ({ page }) => {
  await openDemo(page)
  await fillScreen(page)
  await page.keyboard.type('still here')
  const full = page.viewportSize()!.height
  // What Chrome on Android does when its keyboard opens: the layout viewport keeps its height and
  // only the visual viewport shrinks (here by a Pixel 7 keyboard's 330 px), with a resize event.
  const visibleBottom = await page.evaluate((keyboard) => {
    const viewport = window.visualViewport!
    const height = innerHeight - keyboard
    Object.defineProperty(viewport, 'height', { configurable: true, get: () => height })
    viewport.dispatchEvent(new Event('resize'))
    return viewport.offsetTop + height
  }, 330)
  expect(visibleBottom).toBeLessThan(full)
  // The terminal refits and redraws after the resize: read the footer once it is drawn anew.
  let boxes: Awaited<ReturnType<typeof footerBoxes>> | null = null
  await expect
    .poll(async () => {
      boxes = await footerBoxes(page).catch(() => null)
      return boxes !== null && boxes.composer.bottom <= visibleBottom
    })
    .toBe(true)
  const { composer, status } = boxes!
  expect(composer.text).toBe('❯ still here')
  expect(composer.top).toBeGreaterThanOrEqual(0)
  const keys = (await keyRow(page).boundingBox())!
  expect(status.bottom).toBeLessThanOrEqual(keys.y)
  expect(keys.y + keys.height).toBeLessThanOrEqual(visibleBottom)
  await waitForScreen(page, 'still here')
})
