// A list to choose from under the composer (/model bare opens one over the catalog): typing
// filters it, Up/Down move, Enter chooses, Esc closes. Drawn in place of the status line.

import { ByteBuf } from '../util/byte-buf'
import { Rows } from '../screen/layout'
import { CYAN, DIM, GRAY, RESET } from '../screen/ansi'
import * as K from '../screen/keys'

const MAX_SHOWN = 8

export const PICK_NONE = 0
export const PICK_CHOSEN = 1
export const PICK_CLOSED = 2

export class Picker {
  open: bool = false
  title: string = ''
  /** Shown when the list is empty (still loading, or nothing matches). */
  empty: string = ''
  items: Array<string> = []
  details: Array<string> = []
  filter: string = ''
  selected: i32 = 0
  /** What the items are, for the count under a long list ("14 models"). */
  noun: string = 'models'

  show(title: string, items: Array<string>, details: Array<string>, current: string, noun: string = 'models'): void {
    this.open = true
    this.title = title
    this.noun = noun
    this.filter = ''
    this.setItems(items, details)
    const at = items.indexOf(current)
    this.selected = at >= 0 ? at : 0
  }

  setItems(items: Array<string>, details: Array<string>): void {
    this.items = items
    this.details = details
    this.selected = min(this.selected, max(0, this.matches().length - 1))
  }

  /** Indexes of the items that contain the filter (case-insensitive). */
  matches(): Array<i32> {
    const out = new Array<i32>()
    const f = this.filter.toLowerCase()
    for (let i = 0; i < this.items.length; i++) if (f.length == 0 || this.items[i].toLowerCase().indexOf(f) >= 0) out.push(i)
    return out
  }

  /** The chosen item after PICK_CHOSEN. */
  chosen(): string {
    const m = this.matches()
    return m.length > 0 ? this.items[m[min(this.selected, m.length - 1)]] : ''
  }

  key(k: K.Key): i32 {
    const n = this.matches().length
    if (k.kind == K.K_ESCAPE || (k.kind == K.K_CTRL && (k.cp == 0x63 || k.cp == 0x64))) {
      this.open = false
      return PICK_CLOSED
    }
    if (k.kind == K.K_ENTER) {
      if (n == 0) return PICK_NONE
      this.open = false
      return PICK_CHOSEN
    }
    if (k.kind == K.K_UP || (k.kind == K.K_CTRL && k.cp == 0x70)) this.selected = n > 0 ? (this.selected + n - 1) % n : 0
    else if (k.kind == K.K_DOWN || (k.kind == K.K_CTRL && k.cp == 0x6e)) this.selected = n > 0 ? (this.selected + 1) % n : 0
    else if (k.kind == K.K_BACKSPACE) {
      if (this.filter.length > 0) this.filter = this.filter.substring(0, this.filter.length - 1)
      this.selected = 0
    } else if (k.kind == K.K_CHAR && k.cp >= 0x20 && k.cp != 0x7f) {
      this.filter += String.fromCodePoint(k.cp)
      this.selected = 0
    }
    return PICK_NONE
  }

  rows(live: Rows, cols: i32): void {
    const head = this.title + (this.filter.length > 0 ? ' · filter: ' + asciiOnly(this.filter) : ' · type to filter') + ' · enter to choose · esc to close'
    addRow(live, cols, '  ' + head, DIM)
    const m = this.matches()
    if (m.length == 0) {
      addRow(live, cols, '  ' + (this.items.length == 0 ? this.empty : 'Nothing matches "' + asciiOnly(this.filter) + '".'), GRAY)
      return
    }
    const sel = min(this.selected, m.length - 1)
    const first = max(0, min(sel - MAX_SHOWN + 1, m.length - MAX_SHOWN))
    const last = min(m.length, first + MAX_SHOWN)
    for (let i = first; i < last; i++) {
      const on = i == sel
      const item = asciiOnly(this.items[m[i]])
      const detail = this.details.length > m[i] ? this.details[m[i]] : '' // built by the engine from numbers
      addRow(live, cols, (on ? '❯ ' : '  ') + item.padEnd(32) + ' ' + detail, on ? CYAN : GRAY)
    }
    if (m.length > MAX_SHOWN) addRow(live, cols, '  ' + m.length.toString() + ' ' + this.noun, DIM)
  }
}

/** Items come from a server: anything but printable ASCII becomes `?` (one column each). */
function asciiOnly(text: string): string {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    out += c < 0x20 || c >= 0x7f ? '?' : String.fromCharCode(c)
  }
  return out
}

function addRow(live: Rows, cols: i32, text: string, style: string): void {
  let shown = text
  if (shown.length > cols - 1) shown = shown.substring(0, max(1, cols - 2)) + '…'
  const line = new ByteBuf(shown.length * 3 + 16)
  line.str(style + shown + RESET)
  live.add(line, shown.length)
}
