import { test, expect } from '../support/fixtures.ts'
import { BANNER, openDemo } from '../support/app.ts'
import { readScreen, readStatus, typeInTerminal, waitForComposer } from '../support/screen.ts'

test('the page shows the banner and the demo provider in the status line', async ({ page }) => {
  await openDemo(page)
  const lines = (await readScreen(page)).split('\n')
  expect(lines.some((line) => BANNER.test(line)), 'one line holds both "fxterm" and "Run /help for commands"').toBe(true)
  // Read from the status line itself: the banner also says "offline demo".
  await expect.poll(() => readStatus(page)).toContain('demo')
})

test('typing echoes in the composer after the prompt sign', async ({ page }) => {
  await openDemo(page)
  await typeInTerminal(page, 'hello there')
  await waitForComposer(page, 'hello there')
})
