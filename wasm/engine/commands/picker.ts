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
  /** The first item shown: the window moves only as far as the selection needs. */
  top: i32 = 0
  /** What the items are, for the count under a long list ("14 models"). */
  noun: string = 'models'

  show(title: string, items: Array<string>, details: Array<string>, current: string, noun: string = 'models'): void {
    this.open = true
    this.title = title
    this.noun = noun
    this.filter = ''
    this.top = 0
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
      this.top = 0
    } else if (k.kind == K.K_CHAR && k.cp >= 0x20 && k.cp != 0x7f) {
      this.filter += String.fromCodePoint(k.cp)
      this.selected = 0
      this.top = 0
    }
    return PICK_NONE
  }

  /**
   * At most `maxRows` rows (the screen's room under the composer), the selection always among
   * them. A description that does not fit beside its item wraps under itself (a phone's 40
   * columns), so it is read whole, never cut.
   */
  rows(live: Rows, cols: i32, maxRows: i32 = 100): void {
    const head = this.title + (this.filter.length > 0 ? ' · filter: ' + asciiOnly(this.filter) : ' · type to filter') + ' · enter to choose · esc to close'
    addRow(live, cols, '  ' + head, DIM)
    const m = this.matches()
    if (m.length == 0) {
      addRow(live, cols, '  ' + (this.items.length == 0 ? this.empty : 'Nothing matches "' + asciiOnly(this.filter) + '".'), GRAY)
      return
    }
    const sel = min(this.selected, m.length - 1)
    // Names in a column of 32 where every description fits beside it; else as wide as the longest.
    let nameWidth = 32
    for (let i = 0; i < m.length && nameWidth == 32; i++) if (this.detailOf(m[i]).length > cols - 3 - 33) nameWidth = 0
    if (nameWidth == 0) for (let i = 0; i < m.length; i++) nameWidth = max(nameWidth, min(32, this.items[m[i]].length))
    // Room for items: the title, and the count row when not all of them show.
    const room = max(1, maxRows - 2)
    // Keep the window where it was unless the selection left it; then fit rows from there.
    let first = min(this.top, sel)
    while (first < sel && (sel - first + 1 > MAX_SHOWN || this.rowsFor(m, first, sel, cols, nameWidth) > room)) first++
    let last = first
    let used = 0
    while (last < m.length && last - first < MAX_SHOWN) {
      const need = this.itemRows(m[last], cols, nameWidth).length
      if (last > sel && used + need > room) break
      used += need
      last++
    }
    // A window that ends early shows items above it instead, when there are any.
    while (first > 0 && last - first < MAX_SHOWN && used + this.itemRows(m[first - 1], cols, nameWidth).length <= room) {
      first--
      used += this.itemRows(m[first], cols, nameWidth).length
    }
    this.top = first
    for (let i = first; i < last; i++) {
      const lines = this.itemRows(m[i], cols, nameWidth)
      for (let j = 0; j < lines.length; j++) addRow(live, cols, (i == sel && j == 0 ? '❯ ' : '  ') + lines[j], i == sel ? CYAN : GRAY)
    }
    if (last - first < m.length) addRow(live, cols, '  ' + m.length.toString() + ' ' + this.noun, DIM)
  }

  private detailOf(index: i32): string {
    return this.details.length > index ? this.details[index] : '' // built by the engine
  }

  private rowsFor(m: Array<i32>, from: i32, to: i32, cols: i32, nameWidth: i32): i32 {
    let n = 0
    for (let i = from; i <= to; i++) n += this.itemRows(m[i], cols, nameWidth).length
    return n
  }

  /** An item's rows (after the two-column marker): its name and description, wrapped at words. */
  private itemRows(index: i32, cols: i32, nameWidth: i32): Array<string> {
    const item = asciiOnly(this.items[index])
    const detail = this.detailOf(index)
    const out = new Array<string>()
    const column = nameWidth + 1
    const width = cols - 3 - column
    if (detail.length == 0 || detail.length <= width) {
      out.push(detail.length == 0 ? item : item.padEnd(nameWidth) + ' ' + detail)
      return out
    }
    // Too narrow beside the name: the description goes under it, indented two columns.
    const besides = width >= 16
    const lines = wrapWords(detail, besides ? width : cols - 5)
    if (besides) {
      out.push(item.padEnd(nameWidth) + ' ' + lines[0])
      for (let i = 1; i < lines.length; i++) out.push(' '.repeat(column) + lines[i])
    } else {
      out.push(item)
      for (let i = 0; i < lines.length; i++) out.push('  ' + lines[i])
    }
    return out
  }
}

/** `text` in lines of at most `width` columns, broken at spaces (a longer word is split). */
function wrapWords(text: string, width: i32): Array<string> {
  const out = new Array<string>()
  const w = max(8, width)
  let rest = text
  while (rest.length > w) {
    let cut = rest.lastIndexOf(' ', w)
    if (cut <= 0) cut = w
    out.push(rest.substring(0, cut))
    rest = rest.substring(cut).trimStart()
  }
  if (rest.length > 0) out.push(rest)
  return out
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
