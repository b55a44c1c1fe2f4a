// Record and replay: a session with a model becomes a demo tape (/export tape), and the offline
// demo replays it from ?demo=…: the same prompt gives the same screen, the command really runs in
// a workspace seeded from the tape, and a prompt the tape does not know gets a suggestion.
import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { test, expect } from '../support/fixtures.ts'
import { openWithMock } from '../support/app.ts'
import { commandReply, textReply } from '../support/chunks.ts'
import { readScreen, runSlashCommand, submitPrompt, waitForScreen, waitForTerminal } from '../support/screen.ts'

const PROMPT = 'how many lines does the readme have?'
const ANSWER = 'The README has that many lines, as counted above.'

/** The transcript of the turn: from its prompt card to the last line of its answer. */
async function turnText(page: Page): Promise<string[]> {
  const lines = (await readScreen(page)).split('\n').map((line) => line.trimEnd())
  const from = lines.findIndex((line) => line.startsWith(`❯ ${PROMPT}`))
  const to = lines.findIndex((line, i) => i > from && line.includes(ANSWER))
  return lines.slice(from, to + 1)
}

test('/export tape records the session, and ?demo= replays it to the same screen with the command run for real', async ({ page, mock, browser, baseURL }) => {
  await mock.script({ chunks: commandReply('call_wc_1', 'wc -l README.md') }, { chunks: textReply(ANSWER) })
  await openWithMock(page, mock)
  await submitPrompt(page, PROMPT)
  await waitForScreen(page, ANSWER)
  const recorded = await turnText(page)
  expect(recorded.some((line) => line.includes('Ran wc -l README.md'))).toBe(true)

  const download = page.waitForEvent('download')
  await runSlashCommand(page, '/export tape')
  const file = await (await download).path()
  const tape = JSON.parse(readFileSync(file, 'utf8'))
  expect(tape).toMatchObject({ version: 2, turns: [{ prompt: PROMPT }] })
  expect(Object.keys(tape.files)).toContain('README.md')

  // A fresh visitor, no model at all: the tape served from the page's origin.
  const replay = await (await browser.newContext({ baseURL })).newPage()
  await replay.route((url) => url.pathname === '/recorded-tape.json', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(tape) }))
  await replay.goto('/?demo=./recorded-tape.json')
  await waitForTerminal(replay)
  await submitPrompt(replay, PROMPT)
  await waitForScreen(replay, ANSWER, 20_000)
  expect(await turnText(replay)).toEqual(recorded)

  await submitPrompt(replay, 'deploy it to production')
  await waitForScreen(replay, `Try: “${PROMPT}”`)
  await replay.context().close()
})
