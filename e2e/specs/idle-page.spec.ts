// A page left open does no work while nothing happens: on a phone or a laptop on battery, a tab
// that redraws itself all the time is heat and a shorter day. Chromium's own counters (CDP
// Performance metrics) say how often the page recalculated style: a blinking cursor drawn by a
// CSS animation alone did it at every frame (about 60 times a second).
import { test, expect } from '../support/fixtures.ts'
import { openDemo } from '../support/app.ts'
import { typeInTerminal, waitForComposer } from '../support/screen.ts'

/** How long the page is watched doing nothing. */
const WATCH_MS = 2_000

test('a focused page that is waiting for a prompt recalculates no style and lays nothing out', async ({ page }) => {
  await openDemo(page)
  // The shell up, and a key typed: the terminal has focus and its cursor where a person sees it.
  await page.evaluate(() => (window as unknown as { fxterm: { workspace: { exec(input: object): Promise<unknown> } } }).fxterm.workspace.exec({ command: 'true' }))
  await typeInTerminal(page, 'x')
  await waitForComposer(page, 'x')
  expect(await page.evaluate(() => document.hasFocus() && document.activeElement?.classList.contains('xterm-helper-textarea'))).toBe(true)

  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Performance.enable')
  const counters = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics')
    const value = (name: string) => metrics.find((metric) => metric.name === name)?.value ?? 0
    return { styles: value('RecalcStyleCount'), layouts: value('LayoutCount') }
  }
  const before = await counters()
  await new Promise((resolve) => setTimeout(resolve, WATCH_MS))
  const after = await counters()
  // A stray one (a late font, a status tick) is not what this is about; a frame-by-frame
  // animation would be dozens.
  expect(after.styles - before.styles, 'style recalculations in 2 s of an idle page').toBeLessThanOrEqual(3)
  expect(after.layouts - before.layouts, 'layouts in 2 s of an idle page').toBeLessThanOrEqual(3)
})
