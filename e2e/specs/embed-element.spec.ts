// <fx-terminal> on a page of someone else's (public/examples/element.html, which has its own
// CSS), and fxterm under a strict Content Security Policy.
import type { Page } from '@playwright/test'
import type { Terminal } from '@xterm/xterm'
import { test, expect } from '../support/fixtures.ts'
import { openDemo } from '../support/app.ts'
import { submitPrompt, waitForScreen } from '../support/screen.ts'
import { savedPrompts } from '../support/saved-state.ts'

type FxElement = HTMLElement & { terminal: Terminal | null }

const PAGE = '/examples/element.html'

/** The lines on screen of the element `id` (its xterm buffer). */
function elementScreen(page: Page, id: string): Promise<string> {
  return page.evaluate((which) => {
    const term = (document.getElementById(which) as FxElement | null)?.terminal
    if (!term) return ''
    const buffer = term.buffer.active
    const lines: string[] = []
    for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? '')
    return lines.join('\n')
  }, id)
}

async function typeInto(page: Page, id: string, text: string): Promise<void> {
  await page.locator(`#${id}`).click()
  await page.keyboard.type(text)
}

/** The host page's own elements: their computed look and where they sit. */
const hostStyles = (page: Page) =>
  page.evaluate(() =>
    ['body', 'h1', '#intro'].map((selector) => {
      const element = document.querySelector(selector)!
      const style = getComputedStyle(element)
      const box = element.getBoundingClientRect()
      return [selector, style.color, style.backgroundColor, style.fontFamily, style.fontSize, style.lineHeight, box.x, box.width].join(' | ')
    }),
  )

test('the element leaves the host page as it was, keeps the page CSS out, and chats', async ({ page }) => {
  // The host page as it looks without the element script.
  await page.route('**/fx-terminal.js', (route) => route.fulfill({ contentType: 'text/javascript', body: '' }))
  await page.goto(PAGE)
  const before = await hostStyles(page)
  await page.unroute('**/fx-terminal.js')

  await page.goto(PAGE)
  await expect.poll(() => elementScreen(page, 'first')).toMatch(/fxterm.*Run \/help for commands/)
  expect(await hostStyles(page)).toEqual(before)
  // The host's `div, span { color: #d33682 }` does not reach the terminal's rows.
  const rowColour = await page.evaluate(() => {
    const rows = document.getElementById('first')!.shadowRoot!.querySelector('.xterm-rows')!
    return getComputedStyle(rows).color
  })
  expect(rowColour).not.toBe('rgb(211, 54, 130)')

  await typeInto(page, 'first', "what's in this project?\n")
  await expect.poll(() => elementScreen(page, 'first'), { timeout: 20_000 }).toContain('Ran ')
})

test('two elements with different namespaces keep separate prompt history', async ({ page }) => {
  await page.goto(PAGE)
  await expect.poll(() => elementScreen(page, 'second')).toMatch(/Run \/help/)
  await typeInto(page, 'first', '/version\n')
  await typeInto(page, 'second', '/status\n')
  await expect.poll(() => elementScreen(page, 'second')).toContain('mode')
  // A reload before the history is stored would rightly lose it: wait until each element's is.
  await expect.poll(() => savedPrompts(page, 'docs-a')).toEqual(['/version'])
  await expect.poll(() => savedPrompts(page, 'docs-b')).toEqual(['/status'])

  await page.reload()
  await expect.poll(() => elementScreen(page, 'second')).toMatch(/Run \/help/)
  await typeInto(page, 'first', '')
  await page.keyboard.press('ArrowUp')
  await expect.poll(() => elementScreen(page, 'first')).toMatch(/❯ \/version/)
  await typeInto(page, 'second', '')
  await page.keyboard.press('ArrowUp')
  await expect.poll(() => elementScreen(page, 'second')).toMatch(/❯ \/status/)
  expect(await elementScreen(page, 'second')).not.toMatch(/❯ \/version/)
})

const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'; connect-src 'self'"

/**
 * Serves every response (documents, and the worker scripts whose own policy governs a worker) with
 * the strict policy as a header, and records the page's violations from the start.
 */
async function withStrictCsp(page: Page): Promise<() => Promise<string[]>> {
  await page.context().route('**/*', async (route) => {
    const response = await route.fetch()
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': CSP } })
  })
  await page.addInitScript(() => {
    const seen: string[] = ((window as Window & { cspViolations?: string[] }).cspViolations = [])
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`))
  })
  return () => page.evaluate(() => (window as Window & { cspViolations?: string[] }).cspViolations ?? [])
}

test('the page runs a demo turn with a command under a strict CSP, with no violation', async ({ page }) => {
  const violations = await withStrictCsp(page)
  await openDemo(page)
  await submitPrompt(page, "what's in this project?")
  await waitForScreen(page, 'Ran ', 20_000)
  expect(await violations()).toEqual([])
})

test('the element runs under the same strict CSP with no violation', async ({ page }) => {
  const violations = await withStrictCsp(page)
  await page.goto(PAGE)
  await expect.poll(() => elementScreen(page, 'first')).toMatch(/Run \/help for commands/)
  await typeInto(page, 'first', "what's in this project?\n")
  await expect.poll(() => elementScreen(page, 'first'), { timeout: 20_000 }).toContain('Ran ')
  expect(await violations()).toEqual([])
})

/** The element's terminal size, as columns × rows. */
const sizeOf = (page: Page, id: string) =>
  page.evaluate((which) => {
    const term = (document.getElementById(which) as FxElement | null)?.terminal
    return term ? `${term.cols}×${term.rows}` : ''
  }, id)

test('in a closed accordion the element keeps its size, and fits its new box when the accordion opens', async ({ page }) => {
  await page.goto(PAGE)
  await expect.poll(() => elementScreen(page, 'first')).toMatch(/Run \/help for commands/)
  // The element moves into a <details> that is closed: its box has no size while hidden.
  await page.evaluate(() => {
    const details = document.createElement('details')
    details.innerHTML = '<summary>Try it</summary>'
    const element = document.getElementById('first')!
    element.before(details)
    details.append(element)
  })
  const shown = await sizeOf(page, 'first')
  await page.waitForTimeout(300) // a few frames: a fit on a hidden box would shrink it to nothing
  expect(await sizeOf(page, 'first')).toBe(shown)

  // Opened in a narrower, taller box: it fits that box, and it still takes keys.
  await page.evaluate(() => {
    const element = document.getElementById('first')!
    element.style.width = '420px'
    element.setAttribute('height', '480')
    element.closest('details')!.open = true
  })
  await expect.poll(() => sizeOf(page, 'first')).not.toBe(shown)
  const [cols, rows] = (await sizeOf(page, 'first')).split('×').map(Number)
  const [oldCols, oldRows] = shown.split('×').map(Number)
  expect(cols).toBeLessThan(oldCols!)
  expect(rows).toBeGreaterThan(oldRows!)
  await typeInto(page, 'first', 'still here')
  await expect.poll(() => elementScreen(page, 'first')).toContain('❯ still here')
})
