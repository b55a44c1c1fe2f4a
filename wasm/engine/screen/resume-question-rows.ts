// The question a resumed turn asks when the tab closed during a command (session/interrupted-turn.ts),
// drawn in the live region like the approval row: the question, then the two answers.

import { ByteBuf } from '../util/byte-buf'
import { Rows } from './layout'
import { BOLD, CYAN, RESET, YELLOW } from './ansi'

/** The answers, in the order 1 and 2 pick them. */
export const RESUME_ANSWERS: Array<string> = ['Yes, continue the turn', 'No, stop here (the command is not run again)']

/** The question and its answers, `selected` (1 or 2) marked. */
export function resumeQuestionRows(rows: Rows, selected: i32): void {
  rows.add(new ByteBuf(0), 0)
  const head = new ByteBuf(64)
  head.str(YELLOW + '● ' + RESET + BOLD + 'Continue the interrupted turn?' + RESET)
  rows.add(head, 32)
  for (let i = 0; i < RESUME_ANSWERS.length; i++) {
    const line = new ByteBuf(80)
    const on = i + 1 == selected
    line.str(on ? CYAN + '  ❯ ' : '    ')
    line.str((i + 1).toString() + '. ' + RESUME_ANSWERS[i])
    if (on) line.str(RESET)
    rows.add(line, 7 + RESUME_ANSWERS[i].length)
  }
}
