/**
 * The assistant's reply is Markdown, streamed in pieces of any size: headings, emphasis, code
 * (inline and fenced, highlighted), lists, quotes, links, tables and rules become styled rows.
 * Every construct is streamed in 1- and 4-character deltas and whole, at 80 and 24 columns, and
 * must give the same screen each time. Links become OSC 8 hyperlinks only for http(s); the bytes
 * written are checked for that, not just what xterm shows.
 *
 * Widths: the engine is booted at the width under test, but the xterm is made wider (at least
 * WIDE_TERM columns, and always wider than the engine), for two reasons: an overflowing row would
 * otherwise be wrapped by xterm and go unnoticed, and the activity row under the reply ("⠋
 * Thinking… (0s · esc to interrupt)") is not wrapped by the engine, so in an xterm narrower than
 * it the live region's redraws misplace rows, which is not what these tests are about. Instead
 * they check that nothing of the reply is drawn right of the engine's width.
 */
import { describe, expect, test } from 'vitest'
import { createHarness, type Harness } from './harness.ts'

const WIDE_TERM = 60
const decoder = new TextDecoder()

/** The reply in pieces of `size` code points (Infinity: whole). */
function pieces(text: string, size: number): string[] {
  if (!Number.isFinite(size)) return [text]
  const cps = Array.from(text)
  const out: string[] = []
  for (let i = 0; i < cps.length; i += size) out.push(cps.slice(i, i + size).join(''))
  return out
}

/** Keeps every byte written to the terminal, decoded. */
function recordWrites(h: Harness): string[] {
  const writes: string[] = []
  const write = h.term.write.bind(h.term)
  h.term.write = ((data: string | Uint8Array, callback?: () => void) => {
    writes.push(typeof data === 'string' ? data : decoder.decode(data))
    write(data, callback)
  }) as typeof h.term.write
  return writes
}

/** Screen line indexes of the reply: after the prompt card, before the live footer. */
function replyRange(h: Harness): [number, number] {
  const lines = h.screen().split('\n')
  const start = lines.indexOf('❯ hi') + 2
  const dividers = lines.flatMap((line, i) => (/^─+$/.test(line) ? [i] : []))
  let end = dividers.at(-2) ?? lines.length
  while (end > start && (lines[end - 1] === '' || /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /.test(lines[end - 1]!))) end--
  return [start, end]
}

function replyLines(h: Harness): string[] {
  const [start, end] = replyRange(h)
  return h.screen().split('\n').slice(start, end)
}

/** Reply lines with anything drawn at or right of column `cols`. */
function overflowing(h: Harness, cols: number): string[] {
  const [start, end] = replyRange(h)
  const buf = h.term.buffer.active
  const bad: string[] = []
  for (let y = start; y < end; y++) {
    const line = buf.getLine(y)!
    for (let x = cols; x < h.term.cols; x++) {
      if (line.getCell(x)?.getChars()) {
        bad.push(line.translateToString(true))
        break
      }
    }
  }
  return bad
}

type Streamed = { h: Harness; writes: string[]; id: number }

/** Boots at `cols`, sends a prompt, streams `text` in pieces of `size`, then finishes (unless told not to). */
async function stream(text: string, { cols = 80, size = Infinity, finish = true } = {}): Promise<Streamed> {
  const h = await createHarness({ cols, rows: 30 })
  h.term.resize(Math.max(WIDE_TERM, cols + 20), 30)
  const writes = recordWrites(h)
  await h.type('hi\r')
  const id = h.lastOf('model_request')!.id
  for (const delta of pieces(text, size)) await h.model(id, { type: 'text_delta', delta })
  if (finish) await h.model(id, { type: 'finish', reason: 'stop' })
  return { h, writes, id }
}

const SIZES = [1, 4, Infinity]

/** Streams at every delta size and checks the reply's lines (the same each time) and that nothing overflows. */
async function expectReply(text: string, cols: number, expected: string[]) {
  for (const size of SIZES) {
    const { h } = await stream(text, { cols, size })
    expect(replyLines(h), `${cols} columns, deltas of ${size}`).toEqual(expected)
    expect(overflowing(h, cols), `${cols} columns, deltas of ${size}`).toEqual([])
  }
}

