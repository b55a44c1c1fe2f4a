// Keys that stop things: Esc and Ctrl+C during a slowly streaming reply; no key ends the session
// (only /exit does). The mock server's stream log shows the request was really abandoned.
import type { Page } from '@playwright/test'
import { test, expect } from '../support/fixtures.ts'
import { openDemo, openWithMock } from '../support/app.ts'
import { finish, roleChunk, textDelta, usage } from '../support/chunks.ts'
import { readStatus, readViewport, pressKey, readScreen, runSlashCommand, submitPrompt, typeInTerminal, waitForComposer, waitForScreen } from '../support/screen.ts'

const INTERRUPTED = 'Interrupted · tell fxterm what to do instead'
const EXIT_HINT = '/exit ends the session'
const SESSION_ENDED = 'Session ended · reload the page to start again'
/** Shown on the activity row while a turn runs. */
const RUNNING = 'esc to interrupt'

/** A reply of 60 words, one every 100 ms: six seconds, far longer than the spec waits. */
const SLOW_REPLY = {
  chunks: [roleChunk(), ...Array.from({ length: 60 }, (_, i) => textDelta(`word${i} `)), finish('stop'), usage()],
  intervalMs: 100,
}

type ExitWindow = Window & { fxterm?: { runtime: { exited: Promise<number> } } }

/** Starts the slow reply and waits until its first words are on screen. */
async function startSlowTurn(page: Page): Promise<void> {
  await submitPrompt(page, 'tell me a long story')
  await waitForScreen(page, 'word2')
  expect((await readViewport(page)).some((row) => row.includes(RUNNING)), 'the activity row shows while streaming').toBe(true)
}

/** The turn is over: the notice is there, the rest of the reply never came, the stream was dropped. */
async function expectInterrupted(page: Page, mock: { streams(): Promise<Array<{ outcome: string }>> }): Promise<void> {
  await waitForScreen(page, INTERRUPTED)
  await expect.poll(async () => (await mock.streams()).map((stream) => stream.outcome), 'the page dropped the model stream').toEqual(['aborted'])
  expect(await readScreen(page)).not.toContain('word59')
  await expect.poll(async () => (await readViewport(page)).some((row) => row.includes(RUNNING)), 'the activity row is gone').toBe(false)
  expect(await readScreen(page)).not.toContain(SESSION_ENDED)
  await typeInTerminal(page, 'what next')
  await waitForComposer(page, 'what next')
}

test('Esc during a streaming reply stops the turn and says so', async ({ page, mock }) => {
  await mock.script(SLOW_REPLY)
  await openWithMock(page, mock)
  await startSlowTurn(page)

  await pressKey(page, 'Escape')
  await expectInterrupted(page, mock)
})

test('Ctrl+C during a streaming reply stops the turn and says so', async ({ page, mock }) => {
  await mock.script(SLOW_REPLY)
  await openWithMock(page, mock)
  await startSlowTurn(page)

  await pressKey(page, 'Control+c')
  await expectInterrupted(page, mock)
})

test('Ctrl+C on an idle composer never ends the session; it says /exit does', async ({ page }) => {
  await openDemo(page)

  await pressKey(page, 'Control+c')
  await expect.poll(() => readStatus(page)).toContain(EXIT_HINT)
  await pressKey(page, 'Control+c')
  await pressKey(page, 'Control+d')
  await typeInTerminal(page, 'still here')
  await waitForComposer(page, 'still here')
  expect(await readScreen(page)).not.toContain(SESSION_ENDED)

  await pressKey(page, 'Control+c')
  await waitForComposer(page, '')
  await runSlashCommand(page, '/exit')
  await waitForScreen(page, SESSION_ENDED)
  const code = await page.evaluate(() => (window as ExitWindow).fxterm?.runtime.exited)
  expect(code).toBe(0)
})

test('Ctrl+C clears a draft and the footer says how to exit, for a while', async ({ page }) => {
  await openDemo(page)
  await typeInTerminal(page, 'never mind')
  await waitForComposer(page, 'never mind')

  await pressKey(page, 'Control+c')
  await waitForComposer(page, '')
  await expect.poll(() => readStatus(page)).toContain(EXIT_HINT)
  // The hint lasts 3 s, then the status row is back.
  await expect.poll(() => readStatus(page), { timeout: 6_000 }).not.toContain(EXIT_HINT)
  expect(await readScreen(page)).not.toContain(SESSION_ENDED)
})
