// Markdown for the assistant's streamed reply, one complete line at a time. The transcript hands
// over each line as its newline arrives (`line`), asks for a preview of the unfinished line for
// the live region (`live`, which changes no state), and says when the reply ends (`finish`).
// Every decision is made on whole lines, so the rows committed are the same whatever the sizes
// of the deltas the reply arrived in; committed rows are never drawn again.
//
// Blocks: ATX headings, fenced code (highlighted, see markdown-code.ts), lists (• and 1., nested,
// wrapped rows hang under the item's text), block quotes (│ gutter), horizontal rules (short),
// GFM tables (see markdown-table.ts), paragraphs. Inline styling: markdown-inline.ts.
// All text is sanitized before it gets here; only the engine's SGR and checked OSC 8 are added.

import { ByteBuf, byteAt } from '../util/byte-buf'
import { Rows, wrapBytes } from './layout'
import { InlineRenderer } from './markdown-inline'
import { F_BOLD, F_UNDERLINE, C_GRAY, writeStyle } from './markdown-style'
import { CodeHighlighter, hardWrap, langOf } from './markdown-code'
import { Table, hasPipe, delimiterCells, cellCount, renderTable, rawFit } from './markdown-table'
import { LineInfo, classify, isFenceClose, L_BLANK, L_PARA, L_HEADING, L_HR, L_QUOTE, L_ITEM, L_FENCE } from './markdown-lines'

/** At most this many rows of the unfinished line (or streaming table) are shown live. */
const LIVE_ROWS: i32 = 6
/** A table is drawn (and goes on in a new box) every this many rows, bounding what is kept. */
const MAX_TABLE_ROWS: i32 = 200
const H2_COLOUR: i32 = 35

const GUTTER_BAR = '\x1b[90m│\x1b[0m'
const GUTTER = GUTTER_BAR + ' '

/** Appends `n` spaces. */
function pad(out: ByteBuf, n: i32): void {
  for (let k = 0; k < n; k++) out.byte(0x20)
}

/** Appends `n` quote gutters. */
function gutters(out: ByteBuf, n: i32): void {
  for (let k = 0; k < n; k++) out.str(GUTTER)
}


export class MarkdownStream {
  /** The next row committed is the reply's first (it gets the ● marker). */
  private lead: bool = true
  private pendingBlank: bool = false
  private afterListContent: bool = false // the previous line belonged to a list item, no blank since
  // open list items, outermost first: marker's source indent, content's display column
  private listInd: Array<i32> = []
  private listDisp: Array<i32> = []
  // fenced code
  private inFence: bool = false
  private fenceChar: i32 = 0
  private fenceLen: i32 = 0
  private fenceInd: i32 = 0
  private codeIndent: i32 = 0
  private hl: CodeHighlighter = new CodeHighlighter()
  // tables: a line with a | waits for the next one (a delimiter row makes it a table header)
  private holding: bool = false
  private held: ByteBuf = new ByteBuf(128)
  private tableMode: bool = false
  private table: Table = new Table()
  private md: InlineRenderer = new InlineRenderer()
  private info: LineInfo = new LineInfo()
  private inner: LineInfo = new LineInfo()
  private scratch: ByteBuf = new ByteBuf(512)
  private linking: bool = true // false while drawing the live preview: no hyperlinks there
  // The live preview's rows, laid out again on every delta; `live`'s caller draws them at once.
  private preview: Rows = new Rows(true)
  // The prefixes of a block's first and later rows, and a list item's marker, built here: as
  // strings they were a concatenation or two per line, and per delta for the live preview.
  private firstPre: ByteBuf = new ByteBuf(64)
  private restPre: ByteBuf = new ByteBuf(64)
  private marker: ByteBuf = new ByteBuf(16)

  /** A complete line `src[s, e)` (sanitized, no newline): appends the rows to commit. */
  line(src: Uint8Array, s: i32, e: i32, cols: i32, rows: Rows): void {
    if (this.inFence) {
      if (isFenceClose(src, s, e, this.fenceChar, this.fenceLen)) {
        this.inFence = false
        return
      }
      this.codeLine(src, s, e, cols, rows, true, -1)
      return
    }
    if (this.tableMode) {
      if (hasPipe(src, s, e)) {
        this.table.addRow(src, s, e)
        if (this.table.bodyCount >= MAX_TABLE_ROWS) this.flushTable(cols, rows, true)
        return
      }
      this.flushTable(cols, rows, false)
    }
    if (this.holding) {
      this.holding = false
      const heldCells = cellCount(this.held.data, 0, this.held.length)
      const aligns = new Array<i32>()
      const delim = delimiterCells(src, s, e, aligns)
      if (delim > 0 && delim == heldCells) {
        this.table.begin(this.held.data, 0, this.held.length, src, s, e)
        this.tableMode = true
        this.listInd.length = 0
        this.listDisp.length = 0
        this.afterListContent = false
        return
      }
      this.block(this.held.data, 0, this.held.length, cols, rows, false, true, -1)
    }
    this.block(src, s, e, cols, rows, true, true, -1)
  }

