/**
 * Wires an xterm.js Terminal to fxterm: output, input, resizes, and the browser key chords
 * xterm would otherwise lose. Shift+Enter arrives from xterm as a plain CR, so it is encoded as
 * CSI 13;2u (the kitty/xterm "modifyOtherKeys" form the engine reads as "new line").
 */
import { createScreenReader } from './screen-reader.ts'
import type { Terminal } from '@xterm/xterm'
import type { TerminalAdapter } from '../../shared/terminal-adapter.ts'

type KeyHandler = (event: KeyboardEvent) => boolean

/** What the encoder asks the terminal: whether xterm has a selection of its own output. */
export type XtermSelectionState = { hasSelection(): boolean }

/**
 * Encodes a key event xterm would lose or mis-encode; undefined lets xterm (and the browser)
 * handle it. The bytes are the ones the engine reads (table in wasm/engine/screen/keys.ts and
 * wasm/ABI.md, "Key encodings"). Cmd chords are read from `metaKey` (macOS); the Ctrl chords that
 * do not clash with terminal keys (Ctrl+Z, Ctrl+Shift+Z, Ctrl+Backspace) behave the same on every
 * platform, while Ctrl+A stays "start of line" and Ctrl+C stays \x03 (the engine copies on it only
 * when the composer has a selection). Cmd+C with a selection in xterm's own output is left to
 * xterm, which copies that selection.
 */
export function encodeXtermKeyEvent(event: KeyboardEvent, term?: XtermSelectionState): string | undefined {
  if (event.type !== 'keydown') return undefined
  const { key, shiftKey: shift, altKey: alt, ctrlKey: ctrl, metaKey: meta } = event
  if (key === 'Enter' && shift && !ctrl && !meta && !alt) return '\x1b[13;2u'
  const letter = key.length === 1 ? key.toLowerCase() : ''
  if (meta && !ctrl && !alt) {
    if (key === 'ArrowLeft') return '\x1b[H'
    if (key === 'ArrowRight') return '\x1b[F'
    if (key === 'ArrowUp') return '\x1b[1;5H'
    if (key === 'ArrowDown') return '\x1b[1;5F'
    if (key === 'Backspace') return '\x15'
    if (letter === 'z') return shift ? '\x1b[122;6u' : '\x1f'
    if (shift) return undefined
    if (letter === 'a') return '\x1b[97;9u'
    if (letter === 'c') return term?.hasSelection() ? undefined : '\x1b[99;9u'
    if (letter === 'x') return '\x1b[120;9u'
    return undefined
  }
  if (ctrl && !meta && !alt) {
    if (letter === 'z') return shift ? '\x1b[122;6u' : '\x1f'
    if (key === 'Backspace') return '\x1b\x7f'
    return undefined
  }
  if (alt && !ctrl && !meta) {
    if (key === 'Backspace') return '\x1b\x7f'
    // macOS Option+B/F/D type ∫ ƒ ∂: read by physical key, they are the word keys, as elsewhere.
    const code = event.code ?? ''
    if (!shift && (code === 'KeyB' || code === 'KeyF' || code === 'KeyD')) return '\x1b' + code.slice(3).toLowerCase()
  }
  return undefined
}

/** Ctrl+C, Ctrl+Shift+C (Linux terminals) or Cmd+C (macOS), as a key goes down. */
export function isCopyChord(event: KeyboardEvent): boolean {
  if (event.type !== 'keydown' || event.altKey || event.key.toLowerCase() !== 'c') return false
  return event.metaKey ? !event.ctrlKey && !event.shiftKey : event.ctrlKey
}

/** Adapts an xterm.js `Terminal` to the `TerminalAdapter` fxterm drives. */
export function xtermAdapter(term: Terminal): TerminalAdapter {
  const extra = new Set<(data: string) => void>()
  const copyListeners = new Set<(text: string) => void>()
  const screenReader = createScreenReader(term)
  let appHandler: KeyHandler | undefined

  // Compose with an app's own custom key handler instead of replacing it: later calls to
  // attachCustomKeyEventHandler install the app's handler behind ours.
  const ours: KeyHandler = (event) => {
    if (appHandler && appHandler(event) === false) return false
    // A selection of xterm's own output is copied as every web terminal does, and the chord is
    // not a key: a Ctrl+C that copies never interrupts, clears or counts toward anything.
    if (copyListeners.size > 0 && isCopyChord(event) && term.hasSelection()) {
      event.preventDefault()
      const text = term.getSelection()
      for (const listener of copyListeners) listener(text)
      return false
    }
    const encoded = encodeXtermKeyEvent(event, term)
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
    writeNow: (data) => {
      parseNextWriteAtOnce(term)
      term.write(data)
    },
    onData(listener) {
      // The empty input parseNextWriteAtOnce makes is no input.
      const disposable = term.onData((data) => data !== '' && listener(data))
      extra.add(listener)
      return () => {
        disposable.dispose()
        extra.delete(listener)
      }
    },
    onCopy(listener) {
      copyListeners.add(listener)
      return () => copyListeners.delete(listener)
    },
    onResize(listener) {
      const disposable = term.onResize(listener)
      return () => disposable.dispose()
    },
    focus: () => term.focus(),
    setScreenReaderMode: (on) => screenReader.set(on),
    announce: (text) => screenReader.announce(text),
  }
}

/**
 * xterm.js parses the first write after user input at once (its own local-echo path) and queues
 * any other write for a later task. A frame from the engine arrives in a message task of its own:
 * a queued one held the next key's echo behind it until that task ran, often a frame later (11-25
 * ms for ~1 key in 10 when typing fast). An empty input marked as the user's (`term.input`) gives
 * the frame the same path. Like a typed key, it would also clear a selection and bring a view
 * scrolled back to the bottom: then nothing is marked and the write is queued as before. The empty
 * data it sends reaches xterm's onData listeners; the adapter's own onData drops it.
 */
export function parseNextWriteAtOnce(term: Pick<Terminal, 'input' | 'hasSelection' | 'buffer'>): void {
  const buffer = term.buffer.active
  if (term.hasSelection() || buffer.viewportY !== buffer.baseY) return
  term.input('', true)
}
