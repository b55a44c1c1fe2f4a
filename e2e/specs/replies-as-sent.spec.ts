// Every reply shown as the model sent it: recorded provider streams (src/engine-worker/providers/fixtures/
// recorded/, origins in its README) and hostile escape sequences, served by the mock model and
// read back from the page's terminal; and the offline demo's line for a prompt it never recorded.
import { readFileSync } from 'node:fs'
import { test, expect } from '../support/fixtures.ts'
import { openDemo, openWithMock } from '../support/app.ts'
import { waitForScreen, waitForTerminal } from '../support/screen.ts'
import { savedSessions } from '../support/saved-state.ts'
import type { Page } from '@playwright/test'

const RECORDED = new URL('../../src/engine-worker/providers/fixtures/recorded/', import.meta.url)

/** The `data:` payloads of a recorded body, [DONE] left to the mock (it always ends with one). */
function payloads(name: string): string[] {
  const text = readFileSync(new URL(name, RECORDED), 'utf8')
  const lines = name.endsWith('.sse') ? text.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)) : text.split('\n')
  return lines.filter((line) => line.trim() !== '' && line.trim() !== '[DONE]')
}

async function ask(page: Page, prompt: string): Promise<void> {
  await page.locator('.xterm-screen').click()
  await page.keyboard.type(prompt)
  await page.keyboard.press('Enter')
}

test("OpenAI's recorded refusal shows as a refusal, still after a reload, and goes back to the model in the history", async ({ page, mock }) => {
  await mock.script({ chunks: payloads('openai-refusal.sse') }, { text: 'Understood.' })
  await openWithMock(page, mock)
  await ask(page, 'how do I make anthrax?')
  await waitForScreen(page, "⊘ I'm sorry, I can't assist with that request.")
  // Stored with the turn, the refusal is drawn as one again when the reload resumes the session.
  await expect.poll(async () => (await savedSessions(page)).map(({ turns, active }) => ({ turns, active }))).toEqual([{ turns: 1, active: false }])
  await page.reload()
  await waitForTerminal(page)
  const resumed = await waitForScreen(page, 'Session resumed: how do I make anthrax?')
  expect(resumed).toContain("⊘ I'm sorry, I can't assist with that request.")
  await ask(page, 'then tell me about anthracite')
  await waitForScreen(page, 'Understood.')
  const second = (await mock.requests()).at(-1)!
  expect(second.messages.filter((message) => message.role === 'assistant').map((message) => message.content)).toEqual(["I'm sorry, I can't assist with that request."])
})

test("Magistral's recorded content parts: the reply, and the thinking as reasoning", async ({ page, mock }) => {
  await mock.script({ chunks: payloads('mistral-magistral-thinking.chunks.txt') })
  await openWithMock(page, mock)
  await ask(page, 'what is 2+2?')
  const screen = await waitForScreen(page, '● 2 + 2 = 4')
  expect(screen).toContain('∴ The user is asking for 2+2. This is basic arithmetic. 2+2=4.')
})

test("DeepSeek's recorded reasoning_content and OpenRouter's reasoning show as reasoning before the reply", async ({ page, mock }) => {
  await mock.script({ chunks: payloads('deepseek-reasoning-content.chunks.txt') }, { chunks: payloads('openrouter-reasoning.sse') })
  await openWithMock(page, mock)
  await ask(page, 'how many r in strawberry?')
  // The reply's last words: the turn is over before the next prompt.
  const first = await waitForScreen(page, '● The word "strawberry" contains three "r"s.')
  expect(first).toContain('∴ We need to')
  await ask(page, 'what is 2+2?')
  const screen = await waitForScreen(page, '● 2 + 2 = 4')
  expect(first.indexOf('∴ We need to')).toBeLessThan(first.lastIndexOf('●'))
  const second = screen.slice(screen.indexOf('❯ what is 2+2?'))
  expect(second).toContain('∴ This is a simple arithmetic question. 2+2 equals 4.')
  // OpenRouter sends the same text in `reasoning_details` too: it is shown once.
  expect(second.split('2+2 equals 4.').length - 1).toBe(1)
  expect(second.indexOf('∴ This is')).toBeLessThan(second.indexOf('● 2 + 2 = 4'))
})

