import { describe, expect, test } from 'vitest'
import { applyTheme, DARK_THEME, LIGHT_THEME, themeMode } from './themes.ts'
import type { ITheme } from '@xterm/xterm'

/** WCAG 2 relative luminance and contrast ratio of two #rrggbb colours. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi! + 0.05) / (lo! + 0.05)
}

/** Every colour the engine writes text in: default, ANSI 31–36, 90 (gray) and 94 (links, keys). */
const TEXT_COLOURS = ['foreground', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'brightBlack', 'brightBlue'] as const

describe.each([
  ['dark', DARK_THEME],
  ['light', LIGHT_THEME],
])('the %s palette', (_name, theme: ITheme) => {
  test.each(TEXT_COLOURS)('%s text meets WCAG AA (4.5:1) on the background', (key) => {
    expect(contrast(theme[key]!, theme.background!)).toBeGreaterThanOrEqual(4.5)
  })

  test('prompt cards (256-colour 236 behind the default text) meet WCAG AA', () => {
    expect(contrast(theme.foreground!, theme.extendedAnsi![236 - 16]!)).toBeGreaterThanOrEqual(4.5)
  })
})

describe('applyTheme', () => {
  test('auto follows prefers-color-scheme as it changes', () => {
    const listeners: Array<(event: { matches: boolean }) => void> = []
    const query = { matches: false, addEventListener: (_: string, fn: (event: { matches: boolean }) => void) => listeners.push(fn), removeEventListener: () => listeners.pop() }
    const original = globalThis.matchMedia
    globalThis.matchMedia = (() => query) as unknown as typeof matchMedia
    try {
      const term = { options: {} as { theme?: ITheme; minimumContrastRatio?: number } }
      const seen: string[] = []
      const stop = applyTheme(term, 'auto', (name) => seen.push(name))
      expect(term.options.theme).toBe(DARK_THEME)
      listeners[0]!({ matches: true })
      expect(term.options.theme).toBe(LIGHT_THEME)
      expect(seen).toEqual(['dark', 'light'])
      expect(term.options.minimumContrastRatio).toBe(4.5)
      stop()
      expect(listeners).toHaveLength(0)
    } finally {
      globalThis.matchMedia = original
    }
  })

  test('theme names from attributes and URLs', () => {
    expect([themeMode('light'), themeMode('auto'), themeMode('dark'), themeMode(null), themeMode('neon')]).toEqual(['light', 'auto', 'dark', 'dark', 'dark'])
  })
})