  /** The reply ended: commits a table or a waiting line. */
  finish(cols: i32, rows: Rows): void {
    if (this.tableMode) this.flushTable(cols, rows, false)
    if (this.holding) {
      this.holding = false
      this.block(this.held.data, 0, this.held.length, cols, rows, false, true, -1)
    }
  }

  /**
   * Rows previewing the unfinished line `src[s, e)` (and a streaming table) for the live region:
   * at most LIVE_ROWS, the last ones. Changes no state.
   */
  live(src: Uint8Array, s: i32, e: i32, cols: i32, out: Rows): void {
    const lead = this.lead
    const blank = this.pendingBlank
    this.linking = false
    const rows = this.preview
    rows.clear()
    if (this.tableMode || this.holding) {
      if (this.tableMode) {
        const n = this.table.starts.length
        for (let r = max(0, n - LIVE_ROWS); r < n; r++) this.rawRow(this.table.buf.data, this.table.starts[r], this.table.ends[r], cols, rows)
      } else {
        this.rawRow(this.held.data, 0, this.held.length, cols, rows)
      }
      if (e > s) this.rawRow(src, s, e, cols, rows)
    } else if (e > s) {
      // a long unfinished line: only its tail is drawn (from a point that moves in steps, so the
      // rows stay put between steps), which bounds the work per delta
      const budget = max(512, cols * LIVE_ROWS * 2)
      let from = -1
      if (e - s > budget) {
        const step = budget >> 1
        from = s + ((e - s - step) / step) * step
        while (from < e && (byteAt(src, from) & 0xc0) == 0x80) from++
        if (!this.inFence) {
          let k = from
          while (k < e && k - from < 64 && byteAt(src, k) != 0x20) k++
          if (k < e && byteAt(src, k) == 0x20) from = k + 1
        }
      }
      if (this.inFence) {
        if (!isFenceClose(src, s, e, this.fenceChar, this.fenceLen)) this.codeLine(src, s, e, cols, rows, false, from)
      } else {
        this.block(src, s, e, cols, rows, false, false, from)
      }
    }
    this.lead = lead
    this.pendingBlank = blank
    this.linking = true
    for (let k = max(0, rows.count - LIVE_ROWS); k < rows.count; k++) out.add(rows.lines[k], rows.widths[k])
  }

  private rawRow(src: Uint8Array, s: i32, e: i32, cols: i32, rows: Rows): void {
    this.blankFirst(rows)
    const line = rows.fresh(cols * 3 + 8)
    line.str(this.margin())
    const w = rawFit(src, s, e, max(1, cols - 2), line)
    rows.add(line, 2 + w)
  }

  /** A blank row first when a blank line came before this block. */
  private blankFirst(rows: Rows): void {
    if (this.pendingBlank) {
      rows.add(rows.fresh(0), 0)
      this.pendingBlank = false
    }
  }

  /** A code block's row prefixes at `indent` (firstPre takes the margin) in the reused buffers. */
  private codePrefixes(indent: i32): void {
    const pre = this.firstPre
    pre.reset()
    pre.str(this.margin())
    pad(pre, indent)
    const rest = this.restPre
    rest.reset()
    pad(rest, 2 + indent)
  }

  /** The margin of the next row: ● for the reply's first. */
  private margin(): string {
    if (this.lead) {
      this.lead = false
      return '● '
    }
    return '  '
  }

  /** The deepest open list item a block at source indent `ind` belongs to, or -1. */
  private container(ind: i32, lazy: bool): i32 {
    const n = this.listInd.length
    if (n == 0) return -1
    if (lazy) return n - 1
    if (ind == 0) return -1
    for (let k = n - 1; k >= 0; k--) if (this.listInd[k] < ind) return k
    return -1
  }

  /** Indentation (display cells after the margin) limited so text keeps room at any width. */
  private clampIndent(indent: i32, cols: i32): i32 {
    return min(indent, max(0, cols - 2 - 12))
  }

  private closeListsTo(k: i32): void {
    this.listInd.length = k + 1
    this.listDisp.length = k + 1
  }

