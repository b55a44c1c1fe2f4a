// The transcript as the engine wrote it, not as it was drawn: each call that committed rows
// (a prompt, a streamed reply, a command's output, a notice…) with what it was given. A resize
// clears the terminal and replays this journal at the new width (Transcript.reflow), so tables,
// code blocks, lists and long lines are laid out again rather than left to xterm's reflow, which
// cuts a table's rows in two and, when its guess of the rows it added was off, lost rows.
//
// Runs in the engine (worker thread). Bounded in bytes: the oldest entries go first, as xterm's
// own scrollback drops its oldest rows.

import { ByteBuf } from '../util/byte-buf'
import { FileChange } from './file-rows'
import { Rows } from './layout'

export const J_BANNER: i32 = 0
export const J_PROMPT: i32 = 1
/** A piece of a streamed block (reply, refusal, reasoning): `code` is its BLOCK_* kind. */
export const J_STREAM: i32 = 2
export const J_TOOL_RAN: i32 = 3
export const J_FILE: i32 = 4
export const J_DENIED: i32 = 5
export const J_NOTICE: i32 = 6
export const J_ERROR: i32 = 7
export const J_LINES: i32 = 8
export const J_BLOCK: i32 = 9

/** What the journal keeps at most; a session past it loses its oldest rows on a resize. */
const MAX_BYTES: i32 = 16 * 1024 * 1024

/**
 * Rows that are laid out for a width (a /diff): a block built outside the transcript gives one
 * of these so that a resize can lay it out again.
 */
export abstract class BlockSource {
  abstract layout(cols: i32, rows: Rows, full: Rows): void
}

/** One transcript call and its arguments (which fields are used depends on `kind`). */
export class JournalEntry {
  kind: i32
  text: string = ''
  style: string = ''
  bytes: ByteBuf = new ByteBuf(0)
  more: ByteBuf = new ByteBuf(0)
  code: i32 = 0
  /** A command's output: stdout is `more` up to here, stderr the rest. */
  split: i32 = 0
  flag: bool = false
  /** A command's output drawn with its own (whitelisted) colours: the person's `!command`. */
  coloured: bool = false
  /** A stream entry whose block ended (replaying it ends the block too). */
  closed: bool = false
  change: FileChange | null = null
  source: BlockSource | null = null

  constructor(kind: i32) {
    this.kind = kind
  }

  get size(): i32 {
    return 64 + this.text.length * 2 + this.bytes.length + this.more.length + (this.change != null ? this.change!.diff.length : 0)
  }
}

export class TranscriptJournal {
  entries: Array<JournalEntry> = []
  /** The stream entry deltas are appended to, while it is the newest entry and its block is open. */
  private open: JournalEntry | null = null
  private bytes: i32 = 0

  add(e: JournalEntry): JournalEntry {
    this.entries.push(e)
    this.bytes += e.size
    if (this.bytes > MAX_BYTES) this.trim()
    return e
  }

  /** A piece of a streamed block: appended to the open entry, or the start of a new one. */
  streamed(kind: i32, src: Uint8Array, start: i32, end: i32): void {
    const n = this.entries.length
    let e = this.open
    if (e == null || e.code != kind || n == 0 || unchecked(this.entries[n - 1]) != e) {
      e = new JournalEntry(J_STREAM)
      e.code = kind
      this.open = e
      this.add(e)
    }
    e.bytes.slice(src, start, end)
    this.bytes += end - start
    if (this.bytes > MAX_BYTES) this.trim()
  }

  /** The streamed block ended. */
  closeStream(): void {
    if (this.open != null) this.open!.closed = true
    this.open = null
  }

  /** Takes the entries out (for a replay, which adds them back as it goes). */
  take(): Array<JournalEntry> {
    const all = this.entries
    this.entries = []
    this.open = null
    this.bytes = 0
    return all
  }

  /** Puts an entry back during a replay; a stream entry still open stays the one appended to. */
  putBack(e: JournalEntry): void {
    this.add(e)
    this.open = e.kind == J_STREAM && !e.closed ? e : null
  }

  clear(): void {
    this.entries = []
    this.open = null
    this.bytes = 0
  }

  private trim(): void {
    let drop = 0
    while (this.bytes > MAX_BYTES && drop < this.entries.length - 1) {
      this.bytes -= unchecked(this.entries[drop]).size
      drop++
    }
    if (drop > 0) this.entries = this.entries.slice(drop)
  }
}

/** A copy of `src` (an argument the caller may reuse). */
export function copyOf(src: Uint8Array, start: i32, end: i32): ByteBuf {
  const b = new ByteBuf(max(0, end - start))
  b.slice(src, start, end)
  return b
}

/** Drops all but the last `n` rows (each ending in CRLF) from the start of `b`. */
export function keepLastRows(b: ByteBuf, n: i32): void {
  let seen = 0
  for (let i = b.length - 2; i >= 0; i--) {
    if (b.u8At(i) != 0x0d || b.u8At(i + 1) != 0x0a) continue
    seen++
    if (seen <= n) continue
    const cut = i + 2
    const data = b.dataStart
    memory.copy(data, data + <usize>cut, <usize>(b.length - cut))
    b.length -= cut
    return
  }
}
