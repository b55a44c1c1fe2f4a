// A demo that fits (issue 32): <fx-terminal> in public/examples/element.html has no `demo` or
// `files`, so its workspace starts without the tour's files, yet the tour replayed
// `cat README.md src/greet.js` (→ "No such file or directory") and then described city-greeter
// as if it had read it. The tape now carries its files: the workspace gets the ones it lacks
// before the first command, and the reply says so in one line.
import type { Page } from '@playwright/test'
import type { Terminal } from '@xterm/xterm'
import { test, expect } from '../support/fixtures.ts'

type FxElement = HTMLElement & { terminal: Terminal | null }

/** The element's buffer, soft-wrapped rows joined back into their lines. */
function elementScreen(page: Page, id: string): Promise<string> {
  return page.evaluate((which) => {
    const term = (document.getElementById(which) as FxElement | null)?.terminal
    if (!term) return ''
    const buffer = term.buffer.active
    const lines: string[] = []
    for (let i = 0; i < buffer.length; i++) {
      const line = buffer.getLine(i)
      const text = line?.translateToString(true) ?? ''
      if (line?.isWrapped && lines.length > 0) lines[lines.length - 1] += text
      else lines.push(text)
    }
    return lines.join('\n')
  }, id)
}

test('the element example with the demo prompt: the tour finds its files, says so once, and no "No such file"', async ({ page }) => {
  await page.goto('/examples/element.html')
  await expect.poll(() => elementScreen(page, 'first')).toMatch(/fxterm.*Run \/help for commands/)
  await page.locator('#first').click()
  await page.keyboard.type("what's in this project?")
  await page.keyboard.press('Enter')

  // The tour's last reply of this turn, after `ls -la` and `cat README.md src/greet.js`.
  await expect.poll(() => elementScreen(page, 'first'), { timeout: 30_000 }).toContain('This is city-greeter')
  const screen = await elementScreen(page, 'first')
  expect(screen).not.toContain('No such file')
  expect(screen.match(/did not have the files the demo was recorded with/g), screen).toHaveLength(1)
  // what the commands printed is the tour's project, read from the files just added
  expect(screen).toMatch(/README\.md\n/)
  expect(screen).toContain('# city-greeter')
})
