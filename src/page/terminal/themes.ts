/**
 * fxterm's two palettes and the `auto` mode that follows the system's colour scheme live. Every
 * colour the engine writes text in (the default foreground, ANSI 31–36, 90 and 94, and the prompt
 * card's background, 256-colour 236) meets WCAG AA (4.5:1) against its background in both;
 * `themes.test.ts` checks it. xterm's `minimumContrastRatio` is set too, for dim text and for
 * colours a command's output brings.
 */
import type { ITheme } from '@xterm/xterm'

export type ThemeName = 'dark' | 'light'
export type ThemeMode = ThemeName | 'auto'

/** 256-colour entries 16–255 as xterm computes them, with the prompt card's 236 replaced. */
function extendedAnsi(card: string): string[] {
  const out: string[] = []
  const steps = [0, 95, 135, 175, 215, 255]
  const hex = (n: number) => n.toString(16).padStart(2, '0')
  for (let i = 16; i < 232; i++) {
    const v = i - 16
    out.push(`#${hex(steps[Math.floor(v / 36)]!)}${hex(steps[Math.floor(v / 6) % 6]!)}${hex(steps[v % 6]!)}`)
  }
  for (let i = 0; i < 24; i++) out.push(`#${hex(8 + i * 10).repeat(3)}`)
  out[236 - 16] = card
  return out
}

export const DARK_THEME: ITheme = {
  background: '#0f1115',
  foreground: '#d8dee9',
  cursor: '#d8dee9',
  selectionBackground: '#3b4252',
  black: '#3b4252',
  red: '#e06c75',
  green: '#98c379',
  yellow: '#e5c07b',
  blue: '#61afef',
  magenta: '#c678dd',
  cyan: '#56b6c2',
  white: '#e5e9f0',
  brightBlack: '#8b93a1',
  brightRed: '#f28b94',
  brightGreen: '#b5e08f',
  brightYellow: '#f0d392',
  brightBlue: '#82c0f5',
  brightMagenta: '#d89ce6',
  brightCyan: '#7fcdd6',
  brightWhite: '#ffffff',
  extendedAnsi: extendedAnsi('#303030'),
}

export const LIGHT_THEME: ITheme = {
  background: '#fbfbfc',
  foreground: '#1f2328',
  cursor: '#1f2328',
  selectionBackground: '#b6d4fe',
  black: '#1f2328',
  red: '#b42318',
  green: '#1a7f37',
  yellow: '#8a5a00',
  blue: '#0550ae',
  magenta: '#8250df',
  cyan: '#0e6c82',
  white: '#6e7781',
  brightBlack: '#59636e',
  brightRed: '#a40e26',
  brightGreen: '#116329',
  brightYellow: '#7a4e00',
  brightBlue: '#0a58ca',
  brightMagenta: '#6e3fc7',
  brightCyan: '#0b5e72',
  brightWhite: '#24292f',
  extendedAnsi: extendedAnsi('#e8ebef'),
}

export const THEMES: Record<ThemeName, ITheme> = { dark: DARK_THEME, light: LIGHT_THEME }

/** `light`, `dark` or `auto` from an attribute or URL parameter (anything else: `dark`). */
export function themeMode(value: string | null | undefined): ThemeMode {
  return value === 'light' || value === 'auto' ? value : 'dark'
}

type Themable = { options: { theme?: ITheme; minimumContrastRatio?: number } }

/** xterm.js raises any other colour pair to this contrast (WCAG AA), e.g. a command's own colours. */
export const MIN_CONTRAST = 4.5

/** The palette `mode` shows now: `auto` asks `prefers-color-scheme`. */
export function paletteOf(mode: ThemeMode): ThemeName {
  if (mode !== 'auto') return mode
  return globalThis.matchMedia?.('(prefers-color-scheme: light)').matches ? 'light' : 'dark'
}

/**
 * Applies `mode` to `term` and calls `onTheme` with each palette it switches to (to colour the
 * page or element around the terminal). `auto` follows `prefers-color-scheme` as it changes.
 * Returns a function that stops following it. A terminal constructed with the palette and
 * contrast already set (mount-terminal.ts) is not changed again: xterm.js ignores a value it has.
 */
export function applyTheme(term: Themable, mode: ThemeMode, onTheme?: (name: ThemeName, theme: ITheme) => void): () => void {
  term.options.minimumContrastRatio = MIN_CONTRAST
  const set = (name: ThemeName) => {
    term.options.theme = THEMES[name]
    onTheme?.(name, THEMES[name])
  }
  set(paletteOf(mode))
  const query = mode === 'auto' ? globalThis.matchMedia?.('(prefers-color-scheme: light)') : undefined
  if (!query) return () => {}
  const follow = (event: MediaQueryListEvent) => set(event.matches ? 'light' : 'dark')
  query.addEventListener('change', follow)
  return () => query.removeEventListener('change', follow)
}
