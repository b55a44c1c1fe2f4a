/**
 * Slash commands a person types: the inline menu that completes them, the commands that show
 * state, copy and export, and the full-transcript view on Ctrl+O.
 */
import { describe, expect, test } from 'vitest'
import { createHarness, type Harness } from './harness.ts'

const TAB = '\t'
const ESC = '\x1b'
const DOWN = '\x1b[B'
const CTRL_O = '\x0f'
const isDivider = (line: string) => /^─+$/.test(line)

function belowComposer(h: Harness): string[] {
  const lines = h.viewport()
  const d = lines.flatMap((line, i) => (isDivider(line) ? [i] : []))
  return lines.slice(d.at(-1)! + 1).filter((l) => l !== '')
}
function composer(h: Harness): string[] {
  const lines = h.viewport()
  const d = lines.flatMap((line, i) => (isDivider(line) ? [i] : []))
  return lines.slice(d.at(-2)! + 1, d.at(-1)!)
}
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

describe('the command menu', () => {
  test('typing / lists commands, typing more filters them, Tab completes the selected one', async () => {
    const h = await createHarness()
    await h.type('/')
    expect(belowComposer(h)[0]).toBe('❯ /help               show commands and keys')
    await h.type('mo')
    expect(belowComposer(h)).toEqual([
      '❯ /model [id]         show or change the model',
      '  /models             list the models you can use',
      '  /mode [ask|auto]    ask before each command, or run them',
    ])
    await h.type(DOWN)
    await h.type(TAB)
    expect(composer(h)).toEqual(['❯ /models ']) // completed with a space, ready for arguments
  })

  test('Esc closes the menu and the status line comes back', async () => {
    const h = await createHarness()
    await h.type('/ex')
    expect(belowComposer(h)).toEqual(['❯ /exit               end the session', '  /export [format]    download the transcript (md, json) or a demo tape (tape)'])
    await h.type(ESC)
    expect(belowComposer(h)).toEqual(['  auto · demo · /workspace · /help'])
  })

  test('Enter runs the selected command even when only its start was typed', async () => {
    const h = await createHarness()
    await h.type('/vers\r')
    expect(h.screen()).toContain('  fxterm 0.1.0 · engine ABI 1')
  })
})

describe('commands', () => {
  test('/status shows model, provider, mode, workspace, turns and tokens', async () => {
    const h = await createHarness()
    await h.type('hello\r')
    await h.model(1, { type: 'usage', inputTokens: 1500, outputTokens: 20 })
    await h.model(1, { type: 'finish', reason: 'stop' })
    await h.type('/status\r')
    const lines = h.screen().split('\n')
    const at = lines.indexOf('Status')
    expect(lines.slice(at, at + 9)).toEqual([
      'Status',
      '  model      demo',
      '  provider   demo (offline, recorded replies)',
      '  context    1.5k of 32k tokens (5%)',
      '  sign-in    not signed in',
      '  mode       auto',
      '  workspace  /workspace',
      '  turns      1',
      '  tokens     ↑1.5k ↓20',
    ])
  })

  test('/copy puts the last reply on the clipboard', async () => {
    const h = await createHarness()
    await h.type('hello\r')
    await h.model(1, { type: 'text_delta', delta: 'Hi **there**.' })
    await h.model(1, { type: 'finish', reason: 'stop' })
    const effects = h.engine.keys(new TextEncoder().encode('/copy\r'), 0)
    const clipboard = effects.filter((e) => e.kind === 'clipboard')
    expect(clipboard).toEqual([{ kind: 'clipboard', text: 'Hi **there**.' }])
  })

  test('/export md asks the host to save the transcript as Markdown; /export json as JSON', async () => {
    const h = await createHarness()
    await h.type('hello\r')
    await h.model(1, { type: 'text_delta', delta: 'Hi.' })
    await h.model(1, { type: 'finish', reason: 'stop' })
    const md = h.engine.keys(new TextEncoder().encode('/export md\r'), 0).find((e) => e.kind === 'action')
    expect(md).toEqual({
      kind: 'action',
      action: {
        action: 'export',
        fileName: 'fxterm-transcript.md',
        mimeType: 'text/markdown',
        content: '# fxterm transcript\n\nModel: demo (demo)\n\n## You\n\nhello\n\n## fxterm\n\nHi.\n',
      },
    })
    const json = h.engine.keys(new TextEncoder().encode('/export json\r'), 0).find((e) => e.kind === 'action')
    expect(json?.kind === 'action' && json.action.action === 'export' && JSON.parse(json.action.content)).toEqual({
      model: 'demo',
      messages: [{ role: 'user', content: 'hello' }, { role: 'assistant', content: 'Hi.' }],
    })
  })

  test('sign-in on a page that offers none says so instead of pretending', async () => {
    const h = await createHarness()
    await h.type('/login\r')
    expect(h.screen()).toContain('Sign-in is not available on this page.')
  })

  test('an unknown command says so and points to /help', async () => {
    const h = await createHarness()
    await h.type('/frobnicate\r')
    expect(h.screen()).toContain('✗ Unknown command /frobnicate. Try /help.')
  })
})

describe('the transcript view (Ctrl+O)', () => {
  test('shows every line of a command output in the alternate screen and returns on q', async () => {
    const h = await createHarness({ cols: 80, rows: 12 })
    await h.type('count\r')
    await h.model(1, { type: 'tool_call_start', index: 0, id: 'c', name: 'run_command' })
    await h.model(1, { type: 'tool_call_delta', index: 0, delta: '{"command":"seq 1 20"}' })
    await h.model(1, { type: 'finish', reason: 'tool_calls' })
    const out = Array.from({ length: 20 }, (_, i) => String(i + 1)).join('\n') + '\n'
    await h.exec(2, { stdout: out, stderr: '', exitCode: 0 })
    expect(h.screen()).toContain('     … 15 more lines')

    const writes: string[] = []
    for (const e of h.engine.keys(new TextEncoder().encode(CTRL_O), 0)) if (e.kind === 'write') writes.push(decode(e.bytes))
    expect(writes.join('')).toContain('\x1b[?1049h')
    for (const w of writes) await new Promise<void>((r) => h.term.write(w, r))
    expect(h.term.buffer.active.type).toBe('alternate')
    const view = h.viewport()
    expect(view.at(-1)).toMatch(/^ Transcript \d+\/\d+ · ↑↓ PgUp PgDn Home End · q or Ctrl\+O to return$/)
    expect(view.slice(0, -1)).toContain('     20')

    await h.type('q')
    expect(h.term.buffer.active.type).toBe('normal')
    expect(composer(h)).toEqual(['❯ '])
  })
})
