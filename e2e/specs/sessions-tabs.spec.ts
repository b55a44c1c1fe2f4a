// Two tabs on one session: each tab holds a Web Lock on the session it writes, so the second
// opens it read-only; when both write, nothing is lost (the second continues in a fork).
import type { Page } from '@playwright/test'
import { test, expect } from '../support/fixtures.ts'
import { openWithMock } from '../support/app.ts'
import { textReply } from '../support/chunks.ts'
import { readScreen, runSlashCommand, submitPrompt, waitForScreen } from '../support/screen.ts'
import { textOf } from '../support/tool-messages.ts'
import { savedSessions as readSavedSessions } from '../support/saved-state.ts'

/** The saved sessions, with the fields these tests compare. */
const savedSessions = (page: Page) => readSavedSessions(page).then((list) => list.map(({ title, prompts, active }) => ({ title, prompts, active })))

test('a second tab opens the session read-only; when both write, the second forks and no turn is lost', async ({ page, mock }) => {
  await mock.script({ chunks: textReply('First answer.') })
  await openWithMock(page, mock)
  await submitPrompt(page, 'first question')
  await waitForScreen(page, 'First answer.')
  await expect.poll(() => savedSessions(page)).toEqual([{ title: 'first question', prompts: ['first question'], active: false }])

  const second = await page.context().newPage()
  await openWithMock(second, mock)
  await waitForScreen(second, 'Session resumed: first question')
  await waitForScreen(second, 'This session is open in another tab, so it opened read-only here.')
  expect(await mock.requests()).toHaveLength(1)

  await mock.script({ chunks: textReply('Second answer, first tab.') }, { chunks: textReply('Answer in the second tab.') })
  await submitPrompt(page, 'second question')
  await waitForScreen(page, 'Second answer, first tab.')
  await submitPrompt(second, 'question from the other tab')
  await waitForScreen(second, 'This conversation continues as a new session: first question (fork).')
  await waitForScreen(second, 'Answer in the second tab.')

  await expect.poll(() => savedSessions(page)).toEqual([
    { title: 'first question', prompts: ['first question', 'second question'], active: false },
    { title: 'first question (fork)', prompts: ['first question', 'question from the other tab'], active: false },
  ])
  // The fork's request carried the shared first turn: the second tab lost nothing either.
  const requests = await mock.requests()
  expect(requests.map((r) => r.messages.filter((m) => m.role === 'user').map((m) => textOf(m.content)))).toEqual([
    ['first question'],
    ['first question', 'second question'],
    ['first question', 'question from the other tab'],
  ])
})

test('a tab that closes lets go of its session: the next one to open it may write it', async ({ page, mock }) => {
  await mock.script({ chunks: textReply('Only answer.') }, { chunks: textReply('Still the same session.') })
  await openWithMock(page, mock)
  await submitPrompt(page, 'only question')
  await waitForScreen(page, 'Only answer.')
  await expect.poll(() => savedSessions(page)).toHaveLength(1)
  const context = page.context()
  await page.close()

  const next = await context.newPage()
  await openWithMock(next, mock)
  await waitForScreen(next, 'Session resumed: only question')
  await submitPrompt(next, 'one more')
  await waitForScreen(next, 'Still the same session.')
  expect(await readScreen(next)).not.toContain('read-only')
  await expect.poll(() => savedSessions(next)).toEqual([{ title: 'only question', prompts: ['only question', 'one more'], active: false }])
})

test('a setting saved in one tab, and a new session, are told to the other tabs', async ({ page, mock }) => {
  await mock.script({ chunks: textReply('Noted.') })
  await openWithMock(page, mock)
  const other = await page.context().newPage()
  await openWithMock(other, mock)
  await other.evaluate(() => {
    const heard: unknown[] = ((window as Window & { heard?: unknown[] }).heard = [])
    new BroadcastChannel('fxterm:fxterm').onmessage = (event) => heard.push(event.data)
  })
  const heard = () => other.evaluate(() => (window as Window & { heard?: unknown[] }).heard)

  await runSlashCommand(page, '/mode ask')
  await expect.poll(heard).toEqual([{ type: 'config', id: 'mode', value: 'ask' }])
  await submitPrompt(page, 'remember this')
  await waitForScreen(page, 'Noted.')
  await expect.poll(heard).toEqual([{ type: 'config', id: 'mode', value: 'ask' }, { type: 'sessions_changed' }])
})

test('a setting saved in one tab applies in the other without a reload', async ({ page, mock }) => {
  await openWithMock(page, mock)
  const other = await page.context().newPage()
  await openWithMock(other, mock)
  await runSlashCommand(page, '/mode ask')
  await waitForScreen(page, 'Mode: ask')
  await runSlashCommand(other, '/status')
  await waitForScreen(other, /mode +ask/)
})
