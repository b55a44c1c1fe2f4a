// Times "key pressed → text on screen" inside the page. Measured through Playwright instead,
// every CDP round trip (tens of ms on a busy 2-core machine) would be counted as app latency.
import type { Page } from '@playwright/test'
import type { Terminal } from '@xterm/xterm'

export type KeyMatch = { key: string; ctrlKey?: boolean }

type ProbeWindow = Window & { fxterm?: { term: Terminal }; __fxKeyToText?: Promise<number> }

/**
 * Starts watching for `match` (a keydown seen in the capture phase, before xterm handles it)
 * and for `text` showing up in the terminal buffer afterwards. Press the key, then await the
 * returned function: it gives the milliseconds between the two, as the page's clock saw them.
 * The buffer is checked on every parsed write (the moment text lands) and on every frame.
 */
export async function armKeyToText(page: Page, match: KeyMatch, text: string, timeoutMs = 10_000): Promise<() => Promise<number>> {
  await page.evaluate(
    ({ match, text, timeoutMs }) => {
      const w = window as ProbeWindow
      const term = w.fxterm?.term
      if (!term) throw new Error('window.fxterm.term is missing')
      const shows = () => {
        const buffer = term.buffer.active
        // Only the bottom of the buffer: new transcript lines land there, and a scan of the
        // whole scrollback per write would itself slow the page we are timing.
        for (let i = Math.max(0, buffer.length - term.rows - 50); i < buffer.length; i++) {
          if (buffer.getLine(i)?.translateToString(true).includes(text)) return true
        }
        return false
      }
      if (shows()) throw new Error(`"${text}" is already on screen before the key is pressed`)
      w.__fxKeyToText = new Promise<number>((resolve, reject) => {
        let pressedAt: number | null = null
        let frame = 0
        const onKey = (event: KeyboardEvent) => {
          if (pressedAt !== null) return
          if (event.key.toLowerCase() === match.key.toLowerCase() && event.ctrlKey === Boolean(match.ctrlKey)) pressedAt = performance.now()
        }
        const check = () => {
          if (pressedAt === null || !shows()) return
          const elapsed = performance.now() - pressedAt
          stop()
          resolve(elapsed)
        }
        const onFrame = () => {
          check()
          frame = requestAnimationFrame(onFrame)
        }
        const parsed = term.onWriteParsed(check)
        const timer = setTimeout(() => {
          stop()
          reject(new Error(`"${text}" did not appear within ${timeoutMs} ms of the key (pressed: ${pressedAt !== null})`))
        }, timeoutMs)
        function stop() {
          window.removeEventListener('keydown', onKey, { capture: true })
          parsed.dispose()
          cancelAnimationFrame(frame)
          clearTimeout(timer)
        }
        window.addEventListener('keydown', onKey, { capture: true })
        frame = requestAnimationFrame(onFrame)
      })
      // Keep an unobserved rejection from surfacing as a page error before the spec awaits it.
      w.__fxKeyToText.catch(() => undefined)
    },
    { match, text, timeoutMs },
  )
  return () => page.evaluate(() => (window as ProbeWindow).__fxKeyToText as Promise<number>)
}
