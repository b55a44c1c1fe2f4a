// The last pass of inline Markdown (markdown-inline.ts): the paired items written out as text
// with the engine's styling. Every style change is one complete SGR sequence (writeStyle);
// http(s) links become OSC 8 hyperlinks, any other link shows its URL as text.

import { ByteBuf } from '../util/byte-buf'
import { InlineItems, F_KIND, F_S, F_E, F_U1, F_U2, F_SAFE, F_REM, F_OPENS, F_CLOSES, K_TEXT, K_CODE, K_DELIM, K_LINK_OPEN, K_LINK_CLOSE, K_URL } from './inline-items'
import { F_BOLD, F_ITALIC, F_STRIKE, F_UNDERLINE, C_CODE, C_LINK, writeStyle } from './markdown-style'

const LINK_CLOSE = '\x1b]8;;\x1b\\'

/** Styles and writes a line's items. One instance is reused. */
export class InlineEmitter {
  private links: bool = true
  private bold: i32 = 0
  private italic: i32 = 0
  private strike: i32 = 0
  private code: bool = false
  private link: bool = false
  private baseFlags: i32 = 0
  private baseColour: i32 = 0
  private curFlags: i32 = 0
  private curColour: i32 = 0

  /** Writes the style in force if it differs from the last one written. */
  private sync(out: ByteBuf): void {
    let flags = this.baseFlags
    let colour = this.baseColour
    if (this.bold > 0) flags |= F_BOLD
    if (this.italic > 0) flags |= F_ITALIC
    if (this.strike > 0) flags |= F_STRIKE
    if (this.link) {
      flags |= F_UNDERLINE
      colour = C_LINK
    }
    if (this.code) colour = C_CODE
    if (flags == this.curFlags && colour == this.curColour) return
    writeStyle(out, flags, colour)
    this.curFlags = flags
    this.curColour = colour
  }

  private apply(units: i32, sign: i32): void {
    this.bold += sign * (units & 0xff)
    this.italic += sign * ((units >> 8) & 0xff)
    this.strike += sign * ((units >> 16) & 0xff)
  }

  /** Writes `items` (paired) of `src` into `out`; with `links` false, no OSC 8 hyperlinks. */
  emit(items: InlineItems, src: Uint8Array, out: ByteBuf, baseFlags: i32, baseColour: i32, links: bool): void {
    this.links = links
    this.bold = 0
    this.italic = 0
    this.strike = 0
    this.code = false
    this.link = false
    this.baseFlags = baseFlags
    this.baseColour = baseColour
    this.curFlags = 0
    this.curColour = 0
    let linkSafe = false
    let linkUs = 0
    let linkUe = 0
    const it = items
    const count = it.count
    for (let k = 0; k < count; k++) {
      const kind = it.get(k, F_KIND)
      if (kind == K_TEXT) {
        this.sync(out)
        out.slice(src, it.get(k, F_S), it.get(k, F_E))
      } else if (kind == K_CODE) {
        this.code = true
        this.sync(out)
        out.slice(src, it.get(k, F_S), it.get(k, F_E))
        this.code = false
      } else if (kind == K_DELIM) {
        this.apply(it.get(k, F_CLOSES), -1)
        const left = it.get(k, F_REM)
        if (left > 0) {
          this.sync(out)
          const c = it.get(k, F_E)
          for (let n = 0; n < left; n++) out.byte(c)
        }
        this.apply(it.get(k, F_OPENS), 1)
      } else if (kind == K_LINK_OPEN) {
        linkSafe = it.get(k, F_SAFE) != 0
        linkUs = it.get(k, F_U1)
        linkUe = it.get(k, F_U2)
        if (linkSafe) {
          if (this.links) {
            out.str('\x1b]8;;')
            out.slice(src, linkUs, linkUe)
            out.str('\x1b\\')
          }
          this.link = true
        }
      } else if (kind == K_LINK_CLOSE) {
        if (linkSafe) {
          if (this.links) out.str(LINK_CLOSE)
          this.link = false
        } else if (linkUe > linkUs) {
          // not an http(s) link: its destination is shown as text, never linked
          this.sync(out)
          out.str(' (')
          out.slice(src, linkUs, linkUe)
          out.byte(0x29)
        }
        linkSafe = false
      } else if (kind == K_URL) {
        const us = it.get(k, F_S)
        const ue = it.get(k, F_E)
        if (it.get(k, F_SAFE) != 0) {
          if (this.links) {
            out.str('\x1b]8;;')
            out.slice(src, us, ue)
            out.str('\x1b\\')
          }
          this.link = true
          this.sync(out)
          out.slice(src, us, ue)
          if (this.links) out.str(LINK_CLOSE)
          this.link = false
        } else {
          this.sync(out)
          out.slice(src, us, ue)
        }
      }
    }
    // leave the base style as it was found: plain
    if (this.curFlags != 0 || this.curColour != 0) out.str('\x1b[0m')
  }
}
