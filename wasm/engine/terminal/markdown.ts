// A light Markdown renderer for the assistant's reply, one line at a time: headings and **bold**
// become bold, `code` and fenced code blocks are tinted, list bullets become •. The output is
// the sanitized text plus the engine's own SGR sequences, which the layout treats as zero-width.

import { ByteBuf } from '../util/byte-buf'
import { BOLD, CYAN } from './ansi'

const BOLD_OFF = '\x1b[22m'
const COLOR_OFF = '\x1b[39m'

export class MarkdownState {
  inFence: bool = false
}

/** Whether the line is a code fence (``` or ~~~), which is not shown. */
export function isFence(src: Uint8Array, start: i32, end: i32): bool {
  let i = start
  while (i < end && unchecked(src[i]) == 0x20) i++
  if (end - i < 3) return false
  const c = unchecked(src[i])
  return (c == 0x60 || c == 0x7e) && unchecked(src[i + 1]) == c && unchecked(src[i + 2]) == c
}

/** Renders one line `src[start, end)` (no newline) into `out`. */
export function renderMarkdownLine(src: Uint8Array, start: i32, end: i32, state: MarkdownState, out: ByteBuf): void {
  if (state.inFence) {
    out.str(CYAN)
    out.slice(src, start, end)
    out.str(COLOR_OFF)
    return
  }
  let i = start
  // heading: #… then a space
  let hashes = 0
  while (i + hashes < end && unchecked(src[i + hashes]) == 0x23) hashes++
  if (hashes > 0 && hashes <= 6 && i + hashes < end && unchecked(src[i + hashes]) == 0x20) {
    out.str(BOLD)
    inline(src, i + hashes + 1, end, out, true)
    out.str(BOLD_OFF)
    return
  }
  // list bullet: leading spaces, then - or * and a space
  let j = i
  while (j < end && unchecked(src[j]) == 0x20) j++
  if (j + 1 < end && (unchecked(src[j]) == 0x2d || unchecked(src[j]) == 0x2a) && unchecked(src[j + 1]) == 0x20) {
    out.slice(src, i, j)
    out.str('• ')
    i = j + 2
  }
  inline(src, i, end, out, false)
}

function inline(src: Uint8Array, start: i32, end: i32, out: ByteBuf, inBold: bool): void {
  let bold = false
  let code = false
  let i = start
  while (i < end) {
    const c = unchecked(src[i])
    if (c == 0x60) {
      code = !code
      out.str(code ? CYAN : COLOR_OFF)
      i++
      continue
    }
    if (!code && c == 0x2a && i + 1 < end && unchecked(src[i + 1]) == 0x2a && hasClosing(src, i + 2, end, bold)) {
      bold = !bold
      if (!inBold) out.str(bold ? BOLD : BOLD_OFF)
      i += 2
      continue
    }
    out.byte(c)
    i++
  }
  if (code) out.str(COLOR_OFF)
  if (bold && !inBold) out.str(BOLD_OFF)
}

/** `**` opens bold only when a closing `**` follows on the same line. */
function hasClosing(src: Uint8Array, from: i32, end: i32, closing: bool): bool {
  if (closing) return true
  for (let i = from; i + 1 < end; i++) if (unchecked(src[i]) == 0x2a && unchecked(src[i + 1]) == 0x2a) return true
  return false
}