/** The attributes of the first cell of the first occurrence of `word` in the reply (ASCII lines). */
function styleOf(h: Harness, word: string) {
  const [start, end] = replyRange(h)
  const buf = h.term.buffer.active
  for (let y = start; y < end; y++) {
    const line = buf.getLine(y)!
    const x = line.translateToString(true).indexOf(word)
    if (x < 0) continue
    const cell = line.getCell(x)!
    return {
      bold: !!cell.isBold(),
      italic: !!cell.isItalic(),
      underline: !!cell.isUnderline(),
      strike: !!cell.isStrikethrough(),
      fg: cell.isFgDefault() ? 'default' : cell.getFgColor(),
    }
  }
  throw new Error(`${word} is not in the reply`)
}

const PLAIN = { bold: false, italic: false, underline: false, strike: false, fg: 'default' }

// The escape sequences the engine itself writes: SGR, cursor up/column, erase, DEC modes 2004,
// 2026 and 25, and OSC 8 links to http(s) URLs of printable ASCII (and the empty OSC 8 that ends one).
const ENGINE_SEQUENCE = /\x1b\[\??[0-9;]*[mAGJKhl]|\x1b\]8;;(?:https?:\/\/[\x21-\x7e]+)?\x1b\\/g

function expectOnlyEngineSequences(writes: string[]) {
  const all = writes.join('')
  const rest = all.replace(ENGINE_SEQUENCE, '')
  expect(rest.includes('\x1b'), 'a stray ESC').toBe(false)
  expect(rest.match(/[\x00-\x09\x0b\x0c\x0e-\x1f\x7f\u0080-\u009f]/g)).toBeNull()
}

/** The URLs of every OSC 8 link opened in the writes. */
function linkTargets(writes: string[]): string[] {
  return [...writes.join('').matchAll(/\x1b\]8;([^;\x1b\x07]*);([^\x1b\x07]*)(?:\x1b\\|\x07)/g)].map((m) => m[2]!).filter((url) => url !== '')
}

/** A deterministic jumble of every construct, hostile bytes and awkward words included. */
function randomDocument(seed: number): string {
  let state = seed
  const random = () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const pick = <T,>(list: T[]) => list[Math.floor(random() * list.length)]!
  const vocabulary = ['a', 'word', 'longerword', '**bold**', '*it*', '_u_', '`code`', '~~s~~', '東京', '🎉', 'snake_case', '[l](https://x.example/p)', '[j](javascript:x)', 'https://b.example/q', '**', '*', '`', '[', ']', '(', ')', '|', '\\|', '<https://c.example>', 'averyveryveryverylongwordwithoutanyspacesatallthatmustbreak', '\x1b[31m', '\x07', '\t']
  const words = (n: number) => Array.from({ length: n }, () => pick(vocabulary)).join(' ')
  const lines: string[] = []
  for (let k = 8 + Math.floor(random() * 12); k > 0; k--) {
    const kind = Math.floor(random() * 14)
    const indent = ' '.repeat(pick([0, 0, 0, 2, 3, 4, 6]))
    if (kind === 0) lines.push('#'.repeat(1 + Math.floor(random() * 6)) + ' ' + words(1 + Math.floor(random() * 8)))
    else if (kind === 1) lines.push(indent + pick(['-', '*', '+', '1.', '10.', '2)']) + ' ' + pick(['', '[ ] ', '[x] ']) + words(Math.floor(random() * 20)))
    else if (kind === 2) lines.push(pick(['>', '> >', '>>', '> > > > > > > > >']) + ' ' + words(Math.floor(random() * 15)))
    else if (kind === 3) {
      lines.push(indent + pick(['```ts', '```', '~~~py', '```bash', '```json', '````rust']))
      for (let j = Math.floor(random() * 5); j > 0; j--) lines.push(indent + ' '.repeat(Math.floor(random() * 10)) + words(Math.floor(random() * 10)))
      if (random() < 0.8) lines.push(indent + '```')
    } else if (kind === 4) {
      const columns = 1 + Math.floor(random() * 7)
      const row = () => '| ' + Array.from({ length: columns }, () => words(Math.floor(random() * 5))).join(' | ') + ' |'
      lines.push(row(), '|' + Array.from({ length: columns }, () => pick(['---', ':--', '--:', ':-:'])).join('|') + '|')
      for (let j = Math.floor(random() * 5); j > 0; j--) lines.push(random() < 0.9 ? row() : words(3))
    } else if (kind === 5) lines.push(pick(['---', '***', '___', '- - -']))
    else if (kind === 6) lines.push('')
    else lines.push(indent + words(Math.floor(random() * 30)))
  }
  return lines.join('\n') + (random() < 0.5 ? '\n' : '')
}

