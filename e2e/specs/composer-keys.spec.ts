// The composer as a person uses it: typing, a second line, submitting, walking prompt history
// and pasting. Each step is checked on the terminal's screen and, once sent, on the wire.
import type { Page } from '@playwright/test'
import { test, expect } from '../support/fixtures.ts'
import { openWithMock } from '../support/app.ts'
import { textReply } from '../support/chunks.ts'
import { readComposerRows } from '../support/footer.ts'
import type { MockModel } from '../support/mock-model.ts'
import { lastUserText } from '../support/tool-messages.ts'
import { findLine, pressEnter, pressKey, readComposer, readScreen, submitPrompt, typeInTerminal, waitForComposer, waitForScreen } from '../support/screen.ts'

/** `count` numbered lines of about 60 characters, no trailing newline: 20 of them pass 1,000 characters. */
function pastedLines(count: number): string {
  return Array.from({ length: count }, (_, i) => `paste line ${String(i + 1).padStart(3, '0')}: the quick brown fox jumps over the dog`).join('\n')
}

/** Pastes the way a browser paste reaches xterm: Terminal.paste wraps it in bracketed-paste marks. */
async function paste(page: Page, text: string): Promise<void> {
  await page.evaluate((text) => (window as Window & { fxterm?: { term: { paste(data: string): void } } }).fxterm?.term.paste(text), text)
}

/** Submits each prompt and waits for its scripted reply, so the next one starts on an idle composer. */
async function submitInTurn(page: Page, mock: MockModel, prompts: string[]): Promise<void> {
  await mock.script(...prompts.map((prompt) => ({ chunks: textReply(`Reply to ${prompt}.`) })))
  for (const prompt of prompts) {
    await submitPrompt(page, prompt)
    await waitForScreen(page, `Reply to ${prompt}.`)
  }
}

test('typed text shows in the composer, Shift+Enter starts a second line, Enter sends both as one prompt', async ({ page, mock }) => {
  await mock.script({ chunks: textReply('Two lines received.') })
  await openWithMock(page, mock)

  await typeInTerminal(page, 'first line')
  await waitForComposer(page, 'first line')
  await pressKey(page, 'Shift+Enter')
  await typeInTerminal(page, 'second line')
  await expect.poll(() => readComposerRows(page)).toEqual(['❯ first line', '  second line'])
  expect(await mock.requests(), 'Shift+Enter did not submit').toHaveLength(0)

  await pressEnter(page)
  await waitForScreen(page, 'Two lines received.')
  // The prompt card: both lines in the transcript, the second indented under the first.
  const lines = (await readScreen(page)).split('\n')
  const card = findLine(lines, /^❯ first line$/)
  expect(card, `a "❯ first line" card in:\n${lines.join('\n')}`).toBeGreaterThanOrEqual(0)
  expect(lines[card + 1]).toBe('  second line')
  await expect.poll(() => readComposerRows(page), 'the composer is empty again').toEqual(['❯'])
  expect(lastUserText((await mock.requests())[0])).toBe('first line\nsecond line')
})

test('Up walks back through sent prompts, newest first, and Down walks forward to an empty draft', async ({ page, mock }) => {
  await openWithMock(page, mock)
  await submitInTurn(page, mock, ['the first prompt', 'the second prompt'])

  await pressKey(page, 'ArrowUp')
  await waitForComposer(page, 'the second prompt')
  await pressKey(page, 'ArrowUp')
  await waitForComposer(page, 'the first prompt')
  await pressKey(page, 'ArrowUp')
  await waitForComposer(page, 'the first prompt') // the oldest stays put
  await pressKey(page, 'ArrowDown')
  await waitForComposer(page, 'the second prompt')
  await pressKey(page, 'ArrowDown')
  await waitForComposer(page, '')
})

test('a draft typed before walking up through history is back after walking down again', async ({ page, mock }) => {
  await openWithMock(page, mock)
  await submitInTurn(page, mock, ['the first prompt', 'the second prompt'])

  await typeInTerminal(page, 'a half-typed draft')
  await waitForComposer(page, 'a half-typed draft')
  await pressKey(page, 'ArrowUp')
  await waitForComposer(page, 'the second prompt')
  await pressKey(page, 'ArrowUp')
  await waitForComposer(page, 'the first prompt')
  await pressKey(page, 'ArrowDown')
  await waitForComposer(page, 'the second prompt')
  await pressKey(page, 'ArrowDown')
  await waitForComposer(page, 'a half-typed draft')
})

test('a paste over 1,000 characters shows as one placeholder and the model gets the full text', async ({ page, mock }) => {
  const text = pastedLines(30)
  expect(text.length).toBeGreaterThan(1000)
  await mock.script({ chunks: textReply('Got your paste.') })
  await openWithMock(page, mock)

  await paste(page, text)
  await waitForComposer(page, '[Pasted text #1, 30 lines]')
  await pressEnter(page)
  await waitForScreen(page, 'Got your paste.')

  expect(lastUserText((await mock.requests())[0])).toBe(text)
  // The prompt card shows what was sent, not the placeholder.
  const screen = await readScreen(page)
  expect(screen).toContain('paste line 030: the quick brown fox jumps over the dog')
  expect(screen).not.toContain('[Pasted text #1')
})

test('a paste of 1,000 characters or fewer goes into the draft as text', async ({ page, mock }) => {
  await openWithMock(page, mock)
  await paste(page, 'short pasted words')
  await waitForComposer(page, 'short pasted words')
  expect(await readComposer(page)).not.toContain('[Pasted text')
})