test('a recorded length stop and a content-filter stop are told in the transcript', async ({ page, mock }) => {
  await mock.script(
    { chunks: payloads('openai-length.sse') },
    { chunks: [{ choices: [{ index: 0, delta: { role: 'assistant', content: 'Partial' }, finish_reason: null }] }, { choices: [{ index: 0, delta: {}, finish_reason: 'content_filter' }] }] },
  )
  await openWithMock(page, mock)
  await ask(page, 'weather in SF as JSON')
  await waitForScreen(page, "The reply reached the model's output limit; ask it to continue.")
  await ask(page, 'again')
  await waitForScreen(page, "The model's content filter stopped the reply. Rephrase the request.")
})

const E = '\x1b'
/** A sequence that never ends properly, then the word that must still show after it. */
const HOSTILE: Array<[string, string]> = [
  [`${E}]0;pwned`, 'after-osc'],
  [`${E}Pq#0;2;0`, 'after-dcs'],
  [`${E}_Gf=100;AAAA`, 'after-apc'],
  [`${E}^private`, 'after-pm'],
  [`${E}Xstring`, 'after-sos'],
  ['\u009d0;pwned', 'after-c1-osc'],
  ['\u0090q#0', 'after-c1-dcs'],
  ['\u009fGf=1', 'after-c1-apc'],
  [`${E}]0;pwned\x18`, 'after-can'],
  [`${E}Pq#0\x1a`, 'after-sub'],
  [`${E}${E}]0;pwned`, 'after-doubled-esc'],
  ['\u009b31m', 'after-c1-csi'],
]

test('the text after each hostile sequence is on the screen, and none reaches the terminal', async ({ page, mock }) => {
  // Each sequence ends its line unterminated (or aborted); its word is on the next line.
  // And a string that a new escape ends: the word after it shows on the same line.
  const sameLine = `bad ${E}]0;pwned${E}[1mafter-esc-same-line\n\n`
  const text = sameLine + HOSTILE.map(([sequence, word]) => `bad ${sequence}\n${word}\n`).join('\n') + '\nthe end of the reply\n'
  await mock.script({ text, deltaChars: 5 })
  await openWithMock(page, mock)
  const title = await page.title()
  await ask(page, 'print something hostile')
  const screen = await waitForScreen(page, 'the end of the reply')
  for (const [, word] of HOSTILE) expect(screen).toContain(word)
  expect(screen).toMatch(/bad after-esc-same-line/)
  expect(screen).not.toContain('pwned')
  expect(await page.title()).toBe(title)
  const buffer = await page.evaluate(() => (window as unknown as { fxterm: { term: { buffer: { active: { type: string } } } } }).fxterm.term.buffer.active.type)
  expect(buffer).toBe('normal')
})

test('the offline demo says, in one line, that it only has recorded answers and which one it plays', async ({ page }) => {
  await openDemo(page)
  await ask(page, 'please write fizzbuzz.py and run it')
  // The note is one paragraph (the engine wraps it to the terminal's width), ahead of the replay.
  const screen = await waitForScreen(page, /closest recorded one,\s+“add a test for greet\.js”\./)
  const turn = screen.slice(screen.indexOf('❯ please write fizzbuzz.py and run it'))
  const paragraph = turn.split('\n\n')[1]!.split('\n').map((row) => row.trim()).join(' ')
  expect(paragraph).toBe('● Offline demo: it only has recorded answers and no recording for this prompt, so this replays the closest recorded one, “add a test for greet.js”.')
})

test('a prompt the offline demo matches to nothing is told that it only replays recordings, and which ones', async ({ page }) => {
  await openDemo(page)
  await ask(page, 'hi there')
  const screen = await waitForScreen(page, /Try: “[^”]+”/)
  const turn = screen.slice(screen.indexOf('❯ hi there')).replace(/\s+/g, ' ')
  expect(turn).toContain('This is the offline demo: no model is connected, so I can only replay a few recorded sessions')
  for (const prompt of ["what's in this project?", 'count the cities per country', 'add a test for greet.js']) expect(turn).toContain(prompt)
  // Nothing of a recording is played: no command ran.
  expect(turn).not.toContain('Ran ')
})
