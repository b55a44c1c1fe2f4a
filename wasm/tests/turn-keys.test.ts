/**
 * Keys during and around a turn: steering (Enter while the model works), taking a queued prompt
 * back with ↑, Esc/Ctrl+C, the double Ctrl+C that exits, the double Esc that clears a draft, and
 * what the activity row says while waiting.
 */
import { describe, expect, test } from 'vitest'
import { createHarness, type Harness } from './harness.ts'

const ESC = '\x1b'
const CTRL_C = '\x03'
const UP = '\x1b[A'
const HINT_TIMER = 0xffff0002
const SPINNER_TIMER = 0xffff0001

const isDivider = (line: string) => /^─+$/.test(line)

function footer(h: Harness) {
  const lines = h.viewport()
  const d = lines.flatMap((line, i) => (isDivider(line) ? [i] : []))
  const top = d.at(-2)!
  return { above: lines.slice(0, top).filter((l) => l !== ''), composer: lines.slice(top + 1, d.at(-1)!), status: lines[d.at(-1)! + 1] ?? '' }
}

function userMessages(h: Harness, i = -1): string[] {
  const request = h.allOf('model_request').at(i)!.request
  return request.messages.filter((m) => m.role === 'user').map((m) => (m as { content: string }).content)
}

describe('steering', () => {
  test('Enter during a command queues the text and delivers it with the next model request, after the tool result', async () => {
    const h = await createHarness()
    await h.type('list files\r')
    await h.model(1, { type: 'tool_call_start', index: 0, id: 'c1', name: 'run_command' })
    await h.model(1, { type: 'tool_call_delta', index: 0, delta: '{"command":"ls"}' })
    await h.model(1, { type: 'finish', reason: 'tool_calls' })
    await h.type('only the src folder please\r')
    expect(footer(h).above.slice(-4)).toEqual(['● Running ls', '❯ only the src folder please', '  1 queued · ↑ to edit', '⠋ Running… (0s · esc to interrupt)'])
    expect(h.allOf('model_request')).toHaveLength(1)

    await h.exec(2, { stdout: 'README.md\nsrc\n', stderr: '', exitCode: 0 })
    const messages = h.lastOf('model_request')!.request.messages.map((m) => m.role)
    expect(messages).toEqual(['system', 'user', 'assistant', 'tool', 'user'])
    expect(userMessages(h)).toEqual(['list files', 'only the src folder please'])
    expect(h.screen()).toContain('❯ only the src folder please')
    expect(h.screen()).not.toContain('queued')
  })

  test('several steers keep their order', async () => {
    const h = await createHarness()
    await h.type('go\r')
    await h.type('first\r')
    await h.type('second\r')
    expect(footer(h).above.slice(-4)).toEqual(['❯ first', '❯ second', '  2 queued · ↑ to edit', '⠋ Thinking… (0s · esc to interrupt)'])
    await h.model(1, { type: 'finish', reason: 'stop' })
    expect(userMessages(h)).toEqual(['go', 'first', 'second'])
  })

  test('↑ on an empty draft takes the last queued prompt back to edit', async () => {
    const h = await createHarness()
    await h.type('go\r')
    await h.type('typo here\r')
    await h.type(UP)
    expect(footer(h).composer).toEqual(['❯ typo here'])
    expect(footer(h).above.join('\n')).not.toContain('queued')
  })

  test('Esc stops the turn and puts queued prompts back into the draft instead of sending them', async () => {
    const h = await createHarness()
    await h.type('go\r')
    await h.type('later\r')
    await h.type(ESC)
    expect(h.lastOf('event')!.event).toEqual({ type: 'turn_end', stopReason: 'cancelled' })
    expect(h.allOf('model_request')).toHaveLength(1)
    expect(footer(h).composer).toEqual(['❯ later'])
  })
})

describe('Ctrl+C and Esc', () => {
  test('Ctrl+C clears the draft, and no number of Ctrl+C ends the session', async () => {
    const h = await createHarness()
    await h.type('some draft')
    await h.type(CTRL_C)
    expect(footer(h).composer).toEqual(['❯ '])
    expect(footer(h).status).toBe('  /exit ends the session')
    h.tick(2_000)
    await h.type(CTRL_C)
    await h.type(CTRL_C)
    expect(h.lastOf('exit')).toBeUndefined()
    expect(footer(h).status).toBe('  /exit ends the session')
  })

  test('the exit hint goes away after 3 s', async () => {
    const h = await createHarness()
    await h.type(CTRL_C)
    h.tick(3_000)
    await h.timer(HINT_TIMER)
    expect(footer(h).status).toBe('  auto · demo · /workspace · /help')
    expect(h.lastOf('exit')).toBeUndefined()
  })

  test('Esc twice within 500 ms clears an idle draft; slower presses do not', async () => {
    const h = await createHarness()
    await h.type('keep me')
    await h.type(ESC)
    h.tick(600)
    await h.type(ESC)
    expect(footer(h).composer).toEqual(['❯ keep me'])
    h.tick(200)
    await h.type(ESC)
    expect(footer(h).composer).toEqual(['❯ '])
  })
})

describe('the activity row', () => {
  test('shows elapsed time as 5s, then 18m0s, then 1h1m3s, and token counts once known', async () => {
    const h = await createHarness()
    await h.type('go\r')
    const row = () => footer(h).above.at(-1)
    h.tick(5_000)
    await h.timer(SPINNER_TIMER)
    expect(row()).toMatch(/^. Thinking… \(5s · esc to interrupt\)$/)
    await h.model(1, { type: 'usage', inputTokens: 1234, outputTokens: 456 })
    h.tick(18 * 60_000 - 5_000)
    await h.timer(SPINNER_TIMER)
    expect(row()).toMatch(/^. Thinking… \(18m0s · ↑1\.2k ↓456 · esc to interrupt\)$/)
    h.tick(3_663_000 - 18 * 60_000)
    await h.timer(SPINNER_TIMER)
    expect(row()).toMatch(/^. Thinking… \(1h1m3s · ↑1\.2k ↓456 · esc to interrupt\)$/)
  })
})