describe('each construct, streamed in 1- and 4-character deltas and whole', () => {
  test('headings lose their #s and are bold', async () => {
    const text = '# Title\n## Section two\n### Third level\n#### Deep ###\nText after the headings.'
    await expectReply(text, 80, ['● Title', '  Section two', '  Third level', '  Deep', '  Text after the headings.'])
    await expectReply(text, 24, ['● Title', '  Section two', '  Third level', '  Deep', '  Text after the', '  headings.'])
    const { h } = await stream(text)
    expect(styleOf(h, 'Title')).toEqual({ ...PLAIN, bold: true, underline: true })
    expect(styleOf(h, 'Section')).toEqual({ ...PLAIN, bold: true, fg: 5 })
    expect(styleOf(h, 'Third')).toEqual({ ...PLAIN, bold: true })
    expect(styleOf(h, 'Deep')).toEqual({ ...PLAIN, bold: true })
    expect(styleOf(h, 'Text')).toEqual(PLAIN)
  })

  test('bold, italic, inline code and strikethrough; snake_case, lone stars and escapes stay text', async () => {
    const text = 'Some **bold**, *italic*, _also italic_, `code`, ~~gone~~, a snake_case, 2 * 3 * 4 and \\*escaped\\*.'
    await expectReply(text, 80, [
      '● Some bold, italic, also italic, code, gone, a snake_case, 2 * 3 * 4 and',
      '  *escaped*.',
    ])
    await expectReply(text, 24, [
      '● Some bold, italic,',
      '  also italic, code,',
      '  gone, a snake_case, 2',
      '  * 3 * 4 and *escaped*.',
    ])
    const { h } = await stream(text)
    expect(styleOf(h, 'bold')).toEqual({ ...PLAIN, bold: true })
    expect(styleOf(h, 'italic')).toEqual({ ...PLAIN, italic: true })
    expect(styleOf(h, 'also')).toEqual({ ...PLAIN, italic: true })
    expect(styleOf(h, 'code')).toEqual({ ...PLAIN, fg: 6 })
    expect(styleOf(h, 'gone')).toEqual({ ...PLAIN, strike: true })
    expect(styleOf(h, 'snake_case')).toEqual(PLAIN)
    expect(styleOf(h, 'Some')).toEqual(PLAIN)
  })

  test('a style carries over to the next row when a line wraps', async () => {
    const { h } = await stream('**a bold sentence long enough to wrap** then plain', { cols: 24 })
    expect(replyLines(h)).toEqual(['● a bold sentence long', '  enough to wrap then', '  plain'])
    expect(styleOf(h, 'enough')).toEqual({ ...PLAIN, bold: true })
    expect(styleOf(h, 'then')).toEqual(PLAIN)
  })

  test('a fenced code block: a dim language label, highlighted code, no fences, indentation kept, long lines hard-wrapped', async () => {
    const text = 'Before:\n```ts\nconst x = 1 // one\nif (x) {\n    return "a long string that wraps"\n}\n```\nAfter.'
    await expectReply(text, 80, [
      '● Before:',
      '  ── ts ──',
      '  const x = 1 // one',
      '  if (x) {',
      '      return "a long string that wraps"',
      '  }',
      '  After.',
    ])
    await expectReply(text, 24, [
      '● Before:',
      '  ── ts ──',
      '  const x = 1 // one',
      '  if (x) {',
      '      return "a long str',
      '  ing that wraps"',
      '  }',
      '  After.',
    ])
    const { h } = await stream(text)
    expect(styleOf(h, '── ts')).toEqual({ ...PLAIN, fg: 8 })
    expect(styleOf(h, 'const')).toEqual({ ...PLAIN, fg: 5 }) // keyword
    expect(styleOf(h, 'x =')).toEqual({ ...PLAIN, fg: 6 }) // code
    expect(styleOf(h, '1 //')).toEqual({ ...PLAIN, fg: 3 }) // number
    expect(styleOf(h, '// one')).toEqual({ ...PLAIN, fg: 8 }) // comment
    expect(styleOf(h, '"a long')).toEqual({ ...PLAIN, fg: 2 }) // string
    expect(styleOf(h, 'After')).toEqual(PLAIN)
  })

  test('code in other languages: shell, Python, JSON, Rust, Go, and a fence without a language', async () => {
    const text = [
      '```bash',
      'export NAME="x" # set',
      'echo $NAME',
      '```',
      '```python',
      'def f():',
      '    """doc',
      '    string"""',
      '    return None',
      '```',
      '```json',
      '{"key": 12, "ok": true}',
      '```',
      '```rust',
      "fn main() { let c = 'x'; } /* a",
      'block */',
      '```',
      '```go',
      'func main() { return nil }',
      '```',
      '~~~',
      'plain   text',
      '~~~',
    ].join('\n')
    const expected = [
      '● ── bash ──',
      '  export NAME="x" # set',
      '  echo $NAME',
      '  ── python ──',
      '  def f():',
      '      """doc',
      '      string"""',
      '      return None',
      '  ── json ──',
      '  {"key": 12, "ok": true}',
      '  ── rust ──',
      "  fn main() { let c = 'x'; } /* a",
      '  block */',
      '  ── go ──',
      '  func main() { return nil }',
      '  plain   text',
    ]
    await expectReply(text, 80, expected)
    const { h } = await stream(text)
    expect(styleOf(h, 'export')).toMatchObject({ fg: 5 })
    expect(styleOf(h, '"x"')).toMatchObject({ fg: 2 })
    expect(styleOf(h, '# set')).toMatchObject({ fg: 8 })
    expect(styleOf(h, '$NAME')).toMatchObject({ fg: 12 })
    expect(styleOf(h, 'def')).toMatchObject({ fg: 5 })
    expect(styleOf(h, 'string"""')).toMatchObject({ fg: 2 }) // the triple-quoted string goes on
    expect(styleOf(h, 'None')).toMatchObject({ fg: 3 })
    expect(styleOf(h, '"key"')).toMatchObject({ fg: 12 })
    expect(styleOf(h, '12')).toMatchObject({ fg: 3 })
    expect(styleOf(h, 'true')).toMatchObject({ fg: 3 })
    expect(styleOf(h, 'fn')).toMatchObject({ fg: 5 })
    expect(styleOf(h, "'x'")).toMatchObject({ fg: 2 })
    expect(styleOf(h, 'block */')).toMatchObject({ fg: 8 }) // the block comment goes on
    expect(styleOf(h, 'func')).toMatchObject({ fg: 5 })
    expect(styleOf(h, 'nil')).toMatchObject({ fg: 3 })
    expect(styleOf(h, 'plain')).toMatchObject({ fg: 6 })
  })

  test('a code block inside a list item sits under the item text', async () => {
    const text = '1. Install:\n   ```sh\n   npm i\n   ```\n2. Run it'
    await expectReply(text, 80, ['● 1. Install:', '     ── sh ──', '     npm i', '  2. Run it'])
  })

  test('lists: • bullets, nesting, numbers kept, tasks, wrapped rows under the item text', async () => {
    const text =
      '- one\n- two is long enough to wrap onto a second row when the terminal is narrow\n  - nested item\n    - deeper\n* star\n+ plus\n\n1. first\n2. second\n10. tenth\n\n- [ ] todo\n- [x] done'
    await expectReply(text, 80, [
      '● • one',
      '  • two is long enough to wrap onto a second row when the terminal is narrow',
      '    • nested item',
      '      • deeper',
      '  • star',
      '  • plus',
      '',
      '  1. first',
      '  2. second',
      '  10. tenth',
      '',
      '  ☐ todo',
      '  ☑ done',
    ])
    await expectReply(text, 24, [
      '● • one',
      '  • two is long enough',
      '    to wrap onto a',
      '    second row when the',
      '    terminal is narrow',
      '    • nested item',
      '      • deeper',
      '  • star',
      '  • plus',
      '',
      '  1. first',
      '  2. second',
      '  10. tenth',
      '',
      '  ☐ todo',
      '  ☑ done',
    ])
  })

  test('a paragraph continuing a list item stays under its text', async () => {
    const text = '- item\n  more of the item\nlazy line\n\n  second paragraph of the item\n\nOutside.'
    await expectReply(text, 80, ['● • item', '    more of the item', '    lazy line', '', '    second paragraph of the item', '', '  Outside.'])
  })

  test('block quotes get a dim │ gutter per level', async () => {
    const text = '> A quoted line that is long enough to wrap at twenty-four columns.\n> > nested\n>\n> - item in a quote'
    await expectReply(text, 80, ['● │ A quoted line that is long enough to wrap at twenty-four columns.', '  │ │ nested', '  │', '  │ • item in a quote'])
    await expectReply(text, 24, [
      '● │ A quoted line that',
      '  │ is long enough to',
      '  │ wrap at twenty-four',
      '  │ columns.',
      '  │ │ nested',
      '  │',
      '  │ • item in a quote',
    ])
    const { h } = await stream(text)
    expect(styleOf(h, '│')).toMatchObject({ fg: 8 })
    expect(styleOf(h, 'A quoted')).toEqual(PLAIN)
  })

  test('links show their text; only http(s) ones are hyperlinks', async () => {
    const text = 'See [the docs](https://example.com/docs), [evil](javascript:alert(1)) and https://bare.example/x.'
    await expectReply(text, 80, ['● See the docs, evil (javascript:alert(1)) and https://bare.example/x.'])
    await expectReply(text, 24, ['● See the docs, evil', '  (javascript:alert(1))', '  and', '  https://bare.example/x', '  .'])
    const { h, writes } = await stream(text)
    expect(linkTargets(writes)).toEqual(['https://example.com/docs', 'https://bare.example/x'])
    expect(styleOf(h, 'the docs')).toEqual({ ...PLAIN, underline: true, fg: 12 })
    expect(styleOf(h, 'evil')).toEqual(PLAIN)
  })

  test('a horizontal rule is a short dim line, not the full width', async () => {
    const text = 'Above\n\n---\n\nBelow'
    await expectReply(text, 80, ['● Above', '', '  ────────────────────────', '', '  Below'])
    await expectReply(text, 24, ['● Above', '', '  ───────────', '', '  Below'])
    const { h } = await stream(text)
    expect(styleOf(h, '───')).toMatchObject({ fg: 8 })
  })

  test('blank lines: none before the reply, one between paragraphs however many came, none after', async () => {
    await expectReply('\n\nFirst\n\n\n\nSecond\n\n', 80, ['● First', '', '  Second'])
  })
})

