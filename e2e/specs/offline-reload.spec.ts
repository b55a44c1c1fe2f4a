// After one visit, the page and its demo work with the network off: the optional offline shell
// (public/sw.js) keeps what the visit loaded.
import type { Page } from '@playwright/test'
import { test, expect } from '../support/fixtures.ts'
import { openDemo } from '../support/app.ts'
import { readScreen, submitPrompt, waitForScreen } from '../support/screen.ts'

test.use({ serviceWorkers: 'allow' })

const PROMPT = "what's in this project?"

/** Waits until the offline shell controls the page and holds the bash worker and the demo tape. */
async function waitForShell(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, { timeout: 20_000 })
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const keys = await (await caches.open('fxterm-shell-v1')).keys()
          return keys.map((request) => new URL(request.url).pathname)
        }),
      { timeout: 40_000, intervals: [500] },
    )
    .toEqual(expect.arrayContaining([expect.stringMatching(/bash-worker/), expect.stringMatching(/tour\.json$/), expect.stringMatching(/engine\.wasm$/)]))
}

test('with the network off after a first visit, the page loads and the demo runs a command', async ({ page, context }) => {
  await openDemo(page)
  await submitPrompt(page, PROMPT)
  await waitForScreen(page, 'Ran ', 20_000)
  await waitForShell(page)

  await context.setOffline(true)
  await page.goto('/?offline=1')
  // The reload resumes the first visit's session: its command rows are on screen already.
  await waitForScreen(page, `Session resumed: ${PROMPT}`)
  const ranRows = async () => (await readScreen(page)).split('\n').filter((line) => line.startsWith('● Ran ')).length
  const before = await ranRows()
  expect(before).toBeGreaterThan(0)
  await submitPrompt(page, PROMPT)
  await expect.poll(ranRows, { timeout: 30_000 }).toBeGreaterThan(before)
})