  /**
   * One non-code line. `mayHold`: a paragraph with a | waits for the next line. `commit`: update
   * the state (false for the live preview). `from`: draw only the content from there (live tail).
   */
  private block(src: Uint8Array, s: i32, e: i32, cols: i32, rows: Rows, mayHold: bool, commit: bool, from: i32): void {
    const info = this.info
    classify(src, s, e, info, true, commit)
    const kind = info.kind
    if (kind == L_BLANK) {
      if (commit) {
        if (!this.lead) this.pendingBlank = true
        this.afterListContent = false
      }
      return
    }
    if (kind == L_PARA && mayHold && hasPipe(src, s, e)) {
      this.holding = true
      this.held.reset()
      this.held.slice(src, s, e)
      return
    }
    if (kind == L_ITEM) {
      this.item(src, info, cols, rows, commit, from)
      return
    }
    const k = this.container(info.ind, kind == L_PARA && this.afterListContent)
    const indent = this.clampIndent(k >= 0 ? this.listDisp[k] : 0, cols)
    if (commit) {
      this.closeListsTo(k)
      this.afterListContent = kind == L_PARA && k >= 0
    }
    if (kind == L_FENCE) {
      if (!commit) return
      this.inFence = true
      this.fenceChar = info.fenceChar
      this.fenceLen = info.fenceLen
      this.fenceInd = info.ind
      this.codeIndent = k >= 0 ? this.listDisp[k] : 0
      // the language: the info string's first word
      let le = info.cs
      while (le < info.ce && le - info.cs < 32 && byteAt(src, le) != 0x20 && byteAt(src, le) != 0x7b && byteAt(src, le) != 0x2c) le++
      const lang = String.UTF8.decodeUnsafe(src.dataStart + <usize>info.cs, <usize>(le - info.cs))
      this.hl = new CodeHighlighter()
      this.hl.lang = langOf(lang)
      if (le > info.cs) {
        this.blankFirst(rows)
        const label = new ByteBuf(64)
        writeStyle(label, 0, C_GRAY)
        label.str('── ')
        label.slice(src, info.cs, le)
        label.str(' ──')
        label.str('\x1b[0m')
        this.codePrefixes(indent)
        wrapBytes(rows, label.data, 0, label.length, cols, this.firstPre, 2 + indent, this.restPre, 2 + indent, '')
      }
      return
    }
    this.blankFirst(rows)
    if (kind == L_HR) {
      const pre = this.firstPre
      pre.reset()
      pre.str(this.margin())
      pad(pre, indent)
      this.rule(rows, indent, cols, pre)
      return
    }
    if (kind == L_HEADING) {
      const flags = info.level == 1 ? F_BOLD | F_UNDERLINE : F_BOLD
      this.marker.reset()
      this.wrapText(src, info.cs, info.ce, from, cols, rows, indent, indent, 0, flags, info.level == 2 ? H2_COLOUR : 0)
      return
    }
    if (kind == L_QUOTE) {
      this.quote(src, info, cols, rows, indent, from, commit)
      return
    }
    this.marker.reset()
    this.wrapText(src, info.cs, info.ce, from, cols, rows, indent, indent, 0, 0, 0)
  }

  /** A list item: • or its number at the parent's content column, wrapped rows under its text. */
  private item(src: Uint8Array, info: LineInfo, cols: i32, rows: Rows, commit: bool, from: i32): void {
    const parent = this.container(info.ind, false)
    const markerCol = this.clampIndent(parent >= 0 ? this.listDisp[parent] : 0, cols)
    const markerW = this.markerOf(src, info)
    const content = markerCol + markerW + 1
    if (commit) {
      this.closeListsTo(parent)
      this.listInd.push(info.ind)
      this.listDisp.push(content)
      this.afterListContent = true
    }
    this.blankFirst(rows)
    this.marker.byte(0x20)
    this.wrapText(src, info.cs, info.ce, from, cols, rows, markerCol, content, markerW + 1, 0, 0)
  }

  /** Writes a list item's marker (•, ☐, ☑ or its number as written) to `marker`; returns its width. */
  private markerOf(src: Uint8Array, info: LineInfo): i32 {
    const m = this.marker
    m.reset()
    if (info.ordered) {
      m.slice(src, info.ms, info.me)
      return info.me - info.ms
    }
    m.str(info.task == 1 ? '☐' : info.task == 2 ? '☑' : '•')
    return 1
  }

