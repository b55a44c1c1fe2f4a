// The first minutes on a phone (Playwright's Pixel 7: 412 px wide): the first screen says what
// to try, and the /model picker is readable: every description whole (wrapped, never cut with
// "…"), this machine's servers without scrolling, deepseek saying it needs a proxy, and the
// selection on screen as it moves down the list.
import { devices } from '@playwright/test'
import { test, expect } from '../support/fixtures.ts'
import { openDemo } from '../support/app.ts'
import { pressKey, readViewport, runSlashCommand, waitForScreen } from '../support/screen.ts'

const { defaultBrowserType: _, ...pixel } = devices['Pixel 7']!
test.use(pixel)

const flat = (rows: string[]) => rows.join(' ').replace(/\s+/g, ' ')

test('the first screen says what to try', async ({ page }) => {
  await openDemo(page)
  await waitForScreen(page, 'Try "what')
  const text = flat(await readViewport(page))
  expect(text).toContain('Try "what\'s in this project?", "count the cities per country", !ls, /model.')
})

test('the /model picker on a phone: descriptions whole, local servers in sight, the selection followed', async ({ page }) => {
  await openDemo(page)
  await runSlashCommand(page, '/model')
  await waitForScreen(page, 'Choose where')
  const rows = await readViewport(page)
  const picker = rows.slice(rows.findIndex((row) => row.includes('Choose where')) + 1)
  const text = flat(picker)
  // Whole sentences, however narrow the screen.
  expect(text).toContain('openai paste a key, then pick a model')
  expect(text).toContain('ollama on this machine (localhost:11434)')
  expect(text).toContain('another server type its URL next')
  expect(picker.filter((row) => row.includes('…'))).toEqual([])
  // Down the list to deepseek: it stays in sight, and says what choosing it would mean.
  for (let i = 0; i < 12; i++) await pressKey(page, 'ArrowDown')
  await expect.poll(async () => (await readViewport(page)).some((row) => row.startsWith('❯ deepseek'))).toBe(true)
  expect(flat(await readViewport(page))).toContain('deepseek needs a proxy: see docs/providers.md, "Hosted APIs from a browser page"')
})