describe('tables', () => {
  const TABLE = 'Prices:\n\n| Name | Qty |\n|:--|--:|\n| apple | 3 |\n| 東京 | 12 |\n\nDone.'

  test('a pipe table is boxed, columns sized by display width (CJK is 2), aligned, the delimiter row gone', async () => {
    const boxed = [
      '● Prices:',
      '',
      '  ┌───────┬─────┐',
      '  │ Name  │ Qty │',
      '  ├───────┼─────┤',
      '  │ apple │   3 │',
      '  │ 東京  │  12 │',
      '  └───────┴─────┘',
      '',
      '  Done.',
    ]
    await expectReply(TABLE, 80, boxed)
    await expectReply(TABLE, 24, boxed)
    const { h } = await stream(TABLE)
    expect(styleOf(h, 'Name')).toEqual({ ...PLAIN, bold: true })
    expect(styleOf(h, '┌')).toMatchObject({ fg: 8 })
  })

  test('a table that ends the reply is drawn when the reply ends', async () => {
    await expectReply('| a | b |\n| - | - |\n| 1 | 2 |', 80, ['● ┌───┬───┐', '  │ a │ b │', '  ├───┼───┤', '  │ 1 │ 2 │', '  └───┴───┘'])
  })

  test('while a table streams its rows show raw in the live region; once it ends it is committed boxed', async () => {
    const { h, id } = await stream('Text\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 |', { finish: false })
    expect(replyLines(h)).toEqual(['● Text', '', '  | a | b |', '  |---|---|', '  | 1 | 2 |', '  | 3 |'])
    await h.model(id, { type: 'text_delta', delta: ' 4 |\n\nAfter' })
    expect(replyLines(h)).toEqual(['● Text', '', '  ┌───┬───┐', '  │ a │ b │', '  ├───┼───┤', '  │ 1 │ 2 │', '  │ 3 │ 4 │', '  └───┴───┘', '', '  After'])
    await h.model(id, { type: 'finish', reason: 'stop' })
    expect(replyLines(h)).toEqual(['● Text', '', '  ┌───┬───┐', '  │ a │ b │', '  ├───┼───┤', '  │ 1 │ 2 │', '  │ 3 │ 4 │', '  └───┴───┘', '', '  After'])
  })

  test('a table wider than the terminal shrinks its columns and wraps the cells; it never overflows', async () => {
    const text = '| Command | Meaning |\n|---|---|\n| `npm test` | builds the engine and the pages for production |\n| `npx vitest` | runs unit tests |'
    await expectReply(text, 80, [
      '● ┌────────────┬────────────────────────────────────────────────┐',
      '  │ Command    │ Meaning                                        │',
      '  ├────────────┼────────────────────────────────────────────────┤',
      '  │ npm test   │ builds the engine and the pages for production │',
      '  │ npx vitest │ runs unit tests                                │',
      '  └────────────┴────────────────────────────────────────────────┘',
    ])
    // 24 columns: 15 cells for text, shared out, the wider column first
    await expectReply(text, 24, [
      '● ┌─────────┬──────────┐',
      '  │ Command │ Meaning  │',
      '  ├─────────┼──────────┤',
      '  │ npm     │ builds   │',
      '  │ test    │ the      │',
      '  │         │ engine   │',
      '  │         │ and the  │',
      '  │         │ pages    │',
      '  │         │ for      │',
      '  │         │ producti │',
      '  │         │ on       │',
      '  │ npx     │ runs     │',
      '  │ vitest  │ unit     │',
      '  │         │ tests    │',
      '  └─────────┴──────────┘',
    ])
  })

  test('a table with too many columns for the width becomes one record per row', async () => {
    const text = '| a | b | c | d | e |\n|---|---|---|---|---|\n| 1 | 2 | 3 | 4 | 5 |\n| 6 | 7 | 8 | 9 | 10 |'
    const { h } = await stream(text, { cols: 20 })
    expect(replyLines(h)).toEqual(['● • a: 1', '    b: 2', '    c: 3', '    d: 4', '    e: 5', '  • a: 6', '    b: 7', '    c: 8', '    d: 9', '    e: 10'])
    expect(overflowing(h, 20)).toEqual([])
  })

  test('a line with a | that is not followed by a delimiter row is plain text', async () => {
    await expectReply('a | b\nc | d\n\n| x |', 80, ['● a | b', '  c | d', '', '  | x |'])
  })

  test('cells keep inline Markdown; escaped pipes and pipes in code are not separators', async () => {
    await expectReply('| k | v |\n|---|---|\n| **b** | `x|y` a\\|b |', 80, ['● ┌───┬─────────┐', '  │ k │ v       │', '  ├───┼─────────┤', '  │ b │ x|y a|b │', '  └───┴─────────┘'])
  })
})

