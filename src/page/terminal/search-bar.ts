/**
 * Search in the scrollback: Ctrl+Shift+F (Cmd+F on a Mac) opens a small bar over the terminal's
 * top-right corner. Typing searches as you go, Enter / Shift+Enter (or the arrows) move to the
 * next / previous match, every match is highlighted and the count shown; Esc closes the bar and
 * gives the keys back to the terminal. Built with the search addon; styled inline, so it needs
 * no stylesheet and never touches the host page's CSS.
 */
import type { Terminal } from '@xterm/xterm'
import { SearchAddon } from '@xterm/addon-search'
import { isSearchKey } from './search-key.ts'

export type SearchBar = {
  /** For `attachCustomKeyEventHandler`: false when the key opened the bar (xterm skips it). */
  handleKey(event: KeyboardEvent): boolean
  open(): void
  close(): void
  /** The bar's root element (tests read it). */
  readonly element: HTMLElement
  dispose(): void
}

const DECORATIONS = {
  matchBackground: '#6b5b00',
  matchOverviewRuler: '#e5c07b',
  activeMatchBackground: '#b58900',
  activeMatchColorOverviewRuler: '#ffd75f',
}

function button(label: string, title: string): HTMLButtonElement {
  const b = document.createElement('button')
  b.type = 'button'
  b.textContent = label
  b.title = title
  b.setAttribute('aria-label', title)
  Object.assign(b.style, { font: 'inherit', background: 'transparent', color: 'inherit', border: '0', padding: '0 6px', cursor: 'pointer' })
  return b
}

export function attachSearchBar(term: Terminal, container: HTMLElement): SearchBar {
  const addon = new SearchAddon()
  term.loadAddon(addon)

  const bar = document.createElement('div')
  bar.setAttribute('role', 'search')
  bar.className = 'fxterm-search'
  Object.assign(bar.style, {
    position: 'absolute', top: '6px', right: '14px', zIndex: '10', display: 'none', alignItems: 'center', gap: '4px',
    padding: '4px 6px', borderRadius: '6px', font: '13px system-ui, sans-serif', background: '#1f2430', color: '#e5e9f0',
    boxShadow: '0 2px 8px rgba(0,0,0,.4)',
  })
  const input = document.createElement('input')
  input.type = 'search'
  input.placeholder = 'Search'
  input.setAttribute('aria-label', 'Search the terminal output')
  Object.assign(input.style, { font: 'inherit', width: '16em', background: '#0f1115', color: 'inherit', border: '1px solid #3b4252', borderRadius: '4px', padding: '2px 6px' })
  const count = document.createElement('span')
  count.setAttribute('aria-live', 'polite')
  Object.assign(count.style, { minWidth: '5em', textAlign: 'center', opacity: '0.85' })
  const prev = button('↑', 'Previous match (Shift+Enter)')
  const next = button('↓', 'Next match (Enter)')
  const close = button('×', 'Close (Esc)')
  bar.append(input, count, prev, next, close)
  if (getComputedStyle(container).position === 'static') container.style.position = 'relative'
  container.append(bar)

  const options = { decorations: DECORATIONS }
  const results = addon.onDidChangeResults(({ resultIndex, resultCount }) => {
    count.textContent = input.value === '' ? '' : resultCount === 0 ? 'no matches' : `${resultIndex + 1} of ${resultCount}`
  })
  const find = (forward: boolean, incremental = false) => {
    if (input.value === '') {
      addon.clearDecorations()
      count.textContent = ''
      return
    }
    if (forward) addon.findNext(input.value, { ...options, incremental })
    else addon.findPrevious(input.value, options)
  }

  const api: SearchBar = {
    element: bar,
    handleKey(event) {
      if (!isSearchKey(event)) return true
      event.preventDefault()
      api.open()
      return false
    },
    open() {
      bar.style.display = 'flex'
      input.focus()
      input.select()
      if (input.value !== '') find(true, true)
    },
    close() {
      bar.style.display = 'none'
      addon.clearDecorations()
      term.clearSelection()
      term.focus()
    },
    dispose() {
      results.dispose()
      addon.dispose()
      bar.remove()
    },
  }

  input.addEventListener('input', () => find(true, true))
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') find(!event.shiftKey)
    else if (event.key === 'Escape') api.close()
    else if (isSearchKey(event)) input.select()
    else return
    event.preventDefault()
  })
  prev.addEventListener('click', () => find(false))
  next.addEventListener('click', () => find(true))
  close.addEventListener('click', () => api.close())
  return api
}
