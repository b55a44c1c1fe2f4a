/**
 * Untrusted text — the model's reply, tool names and arguments, error messages, command output —
 * must never drive the terminal: no clipboard writes (OSC 52), no links (OSC 8), no screen
 * clears, no device control strings, no C1 controls, no bells. These tests check the bytes the
 * engine writes, not just what xterm happens to render: the only escape sequences allowed are
 * the engine's own SGR styling, cursor moves (CSI n A, CSI n G), erase (CSI J / CSI K) and the
 * DEC private modes 2004 (bracketed paste) and 2026 (synchronized output).
 */
import { describe, expect, test } from 'vitest'
import { ErrorCode } from '../../src/shared/errors.ts'
import { createHarness, type Harness } from './harness.ts'
import type { EngineEffect } from '../../src/shared/messages/engine-frames.ts'
import type { ModelEvent } from '../../src/shared/protocol/model-events.ts'

const OSC52 = '\x1b]52;c;ZXZpbA==\x07'
const decoder = new TextDecoder()

/** Wraps a harness so that every terminal write it produces is kept, decoded as UTF-8. */
function recorded(h: Harness) {
  const writes: string[] = []
  const keep = async (effects: Promise<EngineEffect[]>) => {
    for (const e of await effects) if (e.kind === 'write') writes.push(decoder.decode(e.bytes))
  }
  return {
    writes,
    type: (text: string) => keep(h.type(text)),
    model: async (id: number, ...events: ModelEvent[]) => {
      for (const event of events) await keep(h.model(id, event))
    },
    exec: (id: number, result: { stdout: string; stderr: string; exitCode: number }) => keep(h.exec(id, result)),
  }
}

const ALLOWED_CSI = /^\x1b\[(\??[0-9;]*)([mAGJK]|h|l)$/
const ANY_CSI = /\x1b\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]/g

