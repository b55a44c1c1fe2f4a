/**
 * A turn whose command was running when the tab ended (most likely that command crashed it, e.g.
 * a runaway `node` heap) does not continue by itself on reopening: the person is told what most
 * likely happened and chooses to continue or stop. Nothing is sent before they answer.
 */
import { describe, expect, test } from 'vitest'
import { createHarness, type Harness } from './harness.ts'
import { composerRows, conversation, modelEvents, toolCall } from './turn-helpers.ts'

const text = (h: Harness) => conversation(h).join(' ').replace(/\s+/g, ' ')
const lastCommit = (h: Harness) => h.allOf('session_commit').at(-1)!.bytes
const body = (bytes: Uint8Array) => {
  const metaLen = new DataView(bytes.buffer, bytes.byteOffset).getUint32(8, true)
  return JSON.parse(new TextDecoder().decode(bytes.subarray(12 + metaLen)))
}

/** A session saved while `command` ran: the tab died there. */
async function savedMidCommand(command: string, calls = [command]): Promise<Uint8Array> {
  const a = await createHarness({ sessions: true })
  await a.type('try the script\r')
  const events = calls.flatMap((each, i) => toolCall(i, `call_${i}`, 'run_command', JSON.stringify({ command: each })))
  await modelEvents(a, 1, [...events, { type: 'finish', reason: 'tool_calls' }])
  expect(body(lastCommit(a)).turn).toEqual({ active: true, runningCallId: 'call_0' })
  return lastCommit(a)
}

async function reopened(saved: Uint8Array, boot = {}): Promise<Harness> {
  const b = await createHarness({ sessions: true, ...boot })
  await b.session(saved)
  return b
}

