/**
 * Local echo: a printable ASCII key is drawn by the page at once, instead of a frame later
 * when the engine worker's answer arrives (Chromium delivers worker messages after the frame
 * that follows an input event). The engine says how many columns are safe (typing appends to
 * the draft's last row, nothing else listens to keys); its next frame redraws the row anyway,
 * so the guess only has to be right for one frame.
 */
export type LocalEcho = {
  /** The engine's latest answer: how many characters may be echoed from here. */
  setBudget(columns: number): void
  /** Echoes `data` when it is one printable ASCII character and the budget allows. */
  keyTyped(data: string): void
}

export function createLocalEcho(write: (text: string) => void): LocalEcho {
  let budget = 0
  return {
    setBudget(columns) {
      budget = columns
    },
    keyTyped(data) {
      const code = data.length === 1 ? data.charCodeAt(0) : -1
      if (code < 0x20 || code > 0x7e) {
        // Enter, Esc, a paste…: the engine may change what typing means (a masked /key entry),
        // so nothing more is echoed until it says so again.
        budget = 0
        return
      }
      if (budget <= 0) return
      budget--
      write(data)
    },
  }
}