describe('links and untrusted text', () => {
  test('javascript:, data:, file: and vbscript: links are never hyperlinks: their text and URL are shown', async () => {
    const text = [
      '[a](javascript:alert(document.cookie))',
      '[b](JavaScript:void(0))',
      '[c](data:text/html;base64,PHNjcmlwdD4=)',
      '[d](file:///etc/passwd)',
      '[e](vbscript:msgbox)',
      '<javascript:alert(1)>',
      '[f](//evil.example/x)',
      '[g](https://例え.jp/)',
    ].join('\n')
    for (const size of SIZES) {
      const { h, writes } = await stream(text, { size })
      expect(linkTargets(writes)).toEqual([])
      expect(writes.join('').includes('\x1b]')).toBe(false)
      expect(replyLines(h)).toEqual([
        '● a (javascript:alert(document.cookie))',
        '  b (JavaScript:void(0))',
        '  c (data:text/html;base64,PHNjcmlwdD4=)',
        '  d (file:///etc/passwd)',
        '  e (vbscript:msgbox)',
        '  javascript:alert(1)',
        '  f (//evil.example/x)',
        '  g (https://例え.jp/)',
      ])
    }
  })

  test('escape sequences hidden in a link, its URL, code or a table are stripped before any styling', async () => {
    const text = [
      '[click\x1b[2J](https://ok.example/\x1b]52;c;ZXZpbA==\x07path)',
      'x\x1b]8;;https://evil.example/\x1b\\fake\x1b]8;;\x1b\\ y',
      '```sh',
      'echo \x1b[31mred\x07',
      '```',
      '| h\x1b[5m | \x9b2J |',
      '|---|---|',
      '| [l](https://ok.example/\x1b\\) | `\x1bP1$r\x1b\\c` |',
    ].join('\n')
    for (const size of SIZES) {
      const { h, writes } = await stream(text, { size })
      expectOnlyEngineSequences(writes)
      expect(linkTargets(writes)).toEqual(['https://ok.example/path', 'https://ok.example/'])
      expect(replyLines(h)).toEqual([
        '● click',
        '  xfake y',
        '  ── sh ──',
        '  echo red',
        '  ┌───┬───┐',
        '  │ h │   │',
        '  ├───┼───┤',
        '  │ l │ c │',
        '  └───┴───┘',
      ])
    }
  })

  test('a link that wraps is closed at the end of each row and reopened on the next', async () => {
    const { h, writes } = await stream('See [a link text long enough to wrap over rows](https://example.com/long) ok', { cols: 24 })
    expect(replyLines(h)).toEqual(['● See a link text long', '  enough to wrap over', '  rows ok'])
    // in what was committed, every row that opens a link closes it before its CRLF
    const committed = writes.join('').split('\r\n').filter((row) => row.includes('\x1b]8;;https'))
    expect(committed.length).toBeGreaterThanOrEqual(3)
    for (const row of committed) {
      const opens = row.match(/\x1b\]8;;https[^\x1b]*\x1b\\/g)?.length ?? 0
      const closes = row.match(/\x1b\]8;;\x1b\\/g)?.length ?? 0
      expect(closes, JSON.stringify(row)).toBe(opens)
    }
    expect(styleOf(h, 'enough')).toEqual({ ...PLAIN, underline: true, fg: 12 })
    expect(styleOf(h, 'ok')).toEqual(PLAIN)
  })

  test('bare URLs are linked without trailing punctuation; autolinks without their brackets', async () => {
    const { h, writes } = await stream('At https://a.example/p?q=1. Or (https://b.example/x_(y)). <https://c.example>!')
    expect(replyLines(h)).toEqual(['● At https://a.example/p?q=1. Or (https://b.example/x_(y)). https://c.example!'])
    expect(linkTargets(writes)).toEqual(['https://a.example/p?q=1', 'https://b.example/x_(y)', 'https://c.example'])
  })
})

