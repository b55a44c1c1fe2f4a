/** What fxterm needs from a terminal: its size, a way to write, and its input and resizes. */
export type TerminalAdapter = {
  readonly cols: number
  readonly rows: number
  write(data: Uint8Array | string): void
  /**
   * Writes a key's answer (a small frame, an echo), parsed at once where the terminal can: a
   * write left queued would hold up the next key's echo behind it. Default: `write`.
   */
  writeNow?(data: Uint8Array | string): void
  /** Subscribes to input (keys, pastes) as the terminal encodes it; returns an unsubscribe. */
  onData(listener: (data: string) => void): () => void
  /** Subscribes to size changes; returns an unsubscribe. */
  onResize(listener: (size: { cols: number; rows: number }) => void): () => void
  /**
   * Subscribes to the person copying a selection of the terminal's own output (Ctrl+C,
   * Ctrl+Shift+C, Cmd+C with a selection): the listener puts it on the clipboard. A copy is
   * never input. Returns an unsubscribe.
   */
  onCopy?(listener: (text: string) => void): () => void
  focus?(): void
  /** Screen-reader mode on or off (/a11y). */
  setScreenReaderMode?(on: boolean): void
  /** Reads a finished reply or command result out (screen-reader mode only). */
  announce?(text: string): void
}
