/**
 * Resizes the terminal to its box only after the output already queued has been parsed.
 * xterm parses writes later, on its own schedule; a resize that lands between the engine's
 * write and its parsing makes xterm read a frame drawn for the old size at the new one, and the
 * footer's cursor moves then leave a stale divider in the scrollback. Resizing from a write
 * callback keeps every queued frame at the size it was drawn for. Bursts collapse into one.
 */
import type { Terminal } from '@xterm/xterm'

type Fit = { proposeDimensions(): { cols: number; rows: number } | undefined }

/**
 * `redrawn` resolves once the app has redrawn for the size just set (FxTerminal.resized): the
 * next size waits for it, because a frame still on its way from the engine would otherwise
 * arrive after the terminal had moved on to another size.
 */
export function fitBetweenWrites(term: Terminal, fit: Fit, redrawn: () => Promise<void> = () => Promise.resolve()): () => void {
  let busy = false
  let again = false
  const settle = () => {
    if (!again) {
      busy = false
      return
    }
    again = false
    step()
  }
  const step = () => {
    term.write('', () => {
      const size = fit.proposeDimensions()
      // A hidden box proposes nothing (or zero): keep the size until it is visible again.
      if (!size || !(size.cols > 0) || !(size.rows > 0) || (size.cols === term.cols && size.rows === term.rows)) {
        settle()
        return
      }
      term.resize(size.cols, size.rows)
      // Look again once this size is drawn: the box may have changed meanwhile.
      again = true
      void redrawn().then(settle, settle)
    })
  }
  return () => {
    if (busy) {
      again = true
      return
    }
    busy = true
    step()
  }
}
