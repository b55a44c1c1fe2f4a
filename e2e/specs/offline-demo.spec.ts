import { readFileSync } from 'node:fs'
import { test, expect } from '../support/fixtures.ts'
import { openDemo } from '../support/app.ts'
import { submitPrompt, waitForScreen } from '../support/screen.ts'

const PROMPT = "what's in this project?"

/**
 * The first line of the tour's closing summary, markdown emphasis removed (the terminal shows it
 * as styling), read from the tape so an edited tape does not silently break the spec.
 */
function tourSummaryFirstLine(): string {
  const tape = JSON.parse(readFileSync(new URL('../../public/demos/tour.json', import.meta.url), 'utf8')) as {
    turns: Array<{ match: string[]; responses: Array<{ text?: string }> }>
  }
  const turn = tape.turns.find((candidate) => candidate.match.some((keyword) => PROMPT.includes(keyword)))
  const summary = turn?.responses.at(-1)?.text ?? ''
  const firstLine = summary.split('\n')[0]?.replace(/\*\*|__|`/g, '') ?? ''
  if (firstLine === '') throw new Error(`tour.json has no summary for ${JSON.stringify(PROMPT)}`)
  return firstLine
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/** data:, blob: and the like never touch the network; http(s)/ws(s) must stay on this machine. */
function leavesMachine(url: string): boolean {
  const parsed = new URL(url)
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(parsed.protocol)) return false
  return !LOCAL_HOSTS.has(parsed.hostname)
}

test('the demo tape answers with the network cut off and nothing leaves localhost', async ({ page, context }) => {
  const seen = new Set<string>()
  const blocked: string[] = []
  // Requests from the page, its dedicated workers and any service worker all reach context.on('request').
  context.on('request', (request) => seen.add(request.url()))
  page.on('request', (request) => seen.add(request.url()))
  context.on('serviceworker', (worker) => seen.add(worker.url()))
  await context.route('**/*', async (route) => {
    const url = route.request().url()
    if (leavesMachine(url)) {
      blocked.push(url)
      await route.abort('blockedbyclient')
    } else {
      await route.continue()
    }
  })

  await openDemo(page)
  await submitPrompt(page, PROMPT)
  await waitForScreen(page, `❯ ${PROMPT}`)
  await waitForScreen(page, 'Ran ls -la')
  await waitForScreen(page, 'Ran cat README.md')
  await waitForScreen(page, tourSummaryFirstLine())

  expect(blocked, 'requests that tried to leave localhost').toEqual([])
  expect([...seen].filter(leavesMachine), 'requests seen going off the machine').toEqual([])
  expect(seen.size, 'the recorder saw the page load at all').toBeGreaterThan(0)
})
