/**
 * The on-screen key row for touch screens, where the soft keyboard has no Esc, Tab, Ctrl or
 * arrows: Esc, Tab, Ctrl+C, ← ↑ ↓ → and Send (Enter). Shown only where the main pointer is coarse
 * (a phone or tablet), under the terminal. Pressing a key never takes focus from the terminal,
 * so the soft keyboard stays up.
 */

/** Label, what it sends (as the terminal encodes it), and its accessible name. */
const KEYS: Array<[string, string, string]> = [
  ['Esc', '\x1b', 'Escape'],
  ['Tab', '\t', 'Tab'],
  ['^C', '\x03', 'Control C'],
  ['←', '\x1b[D', 'Left'],
  ['↑', '\x1b[A', 'Up'],
  ['↓', '\x1b[B', 'Down'],
  ['→', '\x1b[C', 'Right'],
  ['Send', '\r', 'Send'],
]

export const TOUCH_ROW_HEIGHT = 40

/** True on devices whose main pointer is a finger. */
export function hasCoarsePointer(): boolean {
  return globalThis.matchMedia?.('(pointer: coarse)').matches ?? false
}

/**
 * Adds the row at the bottom of `container` (which keeps `TOUCH_ROW_HEIGHT` px free for it) and
 * calls `send` with a key's bytes. Returns a function that removes it.
 */
export function attachTouchKeys(container: HTMLElement, send: (data: string) => void, refocus: () => void): () => void {
  const row = document.createElement('div')
  row.className = 'fxterm-touch-keys'
  row.setAttribute('role', 'toolbar')
  row.setAttribute('aria-label', 'Terminal keys')
  Object.assign(row.style, {
    position: 'absolute', left: '0', right: '0', bottom: '0', height: `${TOUCH_ROW_HEIGHT}px`, display: 'flex', gap: '4px',
    padding: '4px', boxSizing: 'border-box', background: 'rgba(127,127,127,0.15)', zIndex: '5',
  })
  for (const [label, data, name] of KEYS) {
    const key = document.createElement('button')
    key.type = 'button'
    key.textContent = label
    key.setAttribute('aria-label', name)
    Object.assign(key.style, {
      flex: label === 'Send' ? '2' : '1', font: '14px system-ui, sans-serif', border: '0', borderRadius: '6px',
      background: 'rgba(127,127,127,0.3)', color: 'inherit', touchAction: 'manipulation',
    })
    // pointerdown without default: the terminal's textarea keeps focus and the keyboard stays.
    key.addEventListener('pointerdown', (event) => event.preventDefault())
    key.addEventListener('click', () => {
      send(data)
      refocus()
    })
    row.append(key)
  }
  const previousPadding = container.style.paddingBottom
  container.style.paddingBottom = `${TOUCH_ROW_HEIGHT}px`
  if (getComputedStyle(container).position === 'static') container.style.position = 'relative'
  container.append(row)
  return () => {
    row.remove()
    container.style.paddingBottom = previousPadding
  }
}
