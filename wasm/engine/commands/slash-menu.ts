// The inline command menu: opens while the draft is a bare "/word", filters as you type, Up/Down
// move, Tab completes, Enter runs the selected command, Esc closes it until the draft changes.

import { ByteBuf } from '../util/byte-buf'
import { Rows } from '../screen/layout'
import { CYAN, GRAY, RESET } from '../screen/ansi'
import { COMMANDS, matchCommands } from './slash'

const MAX_SHOWN = 8

/** No commands match: shared, never written to (callers only read the list). */
export const NO_MATCHES: Array<i32> = []

export class SlashMenu {
  selected: i32 = 0
  private dismissedFor: string = ''
  private lastDraft: string = ''

  /** The matches for this draft, or an empty list when the menu is closed. */
  matches(draft: string): Array<i32> {
    if (draft != this.lastDraft) {
      this.lastDraft = draft
      this.selected = 0
    }
    // The common answer (no menu) is one shared empty list: this runs on every redraw.
    if (draft.length == 0 || draft.charCodeAt(0) != 0x2f || draft.indexOf(' ') >= 0 || draft.indexOf('\n') >= 0) return NO_MATCHES
    if (draft == this.dismissedFor) return NO_MATCHES
    return matchCommands(draft)
  }

  dismiss(draft: string): void {
    this.dismissedFor = draft
  }

  move(delta: i32, count: i32): void {
    if (count == 0) return
    this.selected = (this.selected + delta + count) % count
  }

  /** The selected command's name. */
  selectedName(matches: Array<i32>): string {
    if (matches.length == 0) return ''
    return COMMANDS[matches[min(this.selected, matches.length - 1)]].name
  }

  rows(live: Rows, matches: Array<i32>, cols: i32): void {
    const first = max(0, min(this.selected - MAX_SHOWN + 1, matches.length - MAX_SHOWN))
    const last = min(matches.length, first + MAX_SHOWN)
    for (let i = first; i < last; i++) {
      const c = COMMANDS[matches[i]]
      const usage = c.args.length > 0 ? c.name + ' ' + c.args : c.name
      const on = i == this.selected
      let text = (on ? '❯ ' : '  ') + usage.padEnd(20) + c.about
      if (text.length > cols - 1) text = text.substring(0, max(1, cols - 2)) + '…'
      const line = new ByteBuf(text.length + 16)
      line.str(on ? CYAN : GRAY)
      line.str(text)
      line.str(RESET)
      live.add(line, min(text.length, cols - 1))
    }
  }
}
