/**
 * A `!command`'s output went to the person's terminal, so its colours show there (git diff's red
 * and green), through a whitelist: plain colours, bold and reset, nothing else. The model reads
 * the same output without a single escape, and the model's own commands stay plain on screen.
 */
import { describe, expect, test } from 'vitest'
import { createHarness, type Harness } from './harness.ts'
import { modelEvents, toolCall } from './turn-helpers.ts'
import type { EngineEffect } from '../../src/shared/messages/engine-frames.ts'

/** What git writes for a one-line change with colour on (git-diff.test.ts checks it against git). */
const GIT_DIFF =
  '\x1b[1mdiff --git a/a.txt b/a.txt\x1b[m\n' +
  '\x1b[36m@@ -1,2 +1,2 @@\x1b[m\n' +
  '\x1b[31m-old line\x1b[m\n' +
  '\x1b[32m+\x1b[m\x1b[32mnew line\x1b[m\n' +
  ' same line\x1b[m\n'

type Look = { text: string; fg: number | 'default'; bold: boolean; invisible: boolean; blink: boolean }

/** The first screen row holding `text`, and how its first character looks. */
function look(h: Harness, text: string): Look {
  const buf = h.term.buffer.active
  for (let y = buf.length - 1; y >= 0; y--) {
    const line = buf.getLine(y)!
    const x = line.translateToString(true).indexOf(text)
    if (x < 0) continue
    const cell = line.getCell(x)!
    return { text, fg: cell.isFgDefault() ? 'default' : cell.getFgColor(), bold: cell.isBold() !== 0, invisible: cell.isInvisible() !== 0, blink: cell.isBlink() !== 0 }
  }
  throw new Error(`no row holds ${JSON.stringify(text)}:\n${h.screen()}`)
}

const plain = (text: string): Look => ({ text, fg: 'default', bold: false, invisible: false, blink: false })
const coloured = (text: string, fg: number, bold = false): Look => ({ text, fg, bold, invisible: false, blink: false })

async function personRuns(h: Harness, command: string, stdout: string): Promise<void> {
  await h.type(`!${command}\r`)
  const exec = h.lastOf('exec')!
  expect(exec.request).toMatchObject({ command, tty: true })
  await h.exec(exec.id, { stdout, stderr: '', exitCode: 0 })
}

const decoder = new TextDecoder()
const written = (effects: EngineEffect[]) => effects.flatMap((e) => (e.kind === 'write' ? [decoder.decode(e.bytes)] : [])).join('')

describe("a !command's colours", () => {
  test('git diff shows red removed, green added, cyan hunk and bold meta lines, and nothing after it is coloured', async () => {
    const h = await createHarness({ sessions: true })
    await personRuns(h, 'git diff', GIT_DIFF)
    expect([look(h, 'diff --git'), look(h, '@@ -1,2'), look(h, '-old line'), look(h, '+new line'), look(h, 'same line')]).toEqual([
      { ...plain('diff --git'), bold: true },
      coloured('@@ -1,2', 6),
      coloured('-old line', 1),
      coloured('+new line', 2),
      plain('same line'),
    ])
    await h.type('!echo next\r')
    await h.exec(h.lastOf('exec')!.id, { stdout: 'after\n', stderr: '', exitCode: 0 })
    expect([look(h, 'Ran echo next'), look(h, 'after')]).toEqual([{ ...plain('Ran echo next'), bold: true }, plain('after')])
  })

  test('the model reads the output without a single escape byte', async () => {
    const h = await createHarness({ sessions: true })
    await personRuns(h, 'git diff', GIT_DIFF)
    await h.type('what changed?\r')
    const note = h.lastOf('model_request')!.request.messages[1]!.content as string
    expect(note).toBe(
      '[fxterm: the person ran this command in the workspace shell themselves]\n$ git diff\n' +
        'diff --git a/a.txt b/a.txt\n@@ -1,2 +1,2 @@\n-old line\n+new line\n same line\n\n[cwd: /workspace]',
    )
  })

  test('hostile sequences are still stripped: only whitelisted colours reach the terminal', async () => {
    const h = await createHarness()
    await h.type('!cat evil\r')
    const hostile =
      'a\x1b[8mconcealed\x1b[0m\n' + // 8: conceal
      'b\x1b[5;31mblinking\x1b[0m\n' + // 5: blink (with red: the whole sequence goes)
      'c\x1b[31;41mred on red\x1b[0m\n' + // a background
      'd\x1b[38;5;196mindexed\x1b[0m\n' + // 256 colours
      'e\x1b[30mblack\x1b[0m' + // black (invisible on the page), then no SGR at all:
      'f\x1b]52;c;ZXZpbA==\x07clip\x1b[2J\x1b[Hmoved\x1b[?25l\x1b[31:1mcolon\x1b[?31mprivate\x1b[1 mspace\n'
    const effects = await h.exec(h.lastOf('exec')!.id, { stdout: hostile, stderr: '', exitCode: 0 })
    const out = written(effects)
    for (const sequence of ['\x1b[8m', '\x1b[5;', ';41', '38;5', '\x1b[30m', '\x1b]52', '\x1b[2J', '\x1b[H', '[31:1', '[?31', '[1 m']) expect(out).not.toContain(sequence)
    expect([look(h, 'concealed'), look(h, 'blinking'), look(h, 'red on red'), look(h, 'indexed'), look(h, 'black')]).toEqual([
      plain('concealed'),
      plain('blinking'),
      plain('red on red'),
      plain('indexed'),
      plain('black'),
    ])
    expect(look(h, 'clipmovedcolonprivatespace')).toEqual(plain('clipmovedcolonprivatespace'))
  })

  test("a colour left open ends with its line, and a cut row ends reset", async () => {
    const h = await createHarness({ cols: 30 })
    await personRuns(h, 'paint', '\x1b[1;32mgreen and far too long to fit in one row of thirty\nnext line\n')
    expect(look(h, 'green and')).toEqual(coloured('green and', 2, true))
    expect(look(h, 'next line')).toEqual(plain('next line'))
  })

  test("the model's own commands stay plain on screen", async () => {
    const h = await createHarness()
    await h.type('show the diff\r')
    await modelEvents(h, 1, [...toolCall(0, 'c1', 'run_command', '{"command":"git diff"}'), { type: 'finish', reason: 'tool_calls' }])
    const exec = h.lastOf('exec')!
    expect(exec.request.tty).toBeUndefined()
    await h.exec(exec.id, { stdout: GIT_DIFF, stderr: '', exitCode: 0 })
    expect(look(h, '-old line')).toEqual(plain('-old line'))
  })

  test('a resize and a resume draw the colours again', async () => {
    const a = await createHarness({ sessions: true })
    await personRuns(a, 'git diff', GIT_DIFF)
    await a.resize(60, 24)
    expect([look(a, '-old line'), look(a, '+new line')]).toEqual([coloured('-old line', 1), coloured('+new line', 2)])
    await a.type('hello\r')
    await modelEvents(a, a.lastOf('model_request')!.id, [{ type: 'text_delta', delta: 'Hi.' }, { type: 'finish', reason: 'stop' }])
    const b = await createHarness({ sessions: true })
    await b.session(a.allOf('session_commit').at(-1)!.bytes)
    expect([look(b, '-old line'), look(b, '+new line'), look(b, 'same line')]).toEqual([coloured('-old line', 1), coloured('+new line', 2), plain('same line')])
  })
})