describe('streaming', () => {
  const DOC = [
    '# Plan',
    '',
    'We will **change** three files, see [the guide](https://example.com/guide) and `src/main.ts`.',
    '',
    '1. Read the *config* — it is long enough to wrap at narrow widths, surely',
    '   - check `cols` and 行 widths',
    '2. Write code:',
    '   ```ts',
    '   export function f(a: number): string {',
    '     return `${a}` // template',
    '   }',
    '   ```',
    '',
    '> Note: a quote with **bold** text that wraps around.',
    '',
    '| File | Change | Risk |',
    '|------|:------:|-----:|',
    '| `a.ts` | rename everything that is named badly | low |',
    '| 文件.ts | 改名 | high |',
    '',
    '---',
    '',
    'Done ~~maybe~~ — https://example.com/done.',
  ].join('\n')

  test('the final screen is the same for deltas of 1, 3 and 4 characters and the whole text, at any width down to 20', async () => {
    for (const cols of [80, 40, 24, 20]) {
      const whole = await stream(DOC, { cols })
      const expected = replyLines(whole.h)
      expect(overflowing(whole.h, cols), `${cols} columns`).toEqual([])
      for (const size of [1, 3, 4]) {
        const { h } = await stream(DOC, { cols, size })
        expect(replyLines(h), `${cols} columns, deltas of ${size}`).toEqual(expected)
      }
    }
  })

  test('the whole document at 80 columns', async () => {
    const { h } = await stream(DOC)
    expect(replyLines(h)).toEqual([
      '● Plan',
      '',
      '  We will change three files, see the guide and src/main.ts.',
      '',
      '  1. Read the config — it is long enough to wrap at narrow widths, surely',
      '     • check cols and 行 widths',
      '  2. Write code:',
      '     ── ts ──',
      '     export function f(a: number): string {',
      '       return `${a}` // template',
      '     }',
      '',
      '  │ Note: a quote with bold text that wraps around.',
      '',
      '  ┌─────────┬───────────────────────────────────────┬──────┐',
      '  │ File    │                Change                 │ Risk │',
      '  ├─────────┼───────────────────────────────────────┼──────┤',
      '  │ a.ts    │ rename everything that is named badly │  low │',
      '  │ 文件.ts │                 改名                  │ high │',
      '  └─────────┴───────────────────────────────────────┴──────┘',
      '',
      '  ────────────────────────',
      '',
      '  Done maybe — https://example.com/done.',
    ])
  })

  test('the unfinished line is styled in the live region before its newline arrives', async () => {
    const { h, id } = await stream('Some **bold** and `co', { finish: false })
    expect(replyLines(h)).toEqual(['● Some bold and `co'])
    expect(styleOf(h, 'bold')).toEqual({ ...PLAIN, bold: true })
    await h.model(id, { type: 'text_delta', delta: 'de` done' })
    expect(replyLines(h)).toEqual(['● Some bold and code done'])
    expect(styleOf(h, 'code')).toEqual({ ...PLAIN, fg: 6 })
  })

  test('links are hyperlinks only once their line is complete: a URL still arriving is styled, not linked', async () => {
    for (const size of SIZES) {
      const { h, writes, id } = await stream('See https://example.com/a/long/path and [x](https://example.com/x) ok', { size, finish: false })
      expect(replyLines(h)).toEqual(['● See https://example.com/a/long/path and x ok'])
      expect(styleOf(h, 'https')).toEqual({ ...PLAIN, underline: true, fg: 12 })
      expect(linkTargets(writes)).toEqual([])
      await h.model(id, { type: 'finish', reason: 'stop' })
      expect(linkTargets(writes)).toEqual(['https://example.com/a/long/path', 'https://example.com/x'])
    }
  })

  test('the live region shows at most the last rows of a very long unfinished line', async () => {
    const { h, id } = await stream('word '.repeat(2000), { finish: false, size: 500 })
    const lines = replyLines(h)
    expect(lines.length).toBeLessThanOrEqual(6)
    await h.model(id, { type: 'finish', reason: 'stop' })
    // 15 words of 5 cells fit in the 78 after the margin
    expect(replyLines(h).length).toBe(Math.ceil(2000 / 15))
  })

  test('each delta writes a bounded amount, however long the line or table being streamed', async () => {
    for (const text of ['word '.repeat(20_000), '| a | b |\n|---|---|\n' + '| cell | another cell |\n'.repeat(4_000)]) {
      const h = await createHarness({ cols: 80 })
      await h.type('hi\r')
      let largest = 0
      for (let at = 0; at < text.length; at += 4) {
        for (const e of h.engine.modelEvent(1, { type: 'text_delta', delta: text.slice(at, at + 4) }, 0)) {
          // a committed table segment (200 rows) is one big write; everything else is the live region
          if (e.kind === 'write' && !decoder.decode(e.bytes).includes('┌')) largest = Math.max(largest, e.bytes.length)
        }
      }
      expect(largest).toBeLessThan(4096)
    }
  })

  test('random documents at random widths: the same screen for any delta size, nothing overflows', async () => {
    for (let seed = 1; seed <= 6; seed++) {
      const text = randomDocument(seed)
      const cols = [20, 24, 33, 47, 80, 131][seed - 1]!
      const whole = await stream(text, { cols })
      expect(overflowing(whole.h, cols), `seed ${seed}`).toEqual([])
      const { h } = await stream(text, { cols, size: 2 + seed })
      expect(replyLines(h), `seed ${seed}, ${cols} columns`).toEqual(replyLines(whole.h))
    }
  })

  test('streaming is linear in the reply: 4× the text writes about 4× the bytes, not 16×', async () => {
    // Bytes written stand for the work: a renderer that redrew the whole line, block or table on
    // every delta would write (and the terminal parse) ~16× as much for 4× the text. The engine's
    // CPU time for the same growth is the bench's to judge (wasm/bench/render-linear.mjs).
    const shapes = [
      (n: number) => 'word '.repeat(n / 5), // one long line
      (n: number) => 'Some **bold** text and `code` in a paragraph line.\n'.repeat(n / 52),
      (n: number) => '```js\n' + 'const x = "string" // comment\n'.repeat(n / 30) + '```\n',
      (n: number) => '| a | b |\n|---|---|\n' + '| cell | another cell |\n'.repeat(n / 24),
    ]
    for (const shape of shapes) {
      const bytesFor = async (n: number) => {
        const h = await createHarness({ cols: 80 })
        await h.type('hi\r')
        const text = shape(n)
        let written = 0
        const count = (effects: ReturnType<typeof h.engine.modelEvent>) => {
          for (const e of effects) if (e.kind === 'write') written += e.bytes.length
        }
        for (let at = 0; at < text.length; at += 4) count(h.engine.modelEvent(1, { type: 'text_delta', delta: text.slice(at, at + 4) }, 0))
        count(h.engine.modelEvent(1, { type: 'finish', reason: 'stop' }, 0))
        return written
      }
      const small = await bytesFor(4_000)
      const large = await bytesFor(16_000)
      expect(large / small, shape(40).slice(0, 20)).toBeLessThan(8)
    }
  }, 60_000)
})