describe('a turn interrupted while a command ran', () => {
  test('asks before going on: one line says what most likely happened, and nothing is sent, run or committed', async () => {
    const b = await reopened(await savedMidCommand('node bomb.js'))
    expect(text(b)).toContain('The tab closed while `node bomb.js` was running — it may have run out of memory.')
    expect(b.screen()).toContain('Continue the interrupted turn?')
    expect(b.screen()).toContain('1. Yes, continue the turn')
    expect(b.screen()).toContain('2. No, stop here (the command is not run again)')
    expect(b.allOf('model_request')).toEqual([])
    expect(b.allOf('exec')).toEqual([])
    expect(b.allOf('session_commit')).toEqual([])
    expect(text(b)).not.toContain('fxterm is continuing it')
  })

  test('yes continues as a resume always did: the command is reported as maybe partly run and the model asked', async () => {
    const b = await reopened(await savedMidCommand('node bomb.js', ['node bomb.js', 'ls']))
    await b.type('y')
    expect(text(b)).toContain('The last turn was interrupted; fxterm is continuing it.')
    expect(b.screen()).not.toContain('Continue the interrupted turn?')
    expect(b.allOf('exec')).toEqual([])
    expect(b.allOf('model_request').length).toBe(1)
    expect(b.lastOf('model_request')!.request.messages.slice(2)).toEqual([
      { role: 'assistant', content: '', toolCalls: [
        { id: 'call_0', name: 'run_command', arguments: '{"command":"node bomb.js"}' },
        { id: 'call_1', name: 'run_command', arguments: '{"command":"ls"}' },
      ] },
      { role: 'tool', toolCallId: 'call_0', content: expect.stringContaining('may have partly run') },
      { role: 'tool', toolCallId: 'call_1', content: 'Not run: the session was interrupted before this command started.' },
      { role: 'user', content: expect.stringContaining('The previous turn was interrupted') },
    ])
  })

  test('no ends the turn without a request; the model hears the command crashed the tab when the person writes on', async () => {
    const b = await reopened(await savedMidCommand('node bomb.js'))
    await b.type('\x1b[B\r') // Down to "No", Enter
    expect(b.allOf('model_request')).toEqual([])
    expect(b.allOf('exec')).toEqual([])
    expect(text(b)).toContain('Stopped. `node bomb.js` was not run again')
    expect(b.screen()).not.toContain('Continue the interrupted turn?')
    // The stop is committed: the turn is over, so a reload no longer asks.
    const stored = body(lastCommit(b))
    expect(stored.turn).toEqual({ active: false, runningCallId: '' })
    const c = await reopened(lastCommit(b))
    expect(c.screen()).not.toContain('Continue the interrupted turn?')

    await b.type('what happened?\r')
    expect(b.lastOf('model_request')!.request.messages.slice(3)).toEqual([
      { role: 'tool', toolCallId: 'call_0', content: expect.stringContaining('most likely crashed it') },
      { role: 'user', content: 'what happened?' },
    ])
  })

  test('Esc and n stop too; typed text stays in the draft while the question waits', async () => {
    const saved = await savedMidCommand('node bomb.js')
    const b = await reopened(saved)
    await b.type('\x1b')
    expect(text(b)).toContain('Stopped.')
    const c = await reopened(saved)
    await c.type('hello')
    expect(composerRows(c).join('')).toContain('hello')
    expect(c.screen()).toContain('Continue the interrupted turn?')
    await c.type('n')
    expect(c.allOf('model_request')).toEqual([])
    expect(text(c)).toContain('Stopped.')
  })

  test('reopening before an answer asks again (nothing was committed)', async () => {
    const saved = await savedMidCommand('node bomb.js')
    const b = await reopened(saved)
    expect(b.allOf('session_commit')).toEqual([])
    const again = await reopened(saved)
    expect(again.screen()).toContain('Continue the interrupted turn?')
  })

  test('a long or multi-line command is shown on one short line, with no escape sequence', async () => {
    const b = await reopened(await savedMidCommand(`node -e "${'x'.repeat(80)}"\necho \x1b[31mred`))
    // The notice wraps at 80 columns: compared without the line breaks.
    const shown = conversation(b).join('').replace(/\s+/g, '')
    expect(shown).toContain(`Thetabclosedwhile\`node-e"${'x'.repeat(51)}…\`wasrunning`)
    expect(b.screen()).not.toContain('echo')
  })

  test('a turn interrupted while the reply streamed still continues by itself', async () => {
    const a = await createHarness({ sessions: true })
    await a.type('count the files\r')
    const b = await reopened(lastCommit(a))
    expect(b.screen()).not.toContain('Continue the interrupted turn?')
    expect(b.allOf('model_request').length).toBe(1)
  })

  test('a command that was waiting for approval had not run: reopening neither asks nor calls it partly run', async () => {
    const a = await createHarness({ sessions: true, permission: 'prompt' })
    await a.type('list then build\r')
    await modelEvents(a, 1, [
      ...toolCall(0, 'call_0', 'run_command', '{"command":"ls"}'),
      ...toolCall(1, 'call_1', 'run_command', '{"command":"node build.js"}'),
      { type: 'finish', reason: 'tool_calls' },
    ])
    await a.type('1') // ls: yes
    await a.exec(a.lastOf('exec')!.id, { stdout: 'build.js\n', stderr: '', exitCode: 0 })
    expect(a.screen()).toContain('Run this command?') // node build.js waits for approval
    expect(body(lastCommit(a)).turn).toEqual({ active: true, runningCallId: '' })

    const b = await reopened(lastCommit(a))
    expect(b.screen()).not.toContain('Continue the interrupted turn?')
    const request = b.lastOf('model_request')!.request
    expect(request.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      expect.stringContaining('build.js'),
      'Not run: the session was interrupted before this command started.',
    ])
  })

  test('the headless agent has no one to ask: it continues as documented (maybe partly run)', async () => {
    const b = await reopened(await savedMidCommand('node bomb.js'), { headless: true })
    expect(b.allOf('exec')).toEqual([])
    const request = b.lastOf('model_request')!.request
    expect(request.messages.find((m) => m.role === 'tool')!.content).toMatch(/may have partly run/)
  })
})
