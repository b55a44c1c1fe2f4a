/**
 * `!command`: the person runs a command in the workspace shell with no model request; it is drawn
 * as a command row, the model reads it with the next prompt, and a resume draws it again. fxterm's
 * notes to the model (this one, /undo's) are never drawn or exported as the person's words.
 */
import { describe, expect, test } from 'vitest'
import { createHarness, type Harness } from './harness.ts'
import { composerRows, conversation, modelEvents } from './turn-helpers.ts'

const ESC = '\x1b'
const text = (h: Harness) => conversation(h).join('\n')
const lastCommit = (h: Harness) => h.allOf('session_commit').at(-1)!.bytes

async function ranLs(h: Harness): Promise<void> {
  await h.type('!ls -a\r')
  const exec = h.lastOf('exec')!
  expect(exec.request.command).toBe('ls -a')
  await h.exec(exec.id, { stdout: 'README.md\nsrc\n', stderr: '', exitCode: 0 })
}

describe('!command', () => {
  test('runs in the workspace shell, is drawn as a command row, and sends nothing to the model', async () => {
    const h = await createHarness({ sessions: true })
    await ranLs(h)
    expect(h.allOf('model_request')).toEqual([])
    expect(text(h)).toContain('● Ran ls -a')
    expect(text(h)).toContain('README.md')
    // The composer is free again, and the history has what was typed.
    expect(h.allOf('history_append').map((e) => e.value)).toEqual(['!ls -a'])
    await h.type('x')
    expect(composerRows(h)).toEqual(['❯ x'])
  })

  test('the model reads the command and its output with the next prompt, as a note of fxterm\'s', async () => {
    const h = await createHarness({ sessions: true })
    await ranLs(h)
    await h.type('what is in src?\r')
    const messages = h.lastOf('model_request')!.request.messages
    expect(messages.slice(1)).toEqual([
      { role: 'user', content: '[fxterm: the person ran this command in the workspace shell themselves]\n$ ls -a\nREADME.md\nsrc\n\n[cwd: /workspace]' },
      { role: 'user', content: 'what is in src?' },
    ])
  })

  test('Esc stops it: the row says cancelled and the model hears exit 130', async () => {
    const h = await createHarness()
    await h.type('!sleep 100\r')
    const exec = h.lastOf('exec')!
    await h.type(ESC)
    expect(h.lastOf('exec_cancel')).toEqual({ kind: 'exec_cancel', id: exec.id })
    expect(text(h)).toContain('● Ran sleep 100 · cancelled')
    // A late result is ignored.
    await h.exec(exec.id, { stdout: 'late\n', stderr: '', exitCode: 0 })
    expect(text(h)).not.toContain('late')
    await h.type('go on\r')
    expect(h.lastOf('model_request')!.request.messages[1]!.content).toContain('[exit code 130]')
  })

  test('while a turn runs it is refused in one line and nothing runs', async () => {
    const h = await createHarness()
    await h.type('start\r')
    await h.type('!ls\r')
    expect(h.allOf('exec')).toEqual([])
    expect(text(h)).toContain('A turn is running: run !ls once it ends, or stop it with Esc first.')
  })

  test('a resume draws the row again, never a prompt card with the note, and the title skips it', async () => {
    const a = await createHarness({ sessions: true })
    await ranLs(a)
    await a.type('hello\r')
    await modelEvents(a, a.lastOf('model_request')!.id, [{ type: 'text_delta', delta: 'Hi.' }, { type: 'finish', reason: 'stop' }])
    const b = await createHarness({ sessions: true })
    await b.session(lastCommit(a))
    expect(text(b)).toContain('● Ran ls -a')
    expect(text(b)).not.toContain('[fxterm:')
    expect(text(b)).toContain('❯ hello')
    await b.type('/status\r')
    expect(text(b)).not.toContain('turns      2')
  })
})

describe("fxterm's notes", () => {
  test('/export md tells the person\'s words from the command they ran', async () => {
    const h = await createHarness({ sessions: true })
    await ranLs(h)
    await h.type('hello\r')
    await modelEvents(h, h.lastOf('model_request')!.id, [{ type: 'text_delta', delta: 'Hi.' }, { type: 'finish', reason: 'stop' }])
    await h.type('/export md\r')
    const action = h.lastOf('action')!
    const content = String((action as unknown as { action: { content: string } }).action.content)
    expect(content).toContain('## You ran\n\n```\n$ ls -a\nREADME.md')
    expect(content.match(/## You\n/g)).toHaveLength(1)
    expect(content).not.toContain('## You\n\n[fxterm:')
  })
})
