/**
 * Resizes the terminal to its box only after the output already queued has been parsed.
 * xterm parses writes later, on its own schedule; a resize that lands between the engine's
 * write and its parsing makes xterm read a frame drawn for the old size at the new one, and the
 * footer's cursor moves then leave a stale divider in the scrollback. Resizing from a write
 * callback keeps every queued frame at the size it was drawn for. Bursts collapse into one.
 */
import type { Terminal } from '@xterm/xterm'

type Fit = { proposeDimensions(): { cols: number; rows: number } | undefined }

export function fitBetweenWrites(term: Terminal, fit: Fit): () => void {
  let scheduled = false
  return () => {
    if (scheduled) return
    scheduled = true
    term.write('', () => {
      scheduled = false
      const size = fit.proposeDimensions()
      // A hidden box proposes nothing (or zero): keep the size until it is visible again.
      if (!size || !(size.cols > 0) || !(size.rows > 0)) return
      if (size.cols !== term.cols || size.rows !== term.rows) term.resize(size.cols, size.rows)
    })
  }
}
