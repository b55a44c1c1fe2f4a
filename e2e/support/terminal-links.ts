// Clicking a link in the terminal the way a person does: the mouse moves onto its cells (xterm.js
// finds links on hover) and clicks there. The terminal is a canvas, so the cell is computed from
// the screen element's box and the buffer.
import { expect, type Page } from '@playwright/test'
import type { Terminal } from '@xterm/xterm'

type FxWindow = Window & { fxterm?: { term: Terminal } }

/** The centre of the first cell of the last on-screen occurrence of `text`, in page coordinates. */
export async function pointAt(page: Page, text: string): Promise<{ x: number; y: number; cellWidth: number }> {
  const point = await page.evaluate((wanted) => {
    const term = (window as FxWindow).fxterm!.term
    const buffer = term.buffer.active
    const screen = term.element!.querySelector('.xterm-screen')!.getBoundingClientRect()
    for (let row = term.rows - 1; row >= 0; row--) {
      const line = buffer.getLine(buffer.viewportY + row)?.translateToString(false) ?? ''
      const col = line.indexOf(wanted)
      if (col < 0) continue
      const cellW = screen.width / term.cols
      const cellH = screen.height / term.rows
      return { x: screen.left + (col + 0.5) * cellW, y: screen.top + (row + 0.5) * cellH, cellWidth: cellW }
    }
    return null
  }, text)
  if (!point) throw new Error(`"${text}" is not on screen`)
  return point
}

/** Whether xterm.js shows the pointer of a hovered link. */
export function pointerIsOnLink(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const root = (window as FxWindow).fxterm!.term.element!
    return root.classList.contains('xterm-cursor-pointer') || root.querySelector('.xterm-cursor-pointer') !== null
  })
}

/**
 * Moves onto `text` and clicks it once it shows as a link. xterm.js looks for links when the
 * pointer enters a new cell, so each check moves between the text's first two cells.
 */
export async function clickLink(page: Page, text: string): Promise<void> {
  const { x, y, cellWidth } = await pointAt(page, text)
  let step = 0
  await expect
    .poll(
      async () => {
        await page.mouse.move(x + (step++ % 2) * cellWidth, y)
        return pointerIsOnLink(page)
      },
      { message: `"${text}" shows as a link` },
    )
    .toBe(true)
  await page.mouse.click(x + ((step - 1) % 2) * cellWidth, y)
}

/** Moves onto `text` and clicks it, link or not. */
export async function clickText(page: Page, text: string): Promise<void> {
  const { x, y } = await pointAt(page, text)
  await page.mouse.move(x - 2, y)
  await page.mouse.move(x, y)
  await page.mouse.click(x, y)
}
