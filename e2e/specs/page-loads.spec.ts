import type { Page } from '@playwright/test'
import { test, expect } from '../support/fixtures.ts'
import { BANNER, openDemo } from '../support/app.ts'
import { pressEnter, readScreen, readStatus, typeInTerminal, waitForComposer, waitForScreen, waitForTerminal } from '../support/screen.ts'

test('the page shows the banner and the demo provider in the status line', async ({ page }) => {
  await openDemo(page)
  const lines = (await readScreen(page)).split('\n')
  expect(lines.some((line) => BANNER.test(line)), 'one line holds both "fxterm" and "Run /help for commands"').toBe(true)
  // Read from the status line itself: the banner also says "offline demo".
  await expect.poll(() => readStatus(page)).toContain('demo')
})

test('the shipped page has no sign-in: the first-run row leaves /login out, and /login says what to do instead', async ({ page }) => {
  await openDemo(page)
  const first = await waitForScreen(page, 'No model yet, so this is the offline demo. /model picks a real one: your key,')
  expect(first).not.toContain('/login signs in')
  await typeInTerminal(page, '/login')
  await pressEnter(page)
  await waitForScreen(page, 'Sign-in is not set up on this page: /key <provider> saves an API key')
})

test('typing echoes in the composer after the prompt sign', async ({ page }) => {
  await openDemo(page)
  await typeInTerminal(page, 'hello there')
  await waitForComposer(page, 'hello there')
})

/** Holds engine.wasm (the page and its workers both) until `release` is called. */
async function holdEngine(page: Page): Promise<() => void> {
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.context().route('**/engine.wasm', async (route) => {
    await held
    await route.continue()
  })
  return release
}

/** A prompt of the demo tour, typed before the engine runs. */
const EARLY = "what's in this project?"
const engineHasWritten = (page: Page) => page.evaluate(() => performance.getEntriesByName('fxterm:first-output').length > 0)
const composerRows = async (page: Page) => (await readScreen(page)).split('\n').filter((line) => line.startsWith('❯'))

test('keys typed before the engine has started show at once, and the engine gets every one', async ({ page }) => {
  const release = await holdEngine(page)
  await page.goto('/')
  await waitForTerminal(page)
  await typeInTerminal(page, EARLY)
  await waitForComposer(page, EARLY)
  expect(await engineHasWritten(page), 'shown by the page, the engine still waiting for its wasm').toBe(false)
  release()
  await waitForScreen(page, BANNER)
  await waitForComposer(page, EARLY)
  expect(await composerRows(page), 'the provisional composer is gone, the engine drew its own').toEqual([`❯ ${EARLY}`])
  await pressEnter(page)
  await waitForScreen(page, 'Ran ls -la') // the demo tape's answer to it
})

test('a reload starts from the composer the engine drew last time, at the same place', async ({ page }) => {
  await openDemo(page)
  const drawn = (await readScreen(page)).split('\n')
  const release = await holdEngine(page)
  await page.reload()
  await waitForTerminal(page)
  await typeInTerminal(page, 'ls')
  await waitForComposer(page, 'ls')
  expect(await engineHasWritten(page)).toBe(false)
  const early = (await readScreen(page)).split('\n')
  expect(early.findIndex((line) => line.startsWith('❯')), 'the composer row is where the engine first drew it').toBeGreaterThan(0)
  expect(early.some((line) => /auto · demo/.test(line)), 'the status line of the last visit').toBe(true)
  release()
  await waitForScreen(page, BANNER)
  await waitForComposer(page, 'ls')
  expect(await composerRows(page)).toEqual(['❯ ls'])
  // Polled: xterm.js may parse one large redraw over several frames, and a read between them
  // sees half a screen. What must hold once it settles is one banner, not two.
  const banners = async () => (await readScreen(page)).split('\n').filter((line) => BANNER.test(line)).length
  await expect.poll(banners, { message: 'one banner, as before the reload' }).toBe(drawn.filter((line) => BANNER.test(line)).length)
})

test("the engine worker starts the start-up reads before its host's modules are evaluated", async ({ page }) => {
  await openDemo(page)
  // The worker's marks reach the page with the engine's start (src/shared/start-up-timeline.ts).
  const at = (name: string) => page.evaluate((mark) => performance.getEntriesByName(`fxterm:${mark}`)[0]?.startTime ?? null, name)
  await expect.poll(() => at('worker-host-eval:end'), { message: "the host's modules were evaluated in the worker" }).not.toBeNull()
  const readsStart = await at('worker-reads:start')
  expect(readsStart, 'the reads began (a build that drops worker-begin.ts leaves them to the page)').not.toBeNull()
  expect(readsStart!).toBeLessThan((await at('worker-host-eval:end'))!)
})
