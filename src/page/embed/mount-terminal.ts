/**
 * An fxterm in a box: xterm.js with fxterm's look, the theme, http(s) links (asking first when a
 * link's text is not its target), the scrollback search bar, and resizing that follows the box
 * (only while it is visible, one size at a time). The static page and the <fx-terminal> element
 * both mount through here.
 */
import { Terminal } from '@xterm/xterm'
import { FitAddon } from '@xterm/addon-fit'
import { startFxTerminal, type FxTerminal, type FxTerminalStartOptions } from '../terminal/create-fx-terminal.ts'
import { xtermAdapter } from '../terminal/xterm-adapter.ts'
import { fitBetweenWrites } from '../terminal/fit-between-writes.ts'
import { attachLinks } from '../terminal/links.ts'
import type { SearchBar } from '../terminal/search-bar.ts'
import { isSearchKey } from '../terminal/search-key.ts'
import { attachTouchKeys, hasCoarsePointer } from '../terminal/touch-keys.ts'
import { attachTouchScroll } from '../terminal/touch-scroll.ts'
import { applyTheme, MIN_CONTRAST, paletteOf, THEMES, type ThemeMode, type ThemeName } from '../terminal/themes.ts'
import type { ITheme } from '@xterm/xterm'
import { monospaceFonts } from '../terminal/font-stack.ts'
import { markPhase } from '../../shared/start-up-timeline.ts'

export type MountOptions = Omit<FxTerminalStartOptions, 'terminal'> & {
  theme?: ThemeMode
  /** Called with each palette applied (to colour what surrounds the terminal). */
  onTheme?: (name: ThemeName, theme: ITheme) => void
  /** Shows the session but takes no typing (a demo to watch). */
  readonly?: boolean
  /** The on-screen key row (Esc, Tab, Ctrl+C, arrows, Send); default: on touch screens. */
  touchKeys?: boolean
}

export type MountedTerminal = {
  term: Terminal
  runtime: FxTerminal
  /** Switches the palette (and stops following the system's scheme when it leaves `auto`). */
  setTheme(mode: ThemeMode): void
  dispose(): void
}

export function mountFxTerminal(container: HTMLElement, options: MountOptions): MountedTerminal {
  const { theme, onTheme, readonly, touchKeys, ...fxOptions } = options
  markPhase('open-terminal', 'start')
  const term = new Terminal({
    fontFamily: monospaceFonts(),
    fontSize: 14,
    lineHeight: 1.15,
    // A steady cursor, as in VS Code's terminal: xterm.js's DOM renderer blinks it with a CSS
    // animation, which restyles the page at every frame (about 60 times a second, some 6 % of a
    // core on a page left open, and a tenth of the start-up's prompt on two cores).
    cursorBlink: false,
    scrollback: 5000,
    allowProposedApi: true,
    disableStdin: Boolean(readonly),
    // Set here rather than after: each option changed later is one more round of xterm.js's
    // reactions (the palette computed twice, say) while the page is starting.
    theme: THEMES[paletteOf(theme ?? 'dark')],
    minimumContrastRatio: MIN_CONTRAST,
  })
  let stopTheme = applyTheme(term, theme ?? 'dark', onTheme)
  // The key row takes its room (the container's bottom padding) before the first fit, so the
  // engine starts at the size it keeps.
  const detachTouchKeys = !readonly && (touchKeys ?? hasCoarsePointer()) ? attachTouchKeys(container, (data) => runtime.write(data), () => term.focus()) : () => {}
  // The terminal opens in a box that fills the container's content area. FitAddon sizes the
  // terminal to its parent's computed height, which for a border-box container includes the
  // padding (the page's margin, the key row's room): opened in the container itself, the last
  // rows ran under the key row and past the bottom edge.
  const box = document.createElement('div')
  box.className = 'fxterm-fit-box'
  Object.assign(box.style, { width: '100%', height: '100%', overflow: 'hidden' })
  container.append(box)
  const fit = new FitAddon()
  term.loadAddon(fit)
  term.open(box)
  const detachLinks = attachLinks(term)
  fit.fit()
  markPhase('open-terminal', 'end')
  const runtime = startFxTerminal({
    ...fxOptions,
    terminal: xtermAdapter(term),
    dropTarget: fxOptions.dropTarget ?? container,
    // The terminal is fresh and fxterm's alone: it takes keys before the engine has started.
    typeAhead: fxOptions.typeAhead ?? !readonly,
  })
  const detachTouchScroll = attachTouchScroll(term, (data) => runtime.write(data))
  // Ctrl+Shift+F / Cmd+F searches the scrollback (the key never reaches the composer). The bar and
  // the search addon load the first time the key is pressed.
  let search: Promise<SearchBar> | null = null
  term.attachCustomKeyEventHandler((event) => {
    if (!isSearchKey(event)) return true
    event.preventDefault()
    search ??= import('../terminal/search-bar.ts').then(({ attachSearchBar }) => attachSearchBar(term, container))
    void search.then((bar) => bar.open())
    return false
  })
  // Resize only after queued frames are parsed, and one size at a time: each waits until fxterm
  // has redrawn for the last. A hidden box (a closed tab or accordion) proposes no size: kept.
  const observer = new ResizeObserver(fitBetweenWrites(term, fit, () => runtime.resized()))
  observer.observe(box)
  return {
    term,
    runtime,
    setTheme(mode) {
      stopTheme()
      stopTheme = applyTheme(term, mode, onTheme)
    },
    dispose() {
      observer.disconnect()
      stopTheme()
      void search?.then((bar) => bar.dispose())
      detachTouchKeys()
      detachTouchScroll()
      detachLinks()
      runtime.abort()
      term.dispose()
      box.remove()
    },
  }
}
