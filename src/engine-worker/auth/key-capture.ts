/**
 * Typing a key with /key: the host reads these keystrokes itself, so the key never enters the
 * engine (which only learns how many characters there are, to draw as many •). Bracketed paste
 * markers and other escape sequences are dropped; a lone Esc or Ctrl+C cancels, Enter saves,
 * Backspace deletes, Ctrl+U clears.
 */

/** Longer than any real key; stops a runaway paste from growing without bound. */
export const MAX_KEY_LENGTH = 4096

export type KeyCaptureResult = { done: 'save' | 'cancel' | null }

export type KeyCapture = {
  /** Reads a chunk of terminal input; says whether the entry ended. */
  feed(data: string): KeyCaptureResult
  readonly length: number
  /** The key typed so far (only the host ever calls this). */
  value(): string
}

export function createKeyCapture(): KeyCapture {
  let chars: string[] = []
  return {
    feed(data) {
      for (let i = 0; i < data.length; i++) {
        const c = data[i]!
        const code = c.charCodeAt(0)
        if (code === 0x1b) {
          const next = data[i + 1]
          // A lone Esc (nothing follows in this chunk) cancels; a sequence is skipped whole.
          if (next === undefined) return { done: 'cancel' }
          i = skipSequence(data, i)
          continue
        }
        if (c === '\r' || c === '\n') {
          // Pasted text may end with a newline; only a key typed so far can be saved.
          if (chars.length > 0) return { done: 'save' }
          continue
        }
        if (code === 0x03) return { done: 'cancel' }
        if (code === 0x7f || code === 0x08) chars.pop()
        else if (code === 0x15) chars = []
        else if (code > 0x20 && code !== 0x7f && chars.length < MAX_KEY_LENGTH) chars.push(c)
      }
      return { done: null }
    },
    get length() {
      return chars.length
    },
    value: () => chars.join(''),
  }
}

/** The index of the last character of the escape sequence starting at `i`. */
function skipSequence(data: string, i: number): number {
  const kind = data[i + 1]
  if (kind === '[' || kind === 'O') {
    let j = i + 2
    while (j < data.length) {
      const code = data.charCodeAt(j)
      if (code >= 0x40 && code <= 0x7e && !(kind === '[' && j === i + 2 && data[j] === '[')) return j
      j++
    }
    return data.length - 1
  }
  return i + 1 // Alt+<key>: ESC and one character
}
