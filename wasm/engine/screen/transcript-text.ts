// The transcript's text, the first layer of the transcript (transcript.ts): everything that
// scrolls above the live region but the tool rows. Blocks are committed as whole rows; the
// assistant's streaming text keeps its unfinished last line in the live region until its newline
// arrives. Every call is journaled, so a resize can lay it all out again.

import { ByteBuf, stringBytes } from '../util/byte-buf'
import { Rows, wrapInto } from './layout'
import { Sanitizer, sanitizeInto } from './sanitize'
import { MarkdownStream } from './markdown'
import { TranscriptLog } from './transcript-log'
import { BOLD, GRAY, ITALIC, RED, RESET, YELLOW, CYAN } from './ansi'
import * as J from './transcript-journal'

/** What a streamed block holds: the reply (Markdown), a refusal, or the model's reasoning. */
export const BLOCK_REPLY: i32 = 0
export const BLOCK_REFUSAL: i32 = 1
export const BLOCK_REASONING: i32 = 2

/**
 * What to try first on the offline demo: two prompts the demo tour (public/demos/tour.json)
 * answers (a test checks they are there), a command of one's own, and the way to a real model.
 */
export const DEMO_TRY = 'Try "what\'s in this project?", "count the cities per country", !ls, /model.'

export class TranscriptText {
  cols: i32 = 80
  /** Headless (the agent API): nothing is drawn or kept, so a reply costs no rendering. */
  off: bool = false
  /** Rows committed during the current feed, written above the live region by the engine. */
  commit: ByteBuf = new ByteBuf(1024)
  private streaming: bool = false
  /** The kind of the block streaming (BLOCK_*): a switch of kind ends the block. */
  private kind: i32 = BLOCK_REPLY
  /** Rows of a refusal or reasoning block committed so far (its first row carries the mark). */
  private plainRows: i32 = 0
  private streamedLine: bool = false // the current assistant block has committed a row
  private partial: ByteBuf = new ByteBuf(256)
  private sanitizer: Sanitizer = new Sanitizer()
  private scratch: ByteBuf = new ByteBuf(256)
  private blocks: i32 = 0
  private md: MarkdownStream = new MarkdownStream()
  // The rows of one streamed line, reused: a reply has tens of thousands of lines, and a new
  // list per line was a third of the engine's allocations.
  private lineRows: Rows = new Rows(true)
  // The live preview's rows (MarkdownStream's, valid until the next preview), reused per frame.
  private liveRowsOf: Rows = new Rows()

  /** Every committed row, with commands' whole output, for the Ctrl+O transcript view. */
  log: TranscriptLog = new TranscriptLog()
  /** What was committed, as calls: a resize replays it at the new width (reflow). */
  journal: J.TranscriptJournal = new J.TranscriptJournal()
  /** Replaying the journal: calls are not journaled again. */
  protected replaying: bool = false

  /** Journals a call (not while replaying, nor headless); null when it is not journaled. */
  protected note(kind: i32): J.JournalEntry | null {
    if (this.replaying || this.off) return null
    return this.journal.add(new J.JournalEntry(kind))
  }

  protected commitRows(rows: Rows, full: Rows | null = null): void {
    if (this.off) return
    rows.writeTo(this.commit, true)
    this.log.addRows(full != null ? full : rows)
  }

  /** A blank row between blocks. */
  protected gap(): void {
    if (this.blocks > 0) {
      this.commit.str('\r\n')
      this.log.addBlank()
    }
    this.blocks++
  }

