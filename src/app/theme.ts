import type { ITheme } from '@xterm/xterm'

/** The page's dark theme; the ANSI palette is what the engine's styling is tuned for. */
export const THEME: ITheme = {
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
  brightBlack: '#6b7280',
  brightRed: '#f28b94',
  brightGreen: '#b5e08f',
  brightYellow: '#f0d392',
  brightBlue: '#82c0f5',
  brightMagenta: '#d89ce6',
  brightCyan: '#7fcdd6',
  brightWhite: '#ffffff',
}
