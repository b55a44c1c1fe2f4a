/**
 * A corpus of hostile escape sequences, each fed as model text and as command output. None may
 * reach xterm as a sequence: the bytes written hold only the engine's own styling and cursor
 * moves, and xterm's parsed state shows no effect (no title, no alternate screen, no moved
 * cursor, the banner and footer intact).
 */
import { describe, expect, test } from 'vitest'
import { createHarness, type Harness } from './harness.ts'

const E = '\x1b'
const CORPUS: Array<[string, string]> = [
  ['CSI clear screen', `${E}[2J`],
  ['CSI clear scrollback', `${E}[3J`],
  ['CSI cursor home', `${E}[H`],
  ['CSI cursor position', `${E}[10;10H`],
  ['CSI cursor up', `${E}[5A`],
  ['CSI erase line', `${E}[2K`],
  ['CSI scroll region', `${E}[1;3r`],
  ['CSI insert lines', `${E}[10L`],
  ['CSI delete lines', `${E}[10M`],
  ['CSI device status report', `${E}[6n`],
  ['CSI SGR hidden text', `${E}[8mhidden`],
  ['CSI SGR 256 colour', `${E}[38;5;196m`],
  ['DECSET alternate screen', `${E}[?1049h`],
  ['DECSET mouse tracking', `${E}[?1000h`],
  ['DECRST cursor visible', `${E}[?25l`],
  ['DECSET bracketed paste off', `${E}[?2004l`],
  ['OSC 0 title (BEL)', `${E}]0;pwned${'\x07'}`],
  ['OSC 2 title (ST)', `${E}]2;pwned${E}\\`],
  ['OSC 4 palette', `${E}]4;1;rgb:ff/00/00${'\x07'}`],
  ['OSC 8 javascript link', `${E}]8;;javascript:alert(1)${'\x07'}click${E}]8;;${'\x07'}`],
  ['OSC 8 http link', `${E}]8;;https://evil.example${E}\\click${E}]8;;${E}\\`],
  ['OSC 10 foreground', `${E}]10;#ff0000${'\x07'}`],
  ['OSC 52 clipboard write', `${E}]52;c;ZXZpbA==${'\x07'}`],
  ['OSC 52 clipboard query', `${E}]52;c;?${'\x07'}`],
  ['OSC 1337 file', `${E}]1337;File=name=eA==:AAAA${'\x07'}`],
  ['DCS sixel', `${E}Pq#0;2;0;0;0#0~~@@vv${E}\\`],
  ['DCS DECRQSS', `${E}P$qm${E}\\`],
  ['DCS tmux passthrough', `${E}Ptmux;${E}${E}]0;x${'\x07'}${E}\\`],
  ['APC', `${E}_Gf=100;AAAA${E}\\`],
  ['PM', `${E}^private${E}\\`],
  ['SOS', `${E}Xstring${E}\\`],
  ['C1 CSI', '\u009b2J'],
  ['C1 OSC', '\u009d0;pwned\u009c'],
  ['C1 DCS', '\u0090q\u009c'],
  ['C1 NEL and RI', '\u0085\u008d'],
  ['ESC c full reset', `${E}c`],
  ['ESC 7 / ESC 8 save and restore cursor', `${E}7${E}8`],
  ['ESC M reverse index', `${E}M${E}M${E}M`],
  ['ESC # 8 screen alignment', `${E}#8`],
  ['ESC ( 0 line-drawing charset', `${E}(0lqqk`],
  ['SO shift out charset', '\x0elqqk\x0f'],
  ['ESC = keypad mode', `${E}=`],
  ['bare ESC before a newline', `text${E}\n`],
  ['BEL, BS, VT, FF, CR, DEL, NUL', 'a\x07b\x08c\x0bd\x0ce\rf\x7fg\x00h'],
]