  banner(label: string, model: string): void {
    const e = this.note(J.J_BANNER)
    if (e != null) {
      e.text = label
      e.style = model
    }
    const rows = new Rows()
    const line = new ByteBuf(128)
    if (this.cols >= 33) {
      line.str(CYAN + '✻' + RESET + ' ' + BOLD + 'fxterm' + RESET + ' · Run /help for commands')
      rows.add(line, 33)
    } else {
      // a narrow terminal: wrapped by the engine, never by xterm (a resize redraws it anyway)
      const first = stringBytes('fxterm · Run /help for commands')
      wrapInto(rows, first, 0, first.length, this.cols, CYAN + '✻' + RESET + ' ', 2, '  ', 2, '')
    }
    const about = 'a coding agent in your browser tab · ' + (label == 'demo' ? 'offline demo model: no key, no network' : label + ' · ' + model)
    const second = stringBytes(about)
    wrapInto(rows, second, 0, second.length, this.cols, '  ', 2, '  ', 2, GRAY)
    if (label == 'demo') {
      const third = stringBytes(DEMO_TRY)
      wrapInto(rows, third, 0, third.length, this.cols, '  ', 2, '  ', 2, GRAY)
    }
    this.commitRows(rows)
    this.blocks++
  }

  promptCard(text: ByteBuf): void {
    const e = this.note(J.J_PROMPT)
    if (e != null) e.bytes = J.copyOf(text.data, 0, text.length)
    this.gap()
    const clean = new ByteBuf(text.length)
    sanitizeInto(text.data, 0, text.length, clean)
    const rows = new Rows()
    wrapInto(rows, clean.data, 0, clean.length, this.cols, GRAY + BOLD + '❯ ' + RESET, 2, '  ', 2, '')
    this.commitRows(rows)
  }

  /** Streams a piece of the assistant's reply (sanitized here, then rendered as Markdown line by line). */
  assistantDelta(bytes: Uint8Array, start: i32, end: i32): void {
    this.blockDelta(BLOCK_REPLY, bytes, start, end)
  }

  /**
   * Streams a piece of a refusal (OpenAI's `refusal`): the model's own words, drawn apart from a
   * reply so a person sees at once that the model declined.
   */
  refusalDelta(bytes: Uint8Array, start: i32, end: i32): void {
    this.blockDelta(BLOCK_REFUSAL, bytes, start, end)
  }

  /** Streams a piece of the model's reasoning, dimmed, ahead of its reply. */
  reasoningDelta(bytes: Uint8Array, start: i32, end: i32): void {
    this.blockDelta(BLOCK_REASONING, bytes, start, end)
  }

  protected blockDelta(kind: i32, bytes: Uint8Array, start: i32, end: i32): void {
    if (this.off) return
    if (this.streaming && this.kind != kind) this.endAssistant()
    if (!this.streaming) {
      this.streaming = true
      this.kind = kind
      this.plainRows = 0
      this.streamedLine = false
      this.partial.reset()
      this.sanitizer = new Sanitizer()
      this.md = new MarkdownStream()
    }
    if (!this.replaying) this.journal.streamed(kind, bytes, start, end)
    this.scratch.reset()
    this.sanitizer.feed(bytes, start, end, this.scratch)
    const s = this.scratch
    let from = 0
    for (let i = 0; i < s.length; i++) {
      if (s.u8At(i) != 0x0a) continue
      this.partial.slice(s.data, from, i)
      this.flushPartialLine()
      from = i + 1
    }
    this.partial.slice(s.data, from, s.length)
  }

  /** A refusal's or reasoning's line as rows: its mark on the block's first row, no Markdown. */
  private plainLine(rows: Rows): void {
    // Blank lines before any text draw nothing, as a reply's do.
    if (this.partial.length == 0 && this.plainRows == 0) return
    const refusal = this.kind == BLOCK_REFUSAL
    const style = refusal ? YELLOW : GRAY + ITALIC
    const first = this.plainRows == 0 ? (refusal ? YELLOW + BOLD + '⊘ ' + RESET : GRAY + '∴ ' + RESET) : '  '
    wrapInto(rows, this.partial.data, 0, this.partial.length, this.cols, first, 2, '  ', 2, style)
    this.plainRows += rows.count
  }

  /** A complete line: the Markdown renderer decides what it commits (leading blank lines: nothing). */
  private flushPartialLine(): void {
    const rows = this.lineRows
    rows.clear()
    if (this.kind == BLOCK_REPLY) this.md.line(this.partial.data, 0, this.partial.length, this.cols, rows)
    else this.plainLine(rows)
    this.partial.reset()
    this.commitReply(rows)
  }

