// embed.html in an iframe, driven by its postMessage API from public/examples/iframe.html.
import type { Frame, Page } from '@playwright/test'
import type { Terminal } from '@xterm/xterm'
import { test, expect } from '../support/fixtures.ts'

type FxWindow = Window & { fxterm?: { term: Terminal }; fxEmbed: { send(message: Record<string, unknown>): void } }

function embedFrame(page: Page): Frame {
  const frame = page.frames().find((f) => f.url().includes('/embed.html'))
  if (!frame) throw new Error('no embed frame')
  return frame
}

/** The embedded terminal's whole buffer. */
function frameScreen(frame: Frame): Promise<string> {
  return frame.evaluate(() => {
    const term = (window as unknown as FxWindow).fxterm?.term
    if (!term) return ''
    const lines: string[] = []
    for (let i = 0; i < term.buffer.active.length; i++) lines.push(term.buffer.active.getLine(i)?.translateToString(true) ?? '')
    return lines.join('\n')
  })
}

const events = (page: Page) => page.locator('#events li').allTextContents()

test('the host page runs a prompt through postMessage and hears ready and turn_end', async ({ page }) => {
  await page.goto('/examples/iframe.html')
  await expect.poll(() => events(page)).toEqual(['{"fxterm":1,"type":"ready"}'])
  await page.getByRole('button', { name: 'Ask about this project' }).click()
  const frame = embedFrame(page)
  await expect.poll(() => frameScreen(frame), { timeout: 20_000 }).toContain("❯ what's in this project?")
  await expect.poll(() => events(page), { timeout: 30_000 }).toContain('{"fxterm":1,"type":"turn_end","stopReason":"end_turn"}')

  await page.evaluate(() => (window as unknown as FxWindow).fxEmbed.send({ type: 'type', text: 'half a thought' }))
  await expect.poll(() => frameScreen(frame)).toMatch(/❯ half a thought/)
  await page.getByRole('button', { name: 'Start over' }).click()
  await expect.poll(() => frameScreen(frame)).not.toMatch(/❯ half a thought$/m)
})

test('a page on an origin not on the allow-list can neither drive the embed nor hear from it', async ({ page, baseURL }) => {
  // The host on 127.0.0.1, the embed on localhost: two origins; the embed allows only its own.
  const host = baseURL!.replace('localhost', '127.0.0.1')
  await page.goto(`${host}/examples/iframe.html?embed=${encodeURIComponent(`${baseURL}/embed.html?origins=self`)}`)
  const frame = embedFrame(page)
  await expect.poll(() => frameScreen(frame)).toMatch(/Run \/help for commands/)
  await page.evaluate(() => (window as unknown as FxWindow).fxEmbed.send({ type: 'run', text: 'rm -rf everything' }))
  await page.waitForTimeout(500)
  expect(await frameScreen(frame)).not.toContain('rm -rf everything')
  expect(await events(page)).toEqual([])
})
