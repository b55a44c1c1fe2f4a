// /diff and /undo: the workspace keeps what each turn changed and computes the diffs (the host's
// change history); these commands ask for them with a workspace op and show the answer. /diff
// opens in the full-screen transcript view at its first line, whatever its length (q leaves it).

import { ByteBuf, stringBytes } from '../util/byte-buf'
import { parseJson, J_ARR, J_STR } from '../util/json'
import { emitWorkspaceOp } from '../agent/file-tools'
import { Rows } from '../screen/layout'
import { BOLD, GRAY, GREEN, RED, RESET } from '../screen/ansi'
import { diffRows, moreRow } from '../screen/file-rows'
import { TranscriptView } from '../screen/transcript-view'
import { BlockSource } from '../screen/transcript-journal'
import { CMD_DIFF } from './slash'
import { Settings } from './settings'

/** Lines of a /diff drawn in the transcript before the rest goes to the full-screen view. */
const DIFF_INLINE_LINES = 20

export function changeCommand(s: Settings, cmd: i32, arg: string): void {
  const t = s.transcript
  if (!s.loop.withTools || !s.loop.conv.fileTools) {
    t.error(stringBytes('This workspace does not keep track of file changes, so there is nothing to ' + (cmd == CMD_DIFF ? 'show.' : 'undo.')))
    return
  }
  if (cmd == CMD_DIFF) {
    if (arg.length > 0 && arg != 'last') {
      t.error(stringBytes('/diff takes no argument or "last" (only the last turn).'))
      return
    }
    s.diffRequestId = s.loop.nextId++
    emitWorkspaceOp(s.fx, s.diffRequestId, 'diff', arg == 'last' ? 'last' : 'all')
    return
  }
  if (s.loop.busy) {
    t.error(stringBytes('/undo waits for the turn to end: press Esc to stop it first.'))
    return
  }
  s.undoRequestId = s.loop.nextId++
  emitWorkspaceOp(s.fx, s.undoRequestId, 'undo')
}

/** The workspace answered a /diff or /undo (false: `id` is neither). */
export function changeAnswer(s: Settings, view: TranscriptView, screenRows: i32, id: u32, bytes: Uint8Array, start: i32, end: i32): bool {
  if (id == 0) return false
  const v = parseJson(bytes, start, end)
  if (id == s.diffRequestId) {
    s.diffRequestId = 0
    if (v != null) showDiff(s, view, screenRows, v.getString('text', ''), <i32>v.getNumber('files', 0), <i32>v.getNumber('added', 0), <i32>v.getNumber('removed', 0), v.getString('scope', ''))
    return true
  }
  if (id == s.undoRequestId) {
    s.undoRequestId = 0
    if (v == null) return true
    const message = v.getString('message', 'Undo gave no answer.')
    s.transcript.notice(message, GRAY)
    const restored = v.get('restored')
    if (restored != null && restored.kind == J_ARR && restored.items.length > 0) {
      const names = new Array<string>()
      for (let i = 0; i < restored.items.length; i++) if (restored.items[i].kind == J_STR) names.push(restored.items[i].str)
      s.loop.filesReverted(message, names.join(', '))
    }
    return true
  }
  return false
}

function showDiff(s: Settings, view: TranscriptView, screenRows: i32, text: string, files: i32, added: i32, removed: i32, scope: string): void {
  const t = s.transcript
  const last = scope == 'last'
  if (files == 0) {
    t.notice(last ? 'The last turn left the files as they were.' : 'No changes to the files since the session started.', GRAY)
    return
  }
  const title = (last ? 'Changes in the last turn · ' : 'Changes since the session started · ') + files.toString() + (files == 1 ? ' file ' : ' files ')
  const diff = new ByteBuf(text.length)
  diff.str(text)
  const long = lineCount(diff) > max(DIFF_INLINE_LINES, screenRows - 8)
  const block = new DiffBlock(title, added, removed, diff, long)
  const rows = new Rows()
  const full = new Rows()
  block.layout(t.cols, rows, full)
  const at = t.block(rows, full, block)
  // Short or long, the whole diff opens in the full-screen view from its first line, so a `q`
  // pressed to leave it always leaves it (and never lands in the composer).
  const out = new ByteBuf(32)
  view.showAt(out, t.log, screenRows, at)
  s.fx.write(out)
}

/** A /diff's rows, laid out again at a new width when the terminal is resized. */
class DiffBlock extends BlockSource {
  constructor(
    private title: string,
    private added: i32,
    private removed: i32,
    private diff: ByteBuf,
    private long: bool,
  ) {
    super()
  }

  layout(cols: i32, rows: Rows, full: Rows): void {
    const head = new ByteBuf(this.title.length + 48)
    head.str(GREEN + '● ' + RESET + BOLD + this.title + RESET + GREEN + '+' + this.added.toString() + RESET + ' ' + RED + '−' + this.removed.toString() + RESET)
    const width = 2 + this.title.length + 2 + this.added.toString().length + this.removed.toString().length + 1
    rows.add(head, width)
    full.add(head, width)
    const left = diffRows(rows, this.diff, cols, '  ', 2, this.long ? DIFF_INLINE_LINES : -1, true)
    if (left > 0) moreRow(rows, left)
    diffRows(full, this.diff, cols, '  ', 2, -1, true)
  }
}

function lineCount(b: ByteBuf): i32 {
  let n = 1
  for (let i = 0; i < b.length; i++) if (b.data[i] == 0x0a) n++
  return n
}
