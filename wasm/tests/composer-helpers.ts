/** Reading the composer back from the screen, and the key bytes the composer tests type. */
import type { Harness } from './harness.ts'

export const ESC = '\x1b'
export const keys = {
  enter: '\r',
  shiftEnter: `${ESC}[13;2u`,
  altEnter: `${ESC}\r`,
  ctrlJ: '\n',
  left: `${ESC}[D`,
  right: `${ESC}[C`,
  up: `${ESC}[A`,
  down: `${ESC}[B`,
  home: `${ESC}[H`,
  end: `${ESC}[F`,
  ctrlHome: `${ESC}[1;5H`,
  ctrlEnd: `${ESC}[1;5F`,
  ctrlLeft: `${ESC}[1;5D`,
  ctrlRight: `${ESC}[1;5C`,
  altLeft: `${ESC}[1;3D`,
  altRight: `${ESC}[1;3C`,
  altB: `${ESC}b`,
  altF: `${ESC}f`,
  altD: `${ESC}d`,
  backspace: '\x7f',
  altBackspace: `${ESC}\x7f`,
  delete: `${ESC}[3~`,
  ctrlDelete: `${ESC}[3;5~`,
  ctrlA: '\x01',
  ctrlB: '\x02',
  ctrlC: '\x03',
  ctrlD: '\x04',
  ctrlE: '\x05',
  ctrlF: '\x06',
  ctrlK: '\x0b',
  ctrlL: '\x0c',
  ctrlN: '\x0e',
  ctrlP: '\x10',
  ctrlU: '\x15',
  ctrlW: '\x17',
  ctrlX: '\x18',
  ctrlY: '\x19',
  ctrlZ: '\x1a',
  undo: '\x1f', // Ctrl+_, and what the adapter sends for Cmd/Ctrl+Z
  redo: `${ESC}[122;6u`, // Cmd/Ctrl+Shift+Z
  selectAll: `${ESC}[97;9u`, // Cmd+A
  copy: `${ESC}[99;9u`, // Cmd+C
  cut: `${ESC}[120;9u`, // Cmd+X
} as const

export const paste = (text: string) => `${ESC}[200~${text}${ESC}[201~`

const isDivider = (line: string) => /^─+$/.test(line)

function dividers(h: Harness): number[] {
  return h.viewport().flatMap((line, i) => (isDivider(line) ? [i] : []))
}

/** The composer's rows: the viewport lines between the last two dividers. */
export function composerRows(h: Harness): string[] {
  const lines = h.viewport()
  const d = dividers(h)
  const top = d.at(-2)
  const bottom = d.at(-1)
  if (top === undefined || bottom === undefined) throw new Error(`no composer on screen:\n${lines.join('\n')}`)
  return lines.slice(top + 1, bottom)
}

/** The cursor relative to the composer: row 0 is the prompt row, x is the terminal column. */
export function caret(h: Harness): { row: number; x: number } {
  const top = (dividers(h).at(-2) ?? -1) + 1
  const c = h.cursor()
  return { row: c.y - top, x: c.x }
}

/** The composer as rows plus the caret, for one-line assertions. */
export function composer(h: Harness) {
  return { rows: composerRows(h), caret: caret(h) }
}

/** Which cells of the composer's first `rows` rows are drawn inverted, as strings of the text. */
export function invertedText(h: Harness): string[] {
  const buf = h.term.buffer.active
  const top = (dividers(h).at(-2) ?? -1) + 1
  const bottom = dividers(h).at(-1) ?? top
  const out: string[] = []
  for (let y = top; y < bottom; y++) {
    const line = buf.getLine(buf.viewportY + y)
    let text = ''
    for (let x = 0; line && x < h.term.cols; x++) {
      const cell = line.getCell(x)
      if (cell?.isInverse() && cell.getWidth() > 0) text += cell.getChars() || ' '
    }
    out.push(text)
  }
  return out
}

/** The content of the last user message sent to the model. */
export function lastUserMessage(h: Harness): string {
  const messages = h.lastOf('model_request')?.request.messages ?? []
  const users = messages.filter((m) => m.role === 'user')
  return (users.at(-1) as { content: string } | undefined)?.content ?? ''
}
