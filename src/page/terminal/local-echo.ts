/**
 * Local echo: a printable ASCII key is drawn by the page at once, instead of a frame later
 * when the engine worker's answer arrives (Chromium delivers worker messages after the frame
 * that follows an input event). The engine says how many columns are safe (typing appends to
 * the draft's last row, nothing else listens to keys).
 *
 * The engine's frames can lag more than one key behind (a busy worker, a burst of frames
 * delivered together): a frame that knows only the keys before the last few redraws the row
 * without them, and an echo drawn after it would land a column early. So every input is
 * numbered, each frame says how many inputs it has seen (`keysSeen`), and after a frame the page
 * draws again the printable keys the frame has not seen yet, as mosh's predictive echo does. The
 * engine's next frame redraws the row either way, so a wrong guess lasts one frame.
 */
export type LocalEcho = {
  /** The engine's frame was written: `columns` may be echoed from its state, which has seen `keysSeen` inputs. */
  setBudget(columns: number, keysSeen?: number): void
  /** An input sent to the engine (typed or written), in order; echoed when it is one printable ASCII character and the budget allows. */
  keyTyped(data: string): void
}

const printable = (data: string) => data.length === 1 && data.charCodeAt(0) >= 0x20 && data.charCodeAt(0) <= 0x7e

export function createLocalEcho(write: (text: string) => void): LocalEcho {
  let budget = 0
  /** Inputs sent so far; `unseen` holds those no frame has seen yet (their number is `sent - unseen.length + i + 1`). */
  let sent = 0
  let unseen: string[] = []
  /** An input that changes what typing means (Enter, Esc, a paste…): nothing after it is echoed until a frame has seen it. */
  const echo = (data: string) => {
    if (!printable(data)) {
      budget = 0
      return false
    }
    if (budget <= 0) return false
    budget--
    write(data)
    return true
  }
  return {
    setBudget(columns, keysSeen) {
      budget = columns
      if (keysSeen === undefined) {
        unseen = []
        return
      }
      unseen = unseen.slice(Math.max(0, unseen.length - (sent - keysSeen)))
      for (const data of unseen) if (!echo(data)) break
    },
    keyTyped(data) {
      sent++
      unseen.push(data)
      // An engine that writes nothing for this long has lost the thread anyway.
      if (unseen.length > 4096) unseen.shift()
      echo(data)
    },
  }
}
