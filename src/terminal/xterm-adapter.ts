/**
 * Wires an xterm.js Terminal to fxterm: output, input, resizes, and the browser key chords
 * xterm would otherwise lose. Shift+Enter arrives from xterm as a plain CR, so it is encoded as
 * CSI 13;2u (the kitty/xterm "modifyOtherKeys" form the engine reads as "new line").
 */
import type { Terminal } from '@xterm/xterm'
import type { TerminalAdapter } from './terminal-adapter.ts'

type KeyHandler = (event: KeyboardEvent) => boolean

/** Encodes a key event xterm would mis-encode; undefined lets xterm handle it. */
export function encodeXtermKeyEvent(event: KeyboardEvent): string | undefined {
  if (event.type !== 'keydown') return undefined
  if (event.key === 'Enter' && event.shiftKey && !event.ctrlKey && !event.metaKey) return '\x1b[13;2u'
  if (event.metaKey && !event.ctrlKey) {
    if (event.key === 'ArrowLeft') return '\x1b[H'
    if (event.key === 'ArrowRight') return '\x1b[F'
    if (event.key === 'Backspace') return '\x15'
  }
  return undefined
}

/** Adapts an xterm.js `Terminal` to the `TerminalAdapter` fxterm drives. */
export function xtermAdapter(term: Terminal): TerminalAdapter {
  const extra = new Set<(data: string) => void>()
  let appHandler: KeyHandler | undefined

  // Compose with an app's own custom key handler instead of replacing it: later calls to
  // attachCustomKeyEventHandler install the app's handler behind ours.
  const ours: KeyHandler = (event) => {
    if (appHandler && appHandler(event) === false) return false
    const encoded = encodeXtermKeyEvent(event)
    if (encoded === undefined) return true
    event.preventDefault()
    for (const listener of extra) listener(encoded)
    return false
  }
  const attach = term.attachCustomKeyEventHandler.bind(term)
  attach(ours)
  term.attachCustomKeyEventHandler = (handler: KeyHandler) => {
    appHandler = handler
  }

  return {
    get cols() {
      return term.cols
    },
    get rows() {
      return term.rows
    },
    write: (data) => term.write(data),
    onData(listener) {
      const disposable = term.onData(listener)
      extra.add(listener)
      return () => {
        disposable.dispose()
        extra.delete(listener)
      }
    },
    onResize(listener) {
      const disposable = term.onResize(listener)
      return () => disposable.dispose()
    },
    focus: () => term.focus(),
  }
}
