// A phone: Playwright's Pixel 7 emulation (touch, a narrow viewport, a coarse pointer).
import { devices, type Page } from '@playwright/test'
import type { Terminal } from '@xterm/xterm'
import { test, expect } from '../support/fixtures.ts'
import { openDemo } from '../support/app.ts'
import { readComposer, readScreen, waitForComposer, waitForScreen } from '../support/screen.ts'

const { defaultBrowserType: _, ...pixel } = devices['Pixel 7']!
test.use(pixel)

type FxWindow = Window & { fxterm: { term: Terminal } }

const keyRow = (page: Page) => page.getByRole('toolbar', { name: 'Terminal keys' })
const tapKey = (page: Page, name: string) => keyRow(page).getByRole('button', { name, exact: true }).tap()

test('the terminal fits the phone, a tap brings up the keyboard, and the key row sends Esc, Ctrl+C, arrows and Enter', async ({ page }) => {
  await openDemo(page)
  const fit = await page.evaluate(() => {
    const term = (window as unknown as FxWindow).fxterm.term
    const box = term.element!.getBoundingClientRect()
    return { overflow: document.documentElement.scrollWidth - innerWidth, right: box.right, width: innerWidth, cols: term.cols }
  })
  expect(fit.overflow).toBeLessThanOrEqual(0)
  expect(fit.right).toBeLessThanOrEqual(fit.width)
  expect(fit.cols).toBeGreaterThanOrEqual(20)
  await expect(keyRow(page)).toBeVisible()

  await page.locator('.xterm-screen').tap()
  // The hidden textarea has focus: that is what brings up a phone's keyboard.
  expect(await page.evaluate(() => document.activeElement?.classList.contains('xterm-helper-textarea'))).toBe(true)
  await page.keyboard.type('ab')
  await waitForComposer(page, 'ab')
  await tapKey(page, 'Left')
  await page.keyboard.type('X')
  await waitForComposer(page, 'aXb')
  await tapKey(page, 'Control C')
  await expect.poll(async () => (await readComposer(page))?.trim()).toBe('❯')
  expect(await page.evaluate(() => document.activeElement?.classList.contains('xterm-helper-textarea'))).toBe(true)

  await page.keyboard.type('/version')
  await tapKey(page, 'Send')
  await waitForScreen(page, /fxterm \d+\.\d+\.\d+ · engine ABI/)
})

test('IME composition through the hidden textarea reaches the composer', async ({ page }) => {
  await openDemo(page)
  await page.locator('.xterm-screen').tap()
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Input.imeSetComposition', { text: 'にほ', selectionStart: 2, selectionEnd: 2 })
  await cdp.send('Input.imeSetComposition', { text: 'にほん', selectionStart: 3, selectionEnd: 3 })
  await cdp.send('Input.insertText', { text: '日本' })
  await waitForComposer(page, '日本')
})

test('a touch swipe scrolls back through the transcript', async ({ page }) => {
  await openDemo(page)
  for (let i = 0; i < 3; i++) {
    await page.locator('.xterm-screen').tap()
    await page.keyboard.type('/help')
    await tapKey(page, 'Send')
  }
  // All three answers in (most of them in the scrollback), and the view at the bottom.
  const helpAnswers = async () => (await readScreen(page)).split('Drop files onto the terminal').length - 1
  await expect.poll(helpAnswers).toBe(3)
  const viewportY = () => page.evaluate(() => (window as unknown as FxWindow).fxterm.term.buffer.active.viewportY)
  const bottom = await viewportY()
  expect(bottom).toBeGreaterThan(20)
  const box = (await page.locator('.xterm-screen').boundingBox())!
  const cdp = await page.context().newCDPSession(page)
  // A finger dragged down the terminal, as the touchscreen reports it.
  const x = box.x + box.width / 2
  const from = box.y + box.height / 4
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y: from }] })
  for (let step = 1; step <= 10; step++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: from + step * 30 }] })
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
  await expect.poll(viewportY).toBeLessThan(bottom)
})
