// The engine's own styling of Markdown: style flags, colours, and how a style is written (one
// complete SGR sequence, so the layout can carry the single sequence in force to a wrapped row).

import { ByteBuf } from '../util/byte-buf'

export const F_BOLD: i32 = 1
export const F_DIM: i32 = 2
export const F_ITALIC: i32 = 4
export const F_UNDERLINE: i32 = 8
export const F_STRIKE: i32 = 16

/** SGR foreground colours. */
export const C_CODE: i32 = 36 // `inline code` and code blocks
export const C_LINK: i32 = 94
export const C_GRAY: i32 = 90

/** Writes the complete style `flags` + `colour` as one SGR sequence (`ESC[0m` when plain). */
export function writeStyle(out: ByteBuf, flags: i32, colour: i32): void {
  if (flags == 0 && colour == 0) {
    out.str('\x1b[0m')
    return
  }
  out.str('\x1b[0')
  if (flags & F_BOLD) out.str(';1')
  if (flags & F_DIM) out.str(';2')
  if (flags & F_ITALIC) out.str(';3')
  if (flags & F_UNDERLINE) out.str(';4')
  if (flags & F_STRIKE) out.str(';9')
  if (colour != 0) {
    out.byte(0x3b)
    out.int(colour)
  }
  out.byte(0x6d)
}