  /** `> text`: a dim │ gutter per level; the content may be a heading, a list item, a rule. */
  private quote(src: Uint8Array, info: LineInfo, cols: i32, rows: Rows, indent: i32, from: i32, commit: bool): void {
    // as many gutters as leave the text room (at least one)
    const depth = min(info.level, max(1, (cols - 2 - indent - 8) >> 1))
    const gw = 2 * depth
    const inner = this.inner
    classify(src, info.cs, info.ce, inner, false, commit)
    const m = this.margin()
    if (inner.kind == L_BLANK) {
      // no trailing space after the last gutter
      const line = rows.fresh(64)
      line.str(m)
      pad(line, indent)
      gutters(line, depth - 1)
      line.str(GUTTER_BAR)
      rows.add(line, 2 + indent + gw - 1)
      return
    }
    const pre = this.firstPre
    pre.reset()
    pre.str(m)
    pad(pre, indent)
    gutters(pre, depth)
    const rest = this.restPre
    rest.reset()
    pad(rest, 2 + indent)
    gutters(rest, depth)
    const base = indent + gw
    if (inner.kind == L_HR) {
      this.rule(rows, base, cols, pre)
      return
    }
    if (inner.kind == L_ITEM) {
      const markerCol = min(inner.ind, max(0, min(8, cols - 2 - base - 12)))
      const markerW = this.markerOf(src, inner)
      pad(pre, markerCol)
      pre.append(this.marker)
      pre.byte(0x20)
      pad(rest, markerCol + markerW + 1)
      this.wrapWith(src, inner.cs, inner.ce, from, cols, rows, pre, 2 + base + markerCol + markerW + 1, rest, 2 + base + markerCol + markerW + 1, 0, 0)
      return
    }
    let flags = 0
    let colour = 0
    if (inner.kind == L_HEADING) {
      flags = inner.level == 1 ? F_BOLD | F_UNDERLINE : F_BOLD
      colour = inner.level == 2 ? H2_COLOUR : 0
    }
    this.wrapWith(src, inner.cs, inner.ce, from, cols, rows, pre, 2 + base, rest, 2 + base, flags, colour)
  }

  private rule(rows: Rows, indent: i32, cols: i32, pre: ByteBuf): void {
    const n = max(3, min(24, (cols - 2 - indent) >> 1))
    const line = rows.fresh(n * 3 + 32)
    line.append(pre)
    writeStyle(line, 0, C_GRAY)
    line.repeat('─', n)
    line.str('\x1b[0m')
    rows.add(line, 2 + indent + n)
  }

  /**
   * Inline-rendered `src[cs, ce)` wrapped: the first row is margin + `firstIndent` spaces +
   * `marker` (the buffer, `markerW` cells), the rest hang at `restIndent`. From the live tail
   * (`from` > cs) every row hangs.
   */
  private wrapText(src: Uint8Array, cs: i32, ce: i32, from: i32, cols: i32, rows: Rows, firstIndent: i32, restIndent: i32, markerW: i32, flags: i32, colour: i32): void {
    const m = this.margin()
    const rest = this.restPre
    rest.reset()
    pad(rest, 2 + restIndent)
    const first = this.firstPre
    first.reset()
    first.str(m)
    if (from > cs) {
      pad(first, restIndent)
      this.wrapWith(src, from, ce, -1, cols, rows, first, 2 + restIndent, rest, 2 + restIndent, flags, colour)
      return
    }
    pad(first, firstIndent)
    first.append(this.marker)
    this.wrapWith(src, cs, ce, -1, cols, rows, first, 2 + firstIndent + markerW, rest, 2 + restIndent, flags, colour)
  }

  private wrapWith(src: Uint8Array, cs: i32, ce: i32, from: i32, cols: i32, rows: Rows, first: ByteBuf, fw: i32, rest: ByteBuf, rw: i32, flags: i32, colour: i32): void {
    const buf = this.scratch
    buf.reset()
    this.md.render(src, from > cs ? from : cs, ce, buf, flags, colour, this.linking)
    wrapBytes(rows, buf.data, 0, buf.length, cols, first, fw, rest, rw, '')
  }

  /** One line of a fenced code block: highlighted, hard-wrapped, its own indentation kept. */
  private codeLine(src: Uint8Array, s: i32, e: i32, cols: i32, rows: Rows, commit: bool, from: i32): void {
    let i = s
    let k = 0
    while (k < this.fenceInd && i < e && byteAt(src, i) == 0x20) {
      i++
      k++
    }
    if (from > i) i = from
    const buf = this.scratch
    buf.reset()
    this.hl.line(src, i, e, buf, commit)
    const indent = this.clampIndent(this.codeIndent, cols)
    this.blankFirst(rows)
    this.codePrefixes(indent)
    hardWrap(rows, buf.data, 0, buf.length, cols, this.firstPre, 2 + indent, this.restPre, 2 + indent)
  }

  private flushTable(cols: i32, rows: Rows, keepOpen: bool): void {
    this.blankFirst(rows)
    renderTable(this.table, cols, this.md, rows, this.margin())
    if (keepOpen) this.table.clearBody()
    else this.tableMode = false
  }
}
