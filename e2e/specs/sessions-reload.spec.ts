// A reload continues where the person left off: the page passes `--resume last`, so the latest
// session is replayed (transcript, history, settings), and a turn cut off by the reload goes on.
import type { Page } from '@playwright/test'
import { test, expect } from '../support/fixtures.ts'
import { BANNER, openWithMock } from '../support/app.ts'
import { textReply } from '../support/chunks.ts'
import { pressKey, readScreen, readViewport, runSlashCommand, submitPrompt, waitForComposer, waitForScreen, waitForTerminal } from '../support/screen.ts'
import { textOf } from '../support/tool-messages.ts'
import { savedParts, savedPrompts, savedSessions as readSavedSessions, savedSetting } from '../support/saved-state.ts'

/** The saved sessions, with the fields these tests compare. */
const savedSessions = (page: Page) => readSavedSessions(page).then((list) => list.map(({ id, title, turns, active }) => ({ id, title, turns, active })))

async function reload(page: Page): Promise<void> {
  await page.reload()
  await waitForTerminal(page)
  await waitForScreen(page, BANNER)
}

test('a reload replays the session, no model request is made, and Up shows the last prompt', async ({ page, mock }) => {
  const prompt = 'what is the capital of France?'
  await mock.script({ chunks: textReply('Paris is the capital ', 'of France.') })
  await openWithMock(page, mock)
  await submitPrompt(page, prompt)
  await waitForScreen(page, 'Paris is the capital of France.')
  await expect.poll(() => savedSessions(page)).toEqual([{ id: expect.any(String), title: prompt, turns: 1, active: false }])
  await expect.poll(() => savedPrompts(page)).toEqual([prompt])

  await reload(page)
  await waitForScreen(page, `Session resumed: ${prompt}`)
  const screen = await readScreen(page)
  expect(screen).toContain(`❯ ${prompt}`)
  expect(screen).toContain('Paris is the capital of France.')

  await pressKey(page, 'ArrowUp')
  await waitForComposer(page, prompt)
  expect(await mock.requests()).toHaveLength(1)
})

test('a setting changed with /mode ask is still set after a reload', async ({ page, mock }) => {
  await openWithMock(page, mock)
  await runSlashCommand(page, '/mode ask')
  await waitForScreen(page, 'Mode: ask')
  // Saved once the engine accepted it; a reload before that would rightly lose it.
  await expect.poll(() => savedSetting(page, 'mode')).toBe('ask')
  await expect.poll(() => savedPrompts(page)).toEqual(['/mode ask'])

  await reload(page)
  expect(await readScreen(page)).not.toContain('Mode: ask')
  await runSlashCommand(page, '/status')
  await waitForScreen(page, /mode +ask/)
  // Slash commands are history too (Up on a "/word" draft moves in the command menu instead).
  await expect.poll(() => savedPrompts(page)).toEqual(['/mode ask', '/status'])
  await pressKey(page, 'ArrowUp')
  await expect.poll(async () => (await readViewport(page)).some((line) => line.trimEnd() === '❯ /status')).toBe(true)
})

test('a turn cut off by a reload mid-stream continues after it, and the prompt is not lost', async ({ page, mock }) => {
  const prompt = 'tell me a long story'
  await mock.script(
    { text: 'Once upon a time there was a very long story. '.repeat(60), deltaChars: 8, intervalMs: 40 },
    { chunks: textReply('The story goes on after the interruption.') },
  )
  await openWithMock(page, mock)
  await submitPrompt(page, prompt)
  await waitForScreen(page, 'Once upon a time')
  // The prompt was committed before the model saw it: the record says a turn is open.
  await expect.poll(() => savedSessions(page)).toEqual([{ id: expect.any(String), title: prompt, turns: 1, active: true }])

  await reload(page) // the worker dies with the page, mid-stream
  await waitForScreen(page, 'The last turn was interrupted')
  await waitForScreen(page, 'The story goes on after the interruption.')
  expect(await readScreen(page)).toContain(`❯ ${prompt}`)

  const streams = await mock.streams()
  expect(streams.map((stream) => stream.outcome)).toEqual(['aborted', 'done'])
  const requests = await mock.requests()
  expect(requests).toHaveLength(2)
  const userTexts = requests[1]!.messages.filter((message) => message.role === 'user').map((message) => textOf(message.content))
  expect(userTexts[0]).toBe(prompt)
  await expect.poll(() => savedSessions(page)).toEqual([expect.objectContaining({ title: prompt, active: false })])
})

/** The one saved session's parts in order: [part number, length]. */
const storedParts = async (page: Page) => (await savedParts(page))[0] ?? []

test('after a reload, renaming a long session rewrites only the part with its header', async ({ page, mock }) => {
  const prompt = 'write me a long essay'
  const essay = 'A paragraph of a long essay about how terminals draw text.\n\n'.repeat(7_000) // ~420 KB
  await mock.script({ chunks: textReply(essay, 'The end of the essay.') })
  await openWithMock(page, mock)
  await submitPrompt(page, prompt)
  await waitForScreen(page, 'The end of the essay.', 30_000)
  await expect.poll(() => savedSessions(page)).toEqual([expect.objectContaining({ title: prompt, active: false })])
  const before = await storedParts(page)
  expect(before.length).toBeGreaterThan(3)

  await page.reload() // the replay is the reply's end: no banner on screen to wait for
  await waitForTerminal(page)
  await waitForScreen(page, `Session resumed: ${prompt}`)
  await runSlashCommand(page, '/rename Terminals and text')
  await expect.poll(() => savedSessions(page)).toEqual([expect.objectContaining({ title: 'Terminals and text' })])
  const after = await storedParts(page)
  // Every part but the first (the header, longer now) is the record it was, not written again.
  expect(after.slice(1)).toEqual(before.slice(1))
  expect(after[0]![0]).not.toBe(before[0]![0])
})
