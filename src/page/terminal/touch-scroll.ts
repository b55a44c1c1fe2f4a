/**
 * Scrolling by touch. xterm.js 6 has no touch handling of its own (its VS Code scrollable takes
 * only wheel events: xtermjs/xterm.js#5489), so a swipe moved nothing on a phone. A vertical
 * one-finger drag scrolls the scrollback here, a row per row-height dragged; in the alternate
 * screen (Ctrl+O's transcript view), which has no scrollback, it sends Up/Down like the keys.
 * A tap is left alone, so it still focuses the terminal and brings up the keyboard.
 */
import type { Terminal } from '@xterm/xterm'

export function attachTouchScroll(term: Terminal, sendKeys: (data: string) => void): () => void {
  const element = term.element
  if (!element) return () => {}
  let lastY: number | null = null
  let carry = 0

  const start = (event: TouchEvent) => {
    lastY = event.touches.length === 1 ? event.touches[0]!.clientY : null
    carry = 0
  }
  const move = (event: TouchEvent) => {
    if (lastY === null || event.touches.length !== 1) return
    const y = event.touches[0]!.clientY
    const rowHeight = element.clientHeight / Math.max(1, term.rows)
    carry += y - lastY
    lastY = y
    // Keep the page (and pull-to-refresh) out of it while the terminal scrolls.
    event.preventDefault()
    const rows = Math.trunc(carry / rowHeight)
    if (rows === 0) return
    carry -= rows * rowHeight
    // Dragging down shows earlier lines.
    if (term.buffer.active.type === 'normal') term.scrollLines(-rows)
    else sendKeys((rows > 0 ? '\x1b[A' : '\x1b[B').repeat(Math.abs(rows)))
  }
  const end = () => {
    lastY = null
  }
  element.addEventListener('touchstart', start, { passive: true })
  element.addEventListener('touchmove', move, { passive: false })
  element.addEventListener('touchend', end, { passive: true })
  element.addEventListener('touchcancel', end, { passive: true })
  return () => {
    element.removeEventListener('touchstart', start)
    element.removeEventListener('touchmove', move)
    element.removeEventListener('touchend', end)
    element.removeEventListener('touchcancel', end)
  }
}
