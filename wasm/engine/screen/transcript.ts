// The transcript: everything that scrolls above the live region. Its text (banner, prompts,
// the streamed reply, notices) is transcript-text.ts's; this layer adds the tool rows (a command
// running and its output, a file change, an approval) and lays it all out again after a resize.

import { ByteBuf } from '../util/byte-buf'
import { Rows, wrapInto, fitRow } from './layout'
import { sanitizeColouredInto, sanitizeInto } from './sanitize'
import { BOLD, GRAY, GREEN, RED, RESET, YELLOW, CYAN } from './ansi'
import { FileChange, changeRows } from './file-rows'
import * as J from './transcript-journal'
import { keepLastRows } from './transcript-journal'
import { TranscriptText } from './transcript-text'

export { BLOCK_REASONING, BLOCK_REFUSAL, BLOCK_REPLY, DEMO_TRY } from './transcript-text'

const PREVIEW_LINES = 5
/**
 * Rows a resize writes again at most (the newest): xterm keeps 1000 rows of scrollback unless an
 * app asks for more, and a megabyte reply is some 40 000 rows, 2 MB for the page to parse.
 */
const REFLOW_ROWS = 10000

export class Transcript extends TranscriptText {
  /**
   * Lays the whole transcript out again at `cols` from the journal: `commit` then holds every
   * row, for a screen just cleared; the Ctrl+O log is rebuilt with it. A block still streaming
   * goes on from where it was, its unfinished line in the live region as before.
   */
  reflow(cols: i32): void {
    this.cols = cols
    this.commit.reset()
    this.log.clear()
    const entries = this.journal.take()
    this.reset()
    this.replaying = true
    for (let i = 0; i < entries.length; i++) {
      const e = unchecked(entries[i])
      this.replay(e)
      this.journal.putBack(e)
    }
    this.replaying = false
    keepLastRows(this.commit, REFLOW_ROWS)
  }

  private replay(e: J.JournalEntry): void {
    const k = e.kind
    if (k == J.J_BANNER) this.banner(e.text, e.style)
    else if (k == J.J_PROMPT) this.promptCard(e.bytes)
    else if (k == J.J_STREAM) {
      this.blockDelta(e.code, e.bytes.data, 0, e.bytes.length)
      if (e.closed) this.endAssistant()
    } else if (k == J.J_TOOL_RAN) this.toolRan(e.bytes, e.more.data.subarray(0, e.split), e.more.data.subarray(e.split, e.more.length), e.code, e.flag, e.coloured)
    else if (k == J.J_FILE) this.fileChanged(e.change!)
    else if (k == J.J_DENIED) this.toolDenied(e.bytes)
    else if (k == J.J_NOTICE) this.notice(e.text, e.style)
    else if (k == J.J_ERROR) this.error(e.bytes.data.subarray(0, e.bytes.length))
    else if (k == J.J_LINES) this.lines(e.text)
    else if (k == J.J_BLOCK) {
      const rows = new Rows()
      const full = new Rows()
      e.source!.layout(this.cols, rows, full)
      this.block(rows, full)
    }
  }

  toolRunningRow(rows: Rows, command: ByteBuf): void {
    rows.add(new ByteBuf(0), 0)
    const line = new ByteBuf(command.length + 32)
    line.str(YELLOW + '● ' + RESET + BOLD + 'Running ' + RESET)
    const clean = new ByteBuf(command.length)
    sanitizeInto(command.data, 0, command.length, clean)
    const w = fitRow(clean.data, 0, clean.length, max(4, this.cols - 10), line)
    rows.add(line, 10 + w)
  }