/** Every way untrusted text could reach the terminal as a control, checked on the raw bytes. */
function expectOnlyEngineSequences(writes: string[]) {
  const all = writes.join('')
  expect(all.length).toBeGreaterThan(0)
  for (const forbidden of ['\x1b]', '\x1bP', '\x1b_', '\x1b^', '\x1bX', '\x07', '\u009b', '\x1b[2J', '\x1b[H']) {
    expect(all.includes(forbidden), `writes contain ${JSON.stringify(forbidden)}`).toBe(false)
  }
  // No C1 control at all, and no C0 control other than CR, LF and the engine's own ESC.
  expect(all.match(/[\u0080-\u009f]/g)).toBeNull()
  expect(all.match(/[\x00-\x09\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]/g)).toBeNull()
  // Every ESC starts a CSI, every CSI is one the engine itself uses.
  const csis = all.match(ANY_CSI) ?? []
  expect(csis.filter((csi) => !ALLOWED_CSI.test(csi))).toEqual([])
  expect(csis.filter((csi) => csi.endsWith('J') && csi !== '\x1b[J')).toEqual([])
  expect(csis.filter((csi) => /[hl]$/.test(csi) && !/^\x1b\[\?(2004|2026|25)[hl]$/.test(csi))).toEqual([])
  expect(all.replace(ANY_CSI, '').includes('\x1b')).toBe(false)
}

const isDivider = (line: string) => /^─+$/.test(line)

/** Screen lines between the banner and the live footer, as in agent-turn.test.ts. */
function conversation(h: Harness): string[] {
  const lines = h.screen().split('\n')
  const dividers = lines.flatMap((line, i) => (isDivider(line) ? [i] : []))
  const body = lines.slice(0, dividers.at(-2) ?? lines.length)
  while (body.length && (body.at(-1) === '' || /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /.test(body.at(-1)!))) body.pop()
  return body.slice(body.indexOf('') + 1)
}

describe('model text', () => {
  test('escape sequences in streamed text are removed and only their printable parts remain', async () => {
    const h = await createHarness()
    const r = recorded(h)
    await r.type('hi\r')
    await r.model(
      1,
      { type: 'text_delta', delta: `Copy ${OSC52}done.\n` },
      { type: 'text_delta', delta: 'Visit \x1b]8;;https://evil.example/\x1b\\the docs\x1b]8;;\x1b\\ now.\n' },
      { type: 'text_delta', delta: '\x1b[2J\x1b[Hstill here\n' },
      { type: 'text_delta', delta: '\x1bPq#0;2;0;0;0#0~~-\x1b\\after DCS\n' },
      { type: 'text_delta', delta: '\u009b2J c1 \u0090dcs\u009c \u009d8;;x\u0007\n' },
      { type: 'text_delta', delta: 'ring\x07ring\n' },
      { type: 'text_delta', delta: 'the colour is \x1b[3' },
      { type: 'text_delta', delta: '1mred\x1b[0m\n' },
      { type: 'text_delta', delta: 'title\x1b]0;pwned\x1b' },
      { type: 'text_delta', delta: '\\ kept\n' },
      { type: 'finish', reason: 'stop' },
    )
    expectOnlyEngineSequences(r.writes)
    expect(conversation(h)).toEqual([
      '❯ hi',
      '',
      '● Copy done.',
      '  Visit the docs now.',
      '  still here',
      '  after DCS',
      '  c1',
      '  ringring',
      '  the colour is red',
      '  title kept',
    ])
  })

  test('the unfinished line of a stream is sanitized too, before its newline arrives', async () => {
    const h = await createHarness()
    const r = recorded(h)
    await r.type('hi\r')
    await r.model(1, { type: 'text_delta', delta: `partial ${OSC52}\x1b[2Jline \x1b[3` })
    expectOnlyEngineSequences(r.writes)
    expect(conversation(h)).toEqual(['❯ hi', '', '● partial line '])
    await r.model(1, { type: 'text_delta', delta: '1mred' })
    expectOnlyEngineSequences(r.writes)
    expect(conversation(h)).toEqual(['❯ hi', '', '● partial line red'])
  })

  test('an unterminated sequence at the end of one reply does not swallow the next reply', async () => {
    const h = await createHarness()
    const r = recorded(h)
    await r.type('one\r')
    await r.model(1, { type: 'text_delta', delta: 'first\x1b]52;c;' }, { type: 'finish', reason: 'stop' })
    await r.type('two\r')
    await r.model(2, { type: 'text_delta', delta: 'second reply' }, { type: 'finish', reason: 'stop' })
    expectOnlyEngineSequences(r.writes)
    expect(conversation(h)).toEqual(['❯ one', '', '● first', '', '❯ two', '', '● second reply'])
  })

  test('a model error message cannot drive the terminal', async () => {
    const h = await createHarness()
    const r = recorded(h)
    await r.type('hi\r')
    await r.model(1, { type: 'error', code: ErrorCode.FX_MODEL_SERVER_ERROR, message: `Bad${OSC52} gateway\x1b[2J\x07` })
    expectOnlyEngineSequences(r.writes)
    expect(conversation(h)).toEqual(['❯ hi', '', '✗ Bad gateway.'])
  })

  test('a hostile tool name is shown inert in the refusal', async () => {
    const h = await createHarness()
    const r = recorded(h)
    await r.type('hi\r')
    await r.model(
      1,
      { type: 'tool_call_start', index: 0, id: 'c1', name: 'x\x1b[2J\x1b]52;c;ZXZpbA==\x07y' },
      { type: 'tool_call_delta', index: 0, delta: '{}' },
      { type: 'finish', reason: 'tool_calls' },
    )
    expectOnlyEngineSequences(r.writes)
    expect(conversation(h)).toEqual(['❯ hi', '', '✗ The model asked for an unknown tool "xy"; only run_command exists.'])
  })
})

describe('commands and their output', () => {
  test('a command with escape sequences is shown inert while it runs and after, but runs as written', async () => {
    const h = await createHarness()
    const r = recorded(h)
    await r.type('hi\r')
    const command = `printf '${OSC52}'; echo \x1b[2Jdone\x9b`
    await r.model(
      1,
      { type: 'tool_call_start', index: 0, id: 'c1', name: 'run_command' },
      { type: 'tool_call_delta', index: 0, delta: JSON.stringify({ command }) },
      { type: 'finish', reason: 'tool_calls' },
    )
    expect(h.lastOf('exec')?.request.command).toBe(command)
    expect(conversation(h)).toEqual(['❯ hi', '', "● Running printf ''; echo done"])
    await r.exec(2, { stdout: 'ok\n', stderr: '', exitCode: 0 })
    expectOnlyEngineSequences(r.writes)
    expect(conversation(h)).toEqual(['❯ hi', '', "● Ran printf ''; echo done", '  └  ok'])
  })

  test('escape sequences in stdout and stderr are stripped from the preview, the printable text stays', async () => {
    const h = await createHarness()
    const r = recorded(h)
    await r.type('hi\r')
    await r.model(
      1,
      { type: 'tool_call_start', index: 0, id: 'c1', name: 'run_command' },
      { type: 'tool_call_delta', index: 0, delta: '{"command":"cat evil.txt"}' },
      { type: 'finish', reason: 'tool_calls' },
    )
    const stdout = [
      `safe${OSC52} line`,
      '\x1b[2J\x1b[Hcleared',
      '\x1b]8;;https://evil.example/\x07link\x1b]8;;\x07',
      '\u009b31mc1\x07',
    ].join('\n')
    await r.exec(2, { stdout, stderr: '\x1bP1$r\x1b\\err\x1b[31mor', exitCode: 1 })
    expectOnlyEngineSequences(r.writes)
    expect(conversation(h)).toEqual([
      '❯ hi',
      '',
      '● Ran cat evil.txt · exit 1',
      '  └  safe line',
      '     cleared',
      '     link',
      '     c1',
      '     error',
    ])
  })

  test('carriage returns and backspaces in output cannot overwrite what is shown', async () => {
    const h = await createHarness()
    const r = recorded(h)
    await r.type('hi\r')
    await r.model(
      1,
      { type: 'tool_call_start', index: 0, id: 'c1', name: 'run_command' },
      { type: 'tool_call_delta', index: 0, delta: '{"command":"progress"}' },
      { type: 'finish', reason: 'tool_calls' },
    )
    await r.exec(2, { stdout: '10%\r50%\r100%\nfix\b\b\bok\n', stderr: '', exitCode: 0 })
    expectOnlyEngineSequences(r.writes)
    expect(conversation(h)).toEqual(['❯ hi', '', '● Ran progress', '  └  10%50%100%', '     fixok'])
  })
})

describe('what the person types', () => {
  test('an escape sequence inside a bracketed paste is inserted as inert text', async () => {
    const h = await createHarness()
    const r = recorded(h)
    await r.type(`\x1b[200~a${OSC52}b\x1b[2Jc\x1b[201~`)
    expectOnlyEngineSequences(r.writes)
    const composer = h.viewport().find((line) => line.startsWith('❯ '))
    expect(composer).toBe('❯ a]52;c;ZXZpbA==b[2Jc')
  })
})

describe('the only screen clears are the ones the person asks for', () => {
  test('/clear clears the screen and scrollback; Ctrl+L clears the screen', async () => {
    const h = await createHarness()
    const r = recorded(h)
    await r.type('/clear\r')
    expect(r.writes[0]).toBe('\x1b[H\x1b[2J\x1b[3J')
    expectOnlyEngineSequences(r.writes.slice(1))
    r.writes.length = 0
    await r.type('\x0c')
    expect(r.writes[0]).toBe('\x1b[H\x1b[2J')
    expectOnlyEngineSequences(r.writes.slice(1))
  })
})
