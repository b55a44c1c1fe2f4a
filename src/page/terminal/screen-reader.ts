/**
 * Screen-reader mode for an xterm.js terminal (/a11y). xterm's own mode gives the buffer as
 * readable rows; its live region, which reads output out as it is written, is muted, because a
 * streamed reply would be read character by character. fxterm announces instead: each finished
 * reply and command result, once, in order, in a polite live region of its own.
 */
import type { Terminal } from '@xterm/xterm'

/** Announcements kept in the region (older ones are removed; they have been read). */
const KEEP = 20

export type ScreenReader = {
  set(on: boolean): void
  announce(text: string): void
  /** The live region (tests read it). */
  readonly region: HTMLElement
}

export function createScreenReader(term: Terminal): ScreenReader {
  const region = document.createElement('div')
  region.className = 'fxterm-announcements'
  region.setAttribute('role', 'log')
  region.setAttribute('aria-live', 'polite')
  region.setAttribute('aria-relevant', 'additions')
  // Visually hidden, still read: the usual clip pattern.
  Object.assign(region.style, { position: 'absolute', width: '1px', height: '1px', margin: '-1px', padding: '0', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'pre-wrap', border: '0' })
  let on = false

  const muteXtermLiveRegion = () => {
    for (const el of term.element?.querySelectorAll<HTMLElement>('.live-region') ?? []) el.setAttribute('aria-live', 'off')
  }

  return {
    region,
    set(next) {
      on = next
      term.options.screenReaderMode = next
      if (next) {
        if (!region.isConnected) (term.element?.parentElement ?? document.body).append(region)
        muteXtermLiveRegion()
      }
    },
    announce(text) {
      if (!on) return
      const item = document.createElement('p')
      item.textContent = text
      region.append(item)
      while (region.childElementCount > KEEP) region.firstElementChild?.remove()
    },
  }
}
