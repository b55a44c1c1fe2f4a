// Themes, search in the scrollback, links and screen-reader mode, as a person meets them.
import type { Page } from '@playwright/test'
import type { Terminal } from '@xterm/xterm'
import { test, expect } from '../support/fixtures.ts'
import { BANNER, openWithMock } from '../support/app.ts'
import { textReply } from '../support/chunks.ts'
import { readComposer, runSlashCommand, submitPrompt, typeInTerminal, waitForComposer, waitForScreen, waitForTerminal } from '../support/screen.ts'

type FxWindow = Window & { fxterm: { term: Terminal }; opened?: unknown[][] }

/** The colour the terminal is painted in (xterm's scroll area carries the theme background). */
const paintedBackground = (page: Page) => page.locator('.xterm-scrollable-element').evaluate((el) => getComputedStyle(el).backgroundColor)

test.describe('themes', () => {
  test('?theme=light paints the light palette', async ({ page }) => {
    await page.goto('/?theme=light')
    await waitForTerminal(page)
    await waitForScreen(page, BANNER)
    await expect.poll(() => paintedBackground(page)).toBe('rgb(251, 251, 252)')
  })

  test('?theme=auto follows the system colour scheme as it changes', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.goto('/?theme=auto')
    await waitForTerminal(page)
    await expect.poll(() => paintedBackground(page)).toBe('rgb(15, 17, 21)')
    await page.emulateMedia({ colorScheme: 'light' })
    await expect.poll(() => paintedBackground(page)).toBe('rgb(251, 251, 252)')
  })
})

test('Ctrl+Shift+F searches the scrollback: matches counted, Enter moves on, Esc gives the keys back', async ({ page, mock }) => {
  await mock.script({ chunks: textReply('A needle here, another needle there, and a third needle at the end.') })
  await openWithMock(page, mock)
  await submitPrompt(page, 'where are the needles?')
  await waitForScreen(page, 'a third needle at the end.')

  await page.keyboard.press('Control+Shift+F')
  const input = page.getByRole('searchbox', { name: 'Search the terminal output' })
  await expect(input).toBeFocused()
  await input.fill('needle')
  const bar = page.getByRole('search')
  // "needles" in the prompt counts too: four matches in all.
  await expect(bar).toContainText('of 4')
  const first = await bar.textContent()
  await input.press('Enter')
  await expect(bar).not.toHaveText(first!)
  await input.press('Escape')
  await expect(bar).toBeHidden()
  expect((await readComposer(page))?.trim()).toBe('❯') // the search key never reached the composer
  await typeInTerminal(page, 'back')
  await waitForComposer(page, 'back')
})

/** Clicks the middle of the first cell showing `text` on screen. */
async function clickText(page: Page, text: string): Promise<void> {
  const at = await page.evaluate((wanted) => {
    const term = (window as unknown as FxWindow).fxterm.term
    const buffer = term.buffer.active
    for (let y = 0; y < term.rows; y++) {
      const x = buffer.getLine(buffer.viewportY + y)?.translateToString(true).indexOf(wanted) ?? -1
      if (x >= 0) {
        const box = term.element!.querySelector('.xterm-screen')!.getBoundingClientRect()
        return { x: box.left + ((x + 1.5) * box.width) / term.cols, y: box.top + ((y + 0.5) * box.height) / term.rows }
      }
    }
    return null
  }, text)
  expect(at, `"${text}" on screen`).not.toBeNull()
  await page.mouse.move(at!.x, at!.y)
  await page.mouse.move(at!.x + 2, at!.y)
  await page.mouse.click(at!.x + 2, at!.y)
}

test('http(s) links open in a new tab without an opener (after asking, when the text is not the address); other schemes stay text', async ({ page, mock }) => {
  await mock.script({
    chunks: textReply('See [the guide](https://example.com/guide) or [this one](javascript:alert(1)).\n\nAlso https://example.org/plain-url for more.'),
  })
  await openWithMock(page, mock)
  await page.evaluate(() => {
    const w = window as unknown as FxWindow
    w.opened = []
    w.open = ((...args: unknown[]) => (w.opened!.push(args), null)) as typeof window.open
  })
  await submitPrompt(page, 'links please')
  await waitForScreen(page, 'for more.')

  const opened = () => page.evaluate(() => (window as unknown as FxWindow).opened)
  // A link whose text is not its address shows the address and opens it only on "Open link".
  await clickText(page, 'the guide')
  const dialog = page.getByRole('dialog', { name: 'Open this link?' })
  await expect(dialog.locator('.fxterm-link-target')).toHaveText('https://example.com/guide')
  expect(await opened()).toEqual([])
  await dialog.getByRole('button', { name: 'Open link' }).click()
  await expect.poll(opened).toEqual([['https://example.com/guide', '_blank', 'noopener,noreferrer']])
  await clickText(page, 'this one')
  await clickText(page, 'example.org/plain-url')
  await expect.poll(opened).toEqual([
    ['https://example.com/guide', '_blank', 'noopener,noreferrer'],
    ['https://example.org/plain-url', '_blank', 'noopener,noreferrer'],
  ])
})

test('/a11y: xterm reads rows out, and each finished reply is announced once, whole, in a polite live region', async ({ page, mock }) => {
  await mock.script({ chunks: textReply('First ', 'part, ', 'then the end.') }, { chunks: textReply('Second reply.') })
  await openWithMock(page, mock)
  await runSlashCommand(page, '/a11y')
  await waitForScreen(page, 'Screen reader mode is on')
  await expect(page.locator('.xterm-accessibility')).toHaveCount(1)
  // xterm's own region would read the stream character by character: it is muted.
  await expect(page.locator('.xterm-accessibility .live-region')).toHaveAttribute('aria-live', 'off')

  await submitPrompt(page, 'say something')
  await waitForScreen(page, 'then the end.')
  await submitPrompt(page, 'and again')
  await waitForScreen(page, 'Second reply.')
  const region = page.locator('.fxterm-announcements[aria-live="polite"]')
  await expect(region.locator('p')).toHaveText(['First part, then the end.', 'Second reply.'])
})
