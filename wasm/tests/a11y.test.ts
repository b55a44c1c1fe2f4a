/**
 * /a11y: screen-reader mode. The host is told to switch xterm's mode, the setting is kept, and
 * each finished reply and command result is announced once (an `announce` event), never piece
 * by piece while it streams.
 */
import { describe, expect, test } from 'vitest'
import { createHarness, type Harness } from './harness.ts'
import { modelEvents, toolCall } from './turn-helpers.ts'

const announced = (h: Harness) => h.allOf('event').filter((e) => e.event.type === 'announce').map((e) => e.event.text)
const actions = (h: Harness) => h.allOf('action').map((a) => a.action.action)

describe('/a11y', () => {
  test('toggles the mode at the host and keeps the setting', async () => {
    const h = await createHarness()
    await h.type('/a11y\r')
    expect(actions(h)).toEqual(['a11y_on'])
    expect(h.allOf('config_set').map((c) => `${c.id}=${c.value}`)).toEqual(['a11y=on'])
    expect(h.screen()).toContain('Screen reader mode is on')
    await h.type('/a11y off\r')
    expect(actions(h)).toEqual(['a11y_on', 'a11y_off'])
    await h.type('/a11y loud\r')
    expect(h.screen()).toContain('Usage: /a11y [on|off]')
  })

  test('a finished reply is announced once, whole, after it streamed in pieces', async () => {
    const h = await createHarness()
    await h.type('/a11y on\r')
    await h.type('hello\r')
    const id = h.lastOf('model_request')!.id
    await modelEvents(h, id, [{ type: 'text_delta', delta: 'Hel' }, { type: 'text_delta', delta: 'lo **there**.' }])
    expect(announced(h)).toEqual([])
    await modelEvents(h, id, [{ type: 'finish', reason: 'stop' }])
    expect(announced(h)).toEqual(['Hello **there**.'])
  })

  test('a command result is announced with its command and exit code, in order with the replies', async () => {
    const h = await createHarness()
    await h.type('/a11y on\r')
    await h.type('list files\r')
    await modelEvents(h, 1, [{ type: 'text_delta', delta: 'Looking.' }, ...toolCall(0, 'c1', 'run_command', '{"command":"ls"}'), { type: 'finish', reason: 'tool_calls' }])
    const exec = h.lastOf('exec')!
    await h.exec(exec.id, { stdout: 'a.txt\nb.txt\n', stderr: '', exitCode: 2 })
    expect(announced(h)).toEqual(['Looking.', 'Ran ls, exit 2: a.txt\nb.txt\n'])
  })

  test('off (the default): nothing is announced', async () => {
    const h = await createHarness()
    await h.type('hello\r')
    await modelEvents(h, h.lastOf('model_request')!.id, [{ type: 'text_delta', delta: 'Hi.' }, { type: 'finish', reason: 'stop' }])
    expect(announced(h)).toEqual([])
  })

  test('a stored a11y=on is restored at boot: the host switches the mode without saving it again', async () => {
    const h = await createHarness({ config: { a11y: 'on' } })
    expect(actions(h)).toEqual(['a11y_on'])
    expect(h.allOf('config_set')).toEqual([])
  })
})