  /**
   * A command's row and output. `coloured` (the person's `!command`, whose output went to their
   * terminal): its whitelisted colours show (sgr-filter.ts); otherwise every escape is stripped.
   */
  toolRan(command: ByteBuf, stdout: Uint8Array, stderr: Uint8Array, exitCode: i32, cancelled: bool, coloured: bool = false): void {
    if (this.off) return
    const e = this.note(J.J_TOOL_RAN)
    if (e != null) {
      e.coloured = coloured
      e.bytes = J.copyOf(command.data, 0, command.length)
      e.more = J.copyOf(stdout, 0, stdout.length)
      e.more.bytes(stderr)
      e.code = exitCode
      e.flag = cancelled
      e.split = stdout.length
    }
    this.gap()
    const rows = new Rows()
    const head = new ByteBuf(command.length + 48)
    head.str((exitCode == 0 ? GREEN : cancelled ? YELLOW : RED) + '● ' + RESET + BOLD + 'Ran ' + RESET)
    const cleanCmd = new ByteBuf(command.length)
    sanitizeInto(command.data, 0, command.length, cleanCmd)
    const suffix = cancelled ? ' · cancelled' : exitCode != 0 ? ' · exit ' + exitCode.toString() : ''
    const w = fitRow(cleanCmd.data, 0, cleanCmd.length, max(4, this.cols - 6 - suffix.length), head)
    if (suffix.length > 0) head.str((cancelled ? YELLOW : RED) + suffix + RESET)
    rows.add(head, 6 + w + suffix.length)
    const out = new ByteBuf(stdout.length + stderr.length + 1)
    if (coloured) sanitizeColouredInto(stdout, 0, stdout.length, out)
    else sanitizeInto(stdout, 0, stdout.length, out)
    if (stderr.length > 0) {
      if (out.length > 0 && out.u8At(out.length - 1) != 0x0a) out.byte(0x0a)
      if (coloured) sanitizeColouredInto(stderr, 0, stderr.length, out)
      else sanitizeInto(stderr, 0, stderr.length, out)
    }
    const full = new Rows()
    full.add(head, 0)
    if (!cancelled || out.length > 0) this.previewRows(rows, out)
    wrapInto(full, out.data, 0, out.length, this.cols, '     ', 5, '     ', 5, '')
    this.commitRows(rows, full)
  }

  /** A write or edit the agent made: path, +N −M and the first lines of its diff. */
  fileChanged(change: FileChange): void {
    if (this.off) return
    const e = this.note(J.J_FILE)
    if (e != null) e.change = change
    const rows = new Rows()
    const full = new Rows()
    changeRows(change, this.cols, rows, full)
    this.block(rows, full)
  }

  toolDenied(command: ByteBuf): void {
    const e = this.note(J.J_DENIED)
    if (e != null) e.bytes = J.copyOf(command.data, 0, command.length)
    this.gap()
    const rows = new Rows()
    const head = new ByteBuf(command.length + 32)
    head.str(YELLOW + '● ' + RESET + BOLD + 'Denied ' + RESET)
    const clean = new ByteBuf(command.length)
    sanitizeInto(command.data, 0, command.length, clean)
    const w = fitRow(clean.data, 0, clean.length, max(4, this.cols - 9), head)
    rows.add(head, 9 + w)
    this.detailRow(rows, 'not run: denied by you', GRAY)
    this.commitRows(rows)
  }

  /** The approval row: the command and the three answers, the selected one marked. */
  approvalRows(rows: Rows, command: ByteBuf, selected: i32): void {
    rows.add(new ByteBuf(0), 0)
    const head = new ByteBuf(64)
    head.str(YELLOW + '● ' + RESET + BOLD + 'Run this command?' + RESET)
    rows.add(head, 19)
    const clean = new ByteBuf(command.length)
    sanitizeInto(command.data, 0, command.length, clean)
    wrapInto(rows, clean.data, 0, clean.length, this.cols, '  ', 2, '  ', 2, CYAN)
    const labels = ['Yes', 'Yes, always for this exact command', 'No, tell the model']
    for (let i = 0; i < 3; i++) {
      const line = new ByteBuf(64)
      const on = i + 1 == selected
      line.str(on ? CYAN + '  ❯ ' : '    ')
      line.str((i + 1).toString() + '. ' + labels[i])
      if (on) line.str(RESET)
      rows.add(line, 7 + labels[i].length)
    }
  }

  private previewRows(rows: Rows, out: ByteBuf): void {
    let end = out.length
    while (end > 0 && out.u8At(end - 1) == 0x0a) end--
    if (end == 0) {
      this.detailRow(rows, '(no output)', GRAY)
      return
    }
    let shown = 0
    let total = 0
    let lineStart = 0
    for (let i = 0; i <= end; i++) {
      if (i < end && out.u8At(i) != 0x0a) continue
      total++
      if (shown < PREVIEW_LINES) {
        const line = new ByteBuf(i - lineStart + 16)
        line.str(shown == 0 ? GRAY + '  └  ' + RESET : '     ')
        const w = fitRow(out.data, lineStart, i, max(4, this.cols - 5), line)
        rows.add(line, 5 + w)
        shown++
      }
      lineStart = i + 1
    }
    if (total > shown) this.detailRow(rows, '… ' + (total - shown).toString() + ' more line' + (total - shown == 1 ? '' : 's'), GRAY)
  }

  private detailRow(rows: Rows, text: string, style: string): void {
    const line = new ByteBuf(text.length + 16)
    line.str(rows.count == 1 ? GRAY + '  └  ' + RESET : '     ')
    line.str(style)
    line.str(text)
    line.str(RESET)
    rows.add(line, 5 + text.length)
  }
}