const ALLOWED_CSI = /^\x1b\[(\??[0-9;]*)([mAGJK]|h|l)$/
const ANY_CSI = /\x1b\[[0-9;?]*[ -/]*[@-~]/g

function record(h: Harness) {
  const writes: string[] = []
  const original = h.term.write.bind(h.term)
  h.term.write = ((data: string | Uint8Array, cb?: () => void) => {
    writes.push(typeof data === 'string' ? data : new TextDecoder().decode(data))
    original(data, cb)
  }) as typeof h.term.write
  return writes
}

function expectHarmless(h: Harness, writes: string[], titles: string[]) {
  const all = writes.join('')
  for (const forbidden of ['\x1b]', '\x1bP', '\x1b_', '\x1b^', '\x1bX', '\x1bc', '\x1b7', '\x1b8', '\x1bM', '\x1b#', '\x1b(', '\x1b=', '\x07', '\x0e', '\x0f']) {
    expect(all.includes(forbidden), `written bytes contain ${JSON.stringify(forbidden)}`).toBe(false)
  }
  expect(all.match(/[\u0080-\u009f]/g)).toBeNull()
  const csis = all.match(ANY_CSI) ?? []
  expect(csis.filter((csi) => !ALLOWED_CSI.test(csi))).toEqual([])
  expect(csis.filter((csi) => /[hl]$/.test(csi) && !/^\x1b\[\?(2004|2026|25)[hl]$/.test(csi))).toEqual([])
  expect(all.replace(ANY_CSI, '').includes('\x1b')).toBe(false)
  // What xterm made of it: no title, still the normal screen, the banner and footer intact.
  expect(titles).toEqual([])
  expect(h.term.buffer.active.type).toBe('normal')
  expect(h.screen().split('\n')[0]).toBe('✻ fxterm · Run /help for commands')
  expect(h.screen().split('\n').filter((line) => /^─+$/.test(line))).toHaveLength(2)
}

describe('hostile escape sequences', () => {
  expect(CORPUS.length).toBeGreaterThanOrEqual(40)

  for (const [name, sequence] of CORPUS) {
    test(`${name}: in the model's text it is removed, the printable text stays`, async () => {
      const h = await createHarness()
      const titles: string[] = []
      h.term.onTitleChange((t) => titles.push(t))
      await h.type('go\r')
      const writes = record(h)
      await h.model(1, { type: 'text_delta', delta: `before ${sequence} after\n` })
      await h.model(1, { type: 'finish', reason: 'stop' })
      expectHarmless(h, writes, titles)
      expect(h.screen()).toMatch(/● before [^\n]*\n?.*after/)
    })

    test(`${name}: in a command's output and in the command itself it is removed`, async () => {
      const h = await createHarness()
      const titles: string[] = []
      h.term.onTitleChange((t) => titles.push(t))
      await h.type('go\r')
      const writes = record(h)
      await h.model(1, { type: 'tool_call_start', index: 0, id: 'c', name: 'run_command' })
      await h.model(1, { type: 'tool_call_delta', index: 0, delta: JSON.stringify({ command: `echo ${sequence}` }) })
      await h.model(1, { type: 'finish', reason: 'tool_calls' })
      await h.exec(2, { stdout: `out ${sequence} put\n`, stderr: `err ${sequence}\n`, exitCode: 0 })
      expectHarmless(h, writes, titles)
      expect(h.screen()).toMatch(/└ {2}out [^\n]*(\n {5}[^\n]*)?put/)
    })
  }
})

/**
 * Sequences that never end the way the standard says. A terminal would wait for their
 * terminator; text written after them must still show. Cases after xterm.js's parser tests
 * (EscapeSequenceParser.test.ts: CAN/SUB abort, C1 introducers, ESC inside strings) and the
 * inputs strip-ansi and ansi-regex test (unterminated OSC, 8-bit CSI).
 */
const UNTERMINATED: Array<[string, string]> = [
  ['OSC 0 title', `${E}]0;pwned`],
  ['OSC 8 link', `${E}]8;;https://evil.example`],
  ['OSC 52 clipboard', `${E}]52;c;ZXZpbA==`],
  ['DCS sixel', `${E}Pq#0;2;0;0;0#0~~@@`],
  ['APC', `${E}_Gf=100;AAAA`],
  ['PM', `${E}^private`],
  ['SOS', `${E}Xstring`],
  ['C1 OSC', '\u009d0;pwned'],
  ['C1 DCS', '\u0090q#0;2'],
  ['C1 APC', '\u009fGf=1;AAAA'],
  ['C1 PM', '\u009eprivate'],
  ['C1 SOS', '\u0098string'],
  ['doubled ESC before OSC', `${E}${E}]0;pwned`],
  ['doubled ESC inside OSC', `${E}]0;a${E}${E}b`],
  ['ESC inside DCS not followed by backslash', `${E}Pq${E}x`],
  ['CSI cut by a newline', `${E}[1;2`],
]

/** Sequences a control or a new escape aborts: the text right after them shows on the same line. */
const ABORTED: Array<[string, string]> = [
  ['OSC aborted by CAN', `${E}]0;pwned\x18`],
  ['DCS aborted by SUB', `${E}Pq#0\x1a`],
  ['C1 OSC aborted by CAN', '\u009d0;pwned\x18'],
  ['C1 CSI', '\u009b31m'],
  ['C1 OSC ended by C1 ST', '\u009d0;pwned\u009c'],
  // xterm.js's parser (EscapeSequenceParser.ts: ESC "anywhere" clears and enters ESCAPE; in
  // OSC_STRING it is OSC_END) ends any string at an ESC and reads the ESC as a new escape.
  ['OSC ended by an SGR', `${E}]0;pwned${E}[1m`],
  ['OSC ended by ESC and a two-byte escape', `${E}]0;pwned${E}7`],
  ['DCS ended by a CSI', `${E}Pq#0;2${E}[0m`],
  ['APC ended by a CSI', `${E}_Gf=100;AAAA${E}[m`],
  ['PM ended by an OSC that BEL ends', `${E}^private${E}]0;pwned\x07`],
  ['SOS ended by ESC ESC and a two-byte escape', `${E}Xstring${E}${E}c`],
]

describe('sequences that never end do not swallow the text after them', () => {
  for (const [name, sequence] of UNTERMINATED) {
    test(`${name}: the next line and the next paragraph still show`, async () => {
      const h = await createHarness()
      const titles: string[] = []
      h.term.onTitleChange((t) => titles.push(t))
      await h.type('go\r')
      const writes = record(h)
      await h.model(1, { type: 'text_delta', delta: `before ${sequence}\nthe line after\n\nthe next paragraph\n` })
      await h.model(1, { type: 'finish', reason: 'stop' })
      expectHarmless(h, writes, titles)
      expect(h.screen()).toContain('● before')
      expect(h.screen()).toContain('the line after')
      expect(h.screen()).toContain('the next paragraph')
    })
  }

  for (const [name, sequence] of ABORTED) {
    test(`${name}: the text right after it shows`, async () => {
      const h = await createHarness()
      const titles: string[] = []
      h.term.onTitleChange((t) => titles.push(t))
      await h.type('go\r')
      const writes = record(h)
      await h.model(1, { type: 'text_delta', delta: `before ${sequence}after\n` })
      await h.model(1, { type: 'finish', reason: 'stop' })
      expectHarmless(h, writes, titles)
      expect(h.screen()).toMatch(/● before [^\n]*after/)
    })
  }

  for (const type of ['reasoning_delta', 'refusal_delta'] as const) {
    test(`in a ${type.replace('_delta', '')} too, each one hides nothing past its line`, async () => {
      const h = await createHarness({ rows: 60 })
      const titles: string[] = []
      h.term.onTitleChange((t) => titles.push(t))
      await h.type('go\r')
      const writes = record(h)
      const delta = UNTERMINATED.map(([, sequence], i) => `bad ${sequence}\nshown-${i}\n`).join('')
      await h.model(1, { type, delta })
      await h.model(1, { type: 'finish', reason: 'stop' })
      expectHarmless(h, writes, titles)
      const screen = h.screen()
      expect(UNTERMINATED.map((_, i) => screen.includes(`shown-${i}`))).toEqual(UNTERMINATED.map(() => true))
    })
  }

  test('a string sequence split across deltas and never ended stops hiding text at its line end', async () => {
    const h = await createHarness()
    await h.type('go\r')
    await h.model(1, { type: 'text_delta', delta: `start ${E}]0;pw` })
    await h.model(1, { type: 'text_delta', delta: 'ned more title' })
    await h.model(1, { type: 'text_delta', delta: '\nvisible again\n' })
    await h.model(1, { type: 'finish', reason: 'stop' })
    expect(h.screen()).toContain('● start')
    expect(h.screen()).toContain('visible again')
    expect(h.screen()).not.toContain('pwned')
  })

  test('an unterminated string longer than the cap lets the text after the cap show', async () => {
    const h = await createHarness()
    await h.type('go\r')
    await h.model(1, { type: 'text_delta', delta: `start ${E}]0;${'x'.repeat(5000)} tail-word\n` })
    await h.model(1, { type: 'finish', reason: 'stop' })
    expect(h.screen()).toContain('tail-word')
  })
})

/**
 * Inputs taken from other projects' tests, each with the text a person must still see after the
 * sequences are removed (what those tests expect to be printed or left after stripping):
 * xterm.js `src/common/parser/EscapeSequenceParser.test.ts` (MIT, © The xterm.js authors),
 * chalk/ansi-regex `test.js` and chalk/strip-ansi `test.js` (MIT, © Sindre Sorhus).
 */
const FROM_OTHER_PROJECTS: Array<[string, string, string[]]> = [
  ['xterm.js: error recovery (a non-ASCII character inside a CSI, then a C1 CSI)', `${E}[1€abcdefg\u009b<;c`, ['abcdefg']],
  ['xterm.js: print + PM(C1) + print', 'abc\u0098123tzf\u009cdefg', ['abcdefg']],
  ['xterm.js: print + OSC(C1) + print', 'abc\u009d123;tzf\u009cdefg', ['abcdefg']],
  ['xterm.js: print + APC(C1) + print', 'abc\u009fAbc;de\u009cxyz', ['abcxyz']],
  ['xterm.js: print + APC(C0) + print', `abc${E}_Abc;de${E}\\xyz`, ['abcxyz']],
  ['xterm.js: 7-bit ST after a C1 OSC is swallowed', `abc\u009d123;tzf${E}\\defg`, ['abcdefg']],
  ['xterm.js: colon notation in CSI params', `${E}[<31;5::123:;8mHello World! öäü€\nabc`, ['Hello World! öäü€', 'abc']],
  ['xterm.js: CAN aborts OSC', `${E}]0;abc123€öäü\x18after`, ['after']],
  ['xterm.js: SUB aborts OSC', `${E}]0;abc123€öäü\x1aafter`, ['after']],
  ['xterm.js: CAN aborts DCS(C1)', 'abc\u00901;2::55;3+$abc;de\x18after', ['abcafter']],
  ['xterm.js: SUB aborts APC(C1)', 'abc\u009fXbc;de\x1aafter', ['abcafter']],
  ['xterm.js: an unterminated DCS(C1) with non-ASCII data', 'abc\u00901;2;3+$a€öäü\nnext line', ['abc', 'next line']],
  ['ansi-regex: terminal link with plus in URL (BEL)', `${E}]8;;https://www.example.com/?q=hello+world\u0007hello${E}]8;;\u0007`, ['hello']],
  ['ansi-regex: terminal link with plus in URL (ESC \\)', `${E}]8;;https://www.example.com/?q=hello+world${E}\\hello${E}]8;;${E}\\`, ['hello']],
  ['ansi-regex: terminal link with plus in URL (C1 ST)', `${E}]8;;https://www.example.com/?q=hello+world\u009chello${E}]8;;\u009c`, ['hello']],
  ['ansi-regex: change icon name and window title', `${E}]0;sg@tota:~/git/\u0007${E}[01;32m[sg@tota${E}[01;37m misc-tests${E}[01;32m]$`, ['[sg@tota misc-tests]$']],
  ['ansi-regex: colon-separated sequences do not overconsume', `${E}[4:5mX ${E}[38:5:123mX ${E}[58:2::255:0:0mX ${E}[48:2::200:201:202mX`, ['X X X X']],
  ['strip-ansi: colour from a string', `${E}[0m${E}[4m${E}[42m${E}[31mfoo${E}[39m${E}[49m${E}[24mfoo${E}[0m`, ['foofoo']],
  ['strip-ansi: colour from ls', `${E}[00;38;5;244m${E}[m${E}[00;38;5;33mfoo${E}[0m`, ['foo']],
  ['strip-ansi: link from a terminal link', `${E}]8;;https://github.com\u0007click${E}]8;;\u0007`, ['click']],
  ['strip-ansi: OSC title with a BEL, after a screen clear', `${E}[2J${E}[m${E}[HABC\r\n${E}]0;C:\\WINDOWS\\system32\\cmd.exe\u0007${E}[?25hDEF`, ['ABC', 'DEF']],
  ['strip-ansi: reset;setfg;setbg;italics;strike;underline', `${E}[0;33;49;3;9;4mbar${E}[0m`, ['bar']],
  ['a doubled ESC before text loses only the escape and its one final character', `${E}${E}7visible`, ['visible']],
  ['a bare ESC before a non-ASCII character keeps the character', `${E}é and more`, ['é and more']],
]

describe("other projects' test inputs: the text after each sequence shows", () => {
  for (const [name, input, visible] of FROM_OTHER_PROJECTS) {
    test(name, async () => {
      const h = await createHarness()
      const titles: string[] = []
      h.term.onTitleChange((t) => titles.push(t))
      await h.type('go\r')
      const writes = record(h)
      await h.model(1, { type: 'text_delta', delta: `${input}\n\nthe next paragraph\n` })
      await h.model(1, { type: 'finish', reason: 'stop' })
      expectHarmless(h, writes, titles)
      for (const text of visible) expect(h.screen()).toContain(text)
      expect(h.screen()).toContain('the next paragraph')
      // Nothing the sanitizer wrote is broken UTF-8 (a lone lead or continuation byte).
      expect(writes.join('')).not.toContain('\ufffd')
    })
  }
})

/**
 * Random mixes of the pieces escape sequences are made of (introducers in 7 and 8 bits, their
 * parameters and finals, aborts, terminators, non-ASCII text), from a fixed seed so every run
 * feeds the same 150 replies. Whatever the mix, the line after it shows, nothing reaches xterm
 * as a sequence, and no character is left broken.
 */
describe('random mixes of sequence pieces', () => {
  const PIECES = [E, `${E}[`, `${E}]`, `${E}P`, `${E}_`, `${E}^`, `${E}X`, `${E}(`, `${E}#`, '\u009b', '\u009d', '\u0090', '\u009f', '\u009c', '\x07', '\x18', '\x1a', `${E}\\`, '0', ';', '?', '1', 'm', 'H', 'q', ' ', 'é', '€', '😀', 'text', '\t', '\r']
  let seed = 24
  const random = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    return seed % n
  }
  for (let round = 0; round < 150; round++) {
    const mix = Array.from({ length: 1 + random(12) }, () => PIECES[random(PIECES.length)]!).join('')
    test(`mix ${round}: ${JSON.stringify(mix)}`, async () => {
      const h = await createHarness()
      const titles: string[] = []
      h.term.onTitleChange((t) => titles.push(t))
      await h.type('go\r')
      const writes = record(h)
      // Cut into two deltas at a random point: state must carry across a stream's pieces.
      // (At a character, never inside an emoji's surrogate pair: a provider's deltas are strings.)
      const reply = [...`start ${mix}\nline-after-${round}\n`]
      const cut = random(reply.length)
      await h.model(1, { type: 'text_delta', delta: reply.slice(0, cut).join('') })
      await h.model(1, { type: 'text_delta', delta: reply.slice(cut).join('') })
      await h.model(1, { type: 'finish', reason: 'stop' })
      expectHarmless(h, writes, titles)
      expect(h.screen()).toContain(`line-after-${round}`)
      expect(writes.join('')).not.toContain('\ufffd')
    })
  }
})