  private commitReply(rows: Rows): void {
    if (rows.count == 0) return
    if (!this.streamedLine) this.gap()
    this.commitRows(rows)
    this.streamedLine = true
  }

  /** The live preview of the unfinished line (and of a table still streaming). */
  private wrapPartial(rows: Rows): void {
    if (this.kind == BLOCK_REPLY) {
      this.md.live(this.partial.data, 0, this.partial.length, this.cols, rows)
      return
    }
    if (this.partial.length == 0) return
    const refusal = this.kind == BLOCK_REFUSAL
    const first = this.plainRows == 0 ? (refusal ? YELLOW + BOLD + '⊘ ' + RESET : GRAY + '∴ ' + RESET) : '  '
    wrapInto(rows, this.partial.data, 0, this.partial.length, this.cols, first, 2, '  ', 2, refusal ? YELLOW : GRAY + ITALIC)
  }

  /** The reply (or this model response) ended: commit its unfinished line, a pending table. */
  endAssistant(): void {
    if (!this.streaming) return
    if (this.partial.length > 0) this.flushPartialLine()
    const rows = new Rows()
    if (this.kind == BLOCK_REPLY) this.md.finish(this.cols, rows)
    this.commitReply(rows)
    this.streaming = false
    this.kind = BLOCK_REPLY
    if (!this.replaying) this.journal.closeStream()
  }

  /** Rows for the live region: the reply's unfinished line. */
  liveRows(rows: Rows): void {
    if (!this.streaming) return
    const preview = this.liveRowsOf
    preview.clear()
    this.wrapPartial(preview)
    if (preview.count == 0) return
    if (!this.streamedLine && this.blocks > 0) rows.add(new ByteBuf(0), 0)
    rows.addAll(preview)
  }

  /** A block of rows built elsewhere (file-rows.ts); `full` goes to the Ctrl+O log. Returns its first log row. */
  block(rows: Rows, full: Rows | null = null, source: J.BlockSource | null = null): i32 {
    if (this.off) return 0
    if (source != null) {
      const e = this.note(J.J_BLOCK)
      if (e != null) e.source = source
    }
    this.gap()
    const at = this.log.count
    this.commitRows(rows, full)
    return at
  }

  /** A one-block message from fxterm itself (trusted text). */
  notice(text: string, style: string = GRAY): void {
    const e = this.note(J.J_NOTICE)
    if (e != null) {
      e.text = text
      e.style = style
    }
    this.gap()
    const bytes = stringBytes(text)
    const rows = new Rows()
    wrapInto(rows, bytes, 0, bytes.length, this.cols, '  ', 2, '  ', 2, style)
    this.commitRows(rows)
  }

  /** A failure, from any source: sanitized, one block starting with ✗. */
  error(message: Uint8Array): void {
    const e = this.note(J.J_ERROR)
    if (e != null) e.bytes = J.copyOf(message, 0, message.length)
    this.gap()
    const clean = new ByteBuf(message.length)
    sanitizeInto(message, 0, message.length, clean)
    const rows = new Rows()
    wrapInto(rows, clean.data, 0, clean.length, this.cols, RED + '✗ ' + RESET, 2, '  ', 2, RED)
    this.commitRows(rows)
  }

  /** Trusted multi-line text (help), committed as is with wrapping. */
  lines(text: string): void {
    const e = this.note(J.J_LINES)
    if (e != null) e.text = text
    this.gap()
    const bytes = stringBytes(text)
    const rows = new Rows()
    let lineStart = 0
    for (let i = 0; i <= bytes.length; i++) {
      if (i < bytes.length && bytes[i] != 0x0a) continue
      // each line wraps on its own, continuation rows indented under the text
      wrapInto(rows, bytes, lineStart, i, this.cols, '', 0, '    ', 4, '')
      lineStart = i + 1
    }
    this.commitRows(rows)
  }

  /** Forgets the transcript (/clear), journal too unless it is being replayed. */
  reset(): void {
    this.blocks = 0
    this.streaming = false
    this.kind = BLOCK_REPLY
    this.plainRows = 0
    this.streamedLine = false
    this.partial.reset()
    if (!this.replaying) this.journal.clear()
  }
}
