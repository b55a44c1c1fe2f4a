// /resume on the page: the picker lists the saved sessions (titles and turns read from each
// snapshot's header), opens the one chosen, and deletes one after asking; /history clear forgets
// the stored prompts.
import type { Page } from '@playwright/test'
import { test, expect } from '../support/fixtures.ts'
import { BANNER, openWithMock } from '../support/app.ts'
import { textReply } from '../support/chunks.ts'
import { savedPrompts, savedSessions } from '../support/saved-state.ts'
import { pressKey, readScreen, runSlashCommand, submitPrompt, typeInTerminal, waitForComposer, waitForScreen, waitForTerminal } from '../support/screen.ts'

/** The ids of the saved sessions. */
const savedIds = async (page: Page) => (await savedSessions(page)).map((session) => session.id).sort()

/** How many prompts the history database holds (all workspace roots). */
const storedPromptCount = async (page: Page) => (await savedPrompts(page)).length

/** Two sessions: "first topic" (two turns), then after /new "second topic" (one turn). */
async function twoSessions(page: Page, mock: Parameters<typeof openWithMock>[1]): Promise<void> {
  await mock.script({ chunks: textReply('One.') }, { chunks: textReply('Two.') }, { chunks: textReply('Three.') })
  await openWithMock(page, mock)
  await submitPrompt(page, 'first topic')
  await waitForScreen(page, 'One.')
  await submitPrompt(page, 'more on the first topic')
  await waitForScreen(page, 'Two.')
  await runSlashCommand(page, '/new')
  await submitPrompt(page, 'second topic')
  await waitForScreen(page, 'Three.')
  await expect.poll(() => savedIds(page).then((ids) => ids.length)).toBe(2)
}

test('/resume lists the saved sessions with title and turns, and opens the one chosen', async ({ page, mock }) => {
  await twoSessions(page, mock)
  await runSlashCommand(page, '/resume')
  await waitForScreen(page, 'Resume a session')
  await waitForScreen(page, /second topic +just now · 1 turn/)
  await waitForScreen(page, /first topic +just now · 2 turns/)
  await typeInTerminal(page, 'first')
  await pressKey(page, 'Enter')
  await waitForScreen(page, 'Session resumed: first topic')
  expect(await readScreen(page)).toContain('❯ more on the first topic')

  // Opening a session does not write it: the latest updated is still "second topic", and a
  // reload (`--resume last`) resumes that one.
  await page.reload()
  await waitForTerminal(page)
  await waitForScreen(page, BANNER)
  await waitForScreen(page, 'Session resumed: second topic')
})

test('Delete in the /resume picker asks, then removes the session from storage', async ({ page, mock }) => {
  await twoSessions(page, mock)
  const before = await savedIds(page)
  await runSlashCommand(page, '/resume')
  await waitForScreen(page, /first topic +just now · 2 turns/)
  await typeInTerminal(page, 'first')
  await pressKey(page, 'Delete')
  await waitForScreen(page, 'Delete the session "first topic"? y deletes it')
  await typeInTerminal(page, 'y')
  await waitForScreen(page, 'Deleted the session first topic.')
  await expect.poll(() => savedIds(page).then((ids) => ids.length)).toBe(1)
  expect(before).toEqual(expect.arrayContaining(await savedIds(page)))
})

test('/history clear forgets the stored prompts: after a reload Up finds nothing', async ({ page, mock }) => {
  await mock.script({ chunks: textReply('Sure.') })
  await openWithMock(page, mock)
  await submitPrompt(page, 'a prompt to forget')
  await waitForScreen(page, 'Sure.')
  await expect.poll(() => storedPromptCount(page)).toBe(1)
  await runSlashCommand(page, '/history clear')
  await waitForScreen(page, 'Prompt history cleared.')
  await expect.poll(() => storedPromptCount(page)).toBe(0)

  await page.reload()
  await waitForTerminal(page)
  await waitForScreen(page, 'Session resumed: a prompt to forget')
  await pressKey(page, 'ArrowUp')
  await waitForComposer(page, '')
  // Only the replayed prompt card shows the prompt; Up recalled nothing into the composer.
  expect((await readScreen(page)).split('\n').filter((line) => line.trimEnd() === '❯ a prompt to forget')).toHaveLength(1)
})
