import { test, expect } from '../support/fixtures.ts'
import { openDemo } from '../support/app.ts'
import { submitPrompt, waitForScreen } from '../support/screen.ts'

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
  await submitPrompt(page, "what's in this project?")
  await waitForScreen(page, "❯ what's in this project?")
  await waitForScreen(page, 'Ran ls -la')
  await waitForScreen(page, 'Ran cat README.md')
  // TODO(summary): assert the tape's closing summary text once public/demos/tour.json exists.

  expect(blocked, 'requests that tried to leave localhost').toEqual([])
  expect([...seen].filter(leavesMachine), 'requests seen going off the machine').toEqual([])
  expect(seen.size, 'the recorder saw the page load at all').toBeGreaterThan(0)
})
