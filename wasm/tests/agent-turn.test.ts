/**
 * One agent turn as a person lives it: a prompt goes to the model, the reply streams onto the
 * screen, the model runs commands and sees their output, and the person can interrupt, queue a
 * prompt, or use slash commands. The engine is driven through the compiled wasm; the model and
 * the workspace are played by the test, frame by frame.
 */
import { describe, expect, test } from 'vitest'
import { ErrorCode } from '../../src/shared/errors.ts'
import { createHarness } from './harness.ts'
import type { ModelEvent } from '../../src/shared/protocol/model-events.ts'
import { composerRows, conversation, modelEvents, spinnerRow, toolCall } from './turn-helpers.ts'

const SPINNER_TIMER = 0xffff0001
const ESC = '\x1b'
const CTRL_C = '\x03'

const RUN_COMMAND_TOOL = {
  name: 'run_command',
  description:
    'Run a bash command in the in-memory workspace and return its output (stdout and stderr, cut to 64 KiB) and exit code. Commands time out after 30 s.',
  parameters: {
    type: 'object',
    properties: { command: { type: 'string', description: 'The bash command to run, at most 64 KiB' } },
    required: ['command'],
    additionalProperties: false,
  },
}

const SYSTEM = { role: 'system', content: expect.stringContaining('fxterm') }

describe('a prompt', () => {
  test('Enter sends exactly one model request with the system prompt, the prompt and the run_command tool', async () => {
    const h = await createHarness()
    await h.type('what is in this project?\r')
    expect(h.allOf('model_request')).toEqual([
      {
        kind: 'model_request',
        id: 1,
        request: {
          model: 'demo',
          provider: 'demo',
          messages: [SYSTEM, { role: 'user', content: 'what is in this project?' }],
          tools: [RUN_COMMAND_TOOL],
        },
      },
    ])
    expect(h.allOf('event')).toEqual([{ kind: 'event', event: { type: 'turn_start' } }])
    expect(conversation(h)).toEqual(['❯ what is in this project?'])
    expect(composerRows(h)).toEqual(['❯ '])
  })

  test('the model named at boot is the one requested', async () => {
    const h = await createHarness({ provider: 'ai-gateway', model: 'gpt-test' })
    await h.type('hi\r')
    expect(h.lastOf('model_request')?.request.model).toBe('gpt-test')
  })

  test('the reply streams onto the screen delta by delta, its unfinished line included', async () => {
    const h = await createHarness()
    await h.type('hi\r')

    await h.model(1, { type: 'text_delta', delta: 'Hello' })
    expect(conversation(h)).toEqual(['❯ hi', '', '● Hello'])
    await h.model(1, { type: 'text_delta', delta: ', wörld.\nSecond' })
    expect(conversation(h)).toEqual(['❯ hi', '', '● Hello, wörld.', '  Second'])
    await h.model(1, { type: 'text_delta', delta: ' line 你好' })
    expect(conversation(h)).toEqual(['❯ hi', '', '● Hello, wörld.', '  Second line 你好'])
    expect(spinnerRow(h)).toBe('⠋ Thinking… (0s · esc to interrupt)')

    await h.model(1, { type: 'finish', reason: 'stop' })
    expect(conversation(h)).toEqual(['❯ hi', '', '● Hello, wörld.', '  Second line 你好'])
    expect(spinnerRow(h)).toBe('')
    expect(h.lastOf('event')).toEqual({ kind: 'event', event: { type: 'turn_end', stopReason: 'end_turn' } })
  })

  test('a reply cut at the output limit says so', async () => {
    const h = await createHarness()
    await h.type('write a novel\r')
    await modelEvents(h, 1, [
      { type: 'text_delta', delta: 'Once upon a time' },
      { type: 'finish', reason: 'length' },
    ])
    expect(conversation(h)).toEqual(['❯ write a novel', '', '● Once upon a time', '', "  The reply reached the model's output limit; ask it to continue."])
    expect(h.lastOf('event')).toEqual({ kind: 'event', event: { type: 'turn_end', stopReason: 'max_output_tokens' } })
  })

  test('a reply with nothing in it says so, instead of a turn that looks as if it never drew', async () => {
    const h = await createHarness()
    await h.type('hello?\r')
    await modelEvents(h, 1, [{ type: 'finish', reason: 'stop' }])
    expect(conversation(h)).toEqual(['❯ hello?', '', '  The model finished without a reply.'])
    await h.type('think about it\r')
    await modelEvents(h, 2, [
      { type: 'reasoning_delta', delta: 'Nothing to add.' },
      { type: 'finish', reason: 'stop' },
    ])
    expect(conversation(h).slice(3)).toEqual(['', '❯ think about it', '', '∴ Nothing to add.', '', '  The model finished without a reply.'])
    expect(h.lastOf('event')).toEqual({ kind: 'event', event: { type: 'turn_end', stopReason: 'end_turn' } })
  })

  test('a tool call the output limit cut is not run: the person is told why, the model to take smaller steps', async () => {
    const h = await createHarness()
    await h.type('write a big file\r')
    await modelEvents(h, 1, [
      { type: 'text_delta', delta: 'Writing it.' },
      ...toolCall(0, 'c1', 'run_command', '{"command":"mkdir -p out"}'),
      ...toolCall(1, 'c2', 'run_command', '{"command":"cat > out/big.txt <<EOF\\nline one'),
      { type: 'finish', reason: 'length' },
    ])
    // The whole first call runs; the cut one never does.
    expect(h.allOf('exec').map((exec) => exec.request.command)).toEqual(['mkdir -p out'])
    await h.exec(2, { stdout: '', stderr: '', exitCode: 0 })
    expect(h.allOf('exec')).toHaveLength(1)
    expect(conversation(h)).toEqual([
      '❯ write a big file',
      '',
      '● Writing it.',
      '',
      '● Ran mkdir -p out',
      '  └  (no output)',
      '',
      "  The model's output limit cut a tool call short; it did not run.",
    ])
    const request = h.lastOf('model_request')!.request
    expect(request.messages.slice(-2)).toEqual([
      { role: 'tool', toolCallId: 'c1', content: expect.any(String) },
      {
        role: 'tool',
        toolCallId: 'c2',
        content: 'Your reply reached the output limit before the arguments of this call were complete, so nothing ran. Do the work in smaller steps (write a long file in parts).',
      },
    ])
  })
})

describe('running a command', () => {
  test('a tool call streamed in pieces becomes one exec with the whole command, the cwd and the limits', async () => {
    const h = await createHarness()
    await h.type('list the files\r')
    await modelEvents(h, 1, [
      { type: 'text_delta', delta: 'Let me look.' },
      ...toolCall(0, 'call_1', 'run_command', '{"command":"ls -la /workspace"}', 4),
      { type: 'finish', reason: 'tool_calls' },
    ])
    expect(h.allOf('exec')).toEqual([
      { kind: 'exec', id: 2, request: { command: 'ls -la /workspace', cwd: '/workspace', timeoutMs: 30000, outputLimitBytes: 65536 } },
    ])
    expect(h.lastOf('event')).toEqual({ kind: 'event', event: { type: 'tool_start', command: 'ls -la /workspace' } })
    expect(conversation(h)).toEqual(['❯ list the files', '', '● Let me look.', '', '● Running ls -la /workspace'])
    expect(spinnerRow(h)).toBe('⠋ Running… (0s · esc to interrupt)')
  })

  test("the host's activity note replaces Running… while the command runs, and ends with it", async () => {
    const h = await createHarness()
    await h.type('run it in python\r')
    await modelEvents(h, 1, [...toolCall(0, 'c', 'run_command', '{"command":"python3 -c 1"}'), { type: 'finish', reason: 'tool_calls' }])
    await h.notice('Loading Python (first use)…', 'activity')
    expect(spinnerRow(h)).toBe('⠋ Loading Python (first use)… (0s · esc to interrupt)')
    expect(h.screen()).not.toContain('Loading Python (first use)…\n') // no transcript line
    const id = h.lastOf('exec')!.id
    await h.exec(id, { stdout: '', stderr: '', exitCode: 0 })
    await h.notice('too late', 'activity')
    expect(h.screen()).not.toContain('too late')
    // The next command starts with Running… again: the late note was not kept for it.
    await modelEvents(h, h.lastOf('model_request')!.id, [...toolCall(0, 'd', 'run_command', '{"command":"ls"}'), { type: 'finish', reason: 'tool_calls' }])
    expect(spinnerRow(h)).toBe('⠋ Running… (0s · esc to interrupt)')
  })

  test('the exec uses the cwd given at boot', async () => {
    const h = await createHarness({ cwd: '/home/me/project' })
    await h.type('pwd\r')
    await modelEvents(h, 1, [...toolCall(0, 'c', 'run_command', '{"command":"pwd"}'), { type: 'finish', reason: 'tool_calls' }])
    expect(h.lastOf('exec')?.request).toEqual({ command: 'pwd', cwd: '/home/me/project', timeoutMs: 30000, outputLimitBytes: 65536 })
  })

  test('a failed command shows its first output lines and its exit code, and the model gets the whole result and the cwd', async () => {
    const h = await createHarness()
    await h.type('run the tests\r')
    await modelEvents(h, 1, [
      { type: 'text_delta', delta: 'Running them.' },
      ...toolCall(0, 'call_t', 'run_command', '{"command":"npm test"}'),
      { type: 'finish', reason: 'tool_calls' },
    ])
    await h.exec(2, { stdout: 'one\ntwo\nthree\nfour\nfive\nsix\n', stderr: 'boom', exitCode: 2 })

    expect(conversation(h)).toEqual([
      '❯ run the tests',
      '',
      '● Running them.',
      '',
      '● Ran npm test · exit 2',
      '  └  one',
      '     two',
      '     three',
      '     four',
      '     five',
      '     … 2 more lines',
    ])
    expect(spinnerRow(h)).toBe('⠋ Thinking… (0s · esc to interrupt)')
    expect(h.allOf('model_request')).toHaveLength(2)
    expect(h.lastOf('model_request')).toEqual({
      kind: 'model_request',
      id: 3,
      request: {
        model: 'demo',
        provider: 'demo',
        messages: [
          SYSTEM,
          { role: 'user', content: 'run the tests' },
          {
            role: 'assistant',
            content: 'Running them.',
            toolCalls: [{ id: 'call_t', name: 'run_command', arguments: '{"command":"npm test"}' }],
          },
          { role: 'tool', toolCallId: 'call_t', content: 'one\ntwo\nthree\nfour\nfive\nsix\nboom\n[exit code 2]\n[cwd: /workspace]' },
        ],
        tools: [RUN_COMMAND_TOOL],
      },
    })
    expect(h.allOf('event').map((e) => e.event)).toEqual([
      { type: 'turn_start' },
      { type: 'tool_start', command: 'npm test' },
      { type: 'tool_end', exitCode: 2 },
    ])
  })

  test('a command with no output says so, and the model is told "(no output)"', async () => {
    const h = await createHarness()
    await h.type('touch it\r')
    await modelEvents(h, 1, [...toolCall(0, 'c1', 'run_command', '{"command":"touch a"}'), { type: 'finish', reason: 'tool_calls' }])
    await h.exec(2, { stdout: '', stderr: '', exitCode: 0 })
    expect(conversation(h)).toEqual(['❯ touch it', '', '● Ran touch a', '  └  (no output)'])
    expect(h.lastOf('model_request')?.request.messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'c1', content: '(no output)\n[cwd: /workspace]' })
  })

  test('two tool calls in one response run one after the other, then the model sees both results', async () => {
    const h = await createHarness()
    await h.type('check\r')
    await modelEvents(h, 1, [
      ...toolCall(0, 'call_a', 'run_command', '{"command":"cat a.txt"}'),
      ...toolCall(1, 'call_b', 'run_command', '{"command":"cat b.txt"}'),
      { type: 'finish', reason: 'tool_calls' },
    ])
    expect(h.allOf('exec')).toEqual([
      { kind: 'exec', id: 2, request: { command: 'cat a.txt', cwd: '/workspace', timeoutMs: 30000, outputLimitBytes: 65536 } },
    ])
    expect(conversation(h)).toEqual(['❯ check', '', '● Running cat a.txt'])

    await h.exec(2, { stdout: 'A\n', stderr: '', exitCode: 0 })
    expect(h.allOf('exec')).toEqual([
      { kind: 'exec', id: 2, request: { command: 'cat a.txt', cwd: '/workspace', timeoutMs: 30000, outputLimitBytes: 65536 } },
      { kind: 'exec', id: 3, request: { command: 'cat b.txt', cwd: '/workspace', timeoutMs: 30000, outputLimitBytes: 65536 } },
    ])
    expect(h.allOf('model_request')).toHaveLength(1)
    expect(conversation(h)).toEqual(['❯ check', '', '● Ran cat a.txt', '  └  A', '', '● Running cat b.txt'])

    await h.exec(3, { stdout: 'B\n', stderr: '', exitCode: 0 })
    expect(h.allOf('model_request')).toHaveLength(2)
    expect(h.lastOf('model_request')?.request.messages.slice(1)).toEqual([
      { role: 'user', content: 'check' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'call_a', name: 'run_command', arguments: '{"command":"cat a.txt"}' },
          { id: 'call_b', name: 'run_command', arguments: '{"command":"cat b.txt"}' },
        ],
      },
      { role: 'tool', toolCallId: 'call_a', content: 'A\n\n[cwd: /workspace]' },
      { role: 'tool', toolCallId: 'call_b', content: 'B\n\n[cwd: /workspace]' },
    ])

    await modelEvents(h, 4, [{ type: 'text_delta', delta: 'Both files are there.' }, { type: 'finish', reason: 'stop' }])
    expect(conversation(h)).toEqual([
      '❯ check',
      '',
      '● Ran cat a.txt',
      '  └  A',
      '',
      '● Ran cat b.txt',
      '  └  B',
      '',
      '● Both files are there.',
    ])
  })

  test('an unknown tool is refused without an exec and the model is told why', async () => {
    const h = await createHarness()
    await h.type('clean up\r')
    await modelEvents(h, 1, [...toolCall(0, 'call_x', 'delete_everything', '{"path":"/"}'), { type: 'finish', reason: 'tool_calls' }])
    const why = 'The model asked for an unknown tool "delete_everything"; only run_command exists.'
    expect(h.allOf('exec')).toEqual([])
    expect(conversation(h)).toEqual([
      '❯ clean up',
      '',
      '✗ The model asked for an unknown tool "delete_everything"; only run_command',
      '  exists.',
    ])
    expect(h.lastOf('model_request')?.id).toBe(2)
    expect(h.lastOf('model_request')?.request.messages.slice(1)).toEqual([
      { role: 'user', content: 'clean up' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_x', name: 'delete_everything', arguments: '{"path":"/"}' }] },
      { role: 'tool', toolCallId: 'call_x', content: why },
    ])
  })

  test('malformed arguments are refused without an exec and the model is told the expected shape', async () => {
    const h = await createHarness()
    await h.type('list\r')
    await modelEvents(h, 1, [...toolCall(0, 'call_m', 'run_command', '{"command": ls -la'), { type: 'finish', reason: 'tool_calls' }])
    const why = 'The arguments of run_command were not valid JSON, so nothing ran. Send {"command": "<bash command>"}.'
    expect(h.allOf('exec')).toEqual([])
    expect(conversation(h)).toEqual(['❯ list', '', '✗ The arguments of run_command were not valid JSON, so nothing ran. Send', '  {"command": "<bash command>"}.'])
    expect(h.lastOf('model_request')?.request.messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'call_m', content: why })
  })

  test('a command longer than 64 KiB is refused without an exec', async () => {
    const h = await createHarness()
    await h.type('big\r')
    const command = `echo ${'x'.repeat(64 * 1024)}`
    await modelEvents(h, 1, [...toolCall(0, 'call_big', 'run_command', JSON.stringify({ command }), 1), { type: 'finish', reason: 'tool_calls' }])
    const why = 'The command is longer than 64 KiB and was not run.'
    expect(h.allOf('exec')).toEqual([])
    expect(h.lastOf('model_request')?.request.messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'call_big', content: why })
  })
})

describe('when things go wrong', () => {
  test('a model error shows a ✗ line with its message, ends the turn, and the composer still takes typing', async () => {
    const h = await createHarness()
    await h.type('hi\r')
    await h.model(1, { type: 'error', code: ErrorCode.FX_MODEL_RATE_LIMITED, message: 'Rate limited: try again in a minute.' })
    expect(conversation(h)).toEqual(['❯ hi', '', '✗ Rate limited: try again in a minute.'])
    expect(spinnerRow(h)).toBe('')
    expect(h.lastOf('event')).toEqual({ kind: 'event', event: { type: 'turn_end', stopReason: 'error' } })

    await h.type('try again')
    expect(composerRows(h)).toEqual(['❯ try again'])
    await h.type('\r')
    expect(h.lastOf('model_request')).toEqual({
      kind: 'model_request',
      id: 2,
      request: { model: 'demo', provider: 'demo', messages: [SYSTEM, { role: 'user', content: 'hi' }, { role: 'user', content: 'try again' }], tools: [RUN_COMMAND_TOOL] },
    })
  })

  test('Esc during a stream cancels that request, says Interrupted, and later events for it change nothing', async () => {
    const h = await createHarness()
    await h.type('tell me a story\r')
    await h.model(1, { type: 'text_delta', delta: 'Once upon' })
    const before = h.effects.length
    await h.type(ESC)
    expect(h.effects.slice(before)).toEqual([
      { kind: 'model_cancel', id: 1 },
      { kind: 'event', event: { type: 'turn_end', stopReason: 'cancelled' } },
    ])
    expect(conversation(h)).toEqual(['❯ tell me a story', '', '● Once upon', '', '  Interrupted · tell fxterm what to do instead'])
    expect(spinnerRow(h)).toBe('')

    const screen = h.screen()
    const after = h.effects.length
    await modelEvents(h, 1, [
      { type: 'text_delta', delta: ' a time' },
      ...toolCall(0, 'late', 'run_command', '{"command":"rm -rf /"}'),
      { type: 'finish', reason: 'tool_calls' },
    ])
    expect(h.screen()).toBe(screen)
    expect(h.effects.slice(after)).toEqual([])
  })

  test('the interrupted reply is kept in the conversation sent with the next prompt', async () => {
    const h = await createHarness()
    await h.type('tell me a story\r')
    await h.model(1, { type: 'text_delta', delta: 'Once upon' })
    await h.type(ESC)
    await h.type('shorter please\r')
    expect(h.lastOf('model_request')?.request.messages.slice(1)).toEqual([
      { role: 'user', content: 'tell me a story' },
      { role: 'assistant', content: 'Once upon' },
      { role: 'user', content: 'shorter please' },
    ])
  })

  test('Esc with nothing running does nothing', async () => {
    const h = await createHarness()
    const screen = h.screen()
    await h.type(ESC)
    expect(h.effects).toEqual([])
    expect(h.screen()).toBe(screen)
  })

  test('Ctrl+C during a command cancels the exec and every tool call still gets a result', async () => {
    const h = await createHarness()
    await h.type('build it\r')
    await modelEvents(h, 1, [
      ...toolCall(0, 'call_1', 'run_command', '{"command":"sleep 100"}'),
      ...toolCall(1, 'call_2', 'run_command', '{"command":"echo done"}'),
      { type: 'finish', reason: 'tool_calls' },
    ])
    const before = h.effects.length
    await h.type(CTRL_C)
    expect(h.effects.slice(before)).toEqual([
      { kind: 'exec_cancel', id: 2 },
      { kind: 'event', event: { type: 'turn_end', stopReason: 'cancelled' } },
      // the "/exit ends the session" hint goes away after 3 s
      { kind: 'timer_set', id: 0xffff0002, delayMs: 3000 },
    ])
    expect(conversation(h)).toEqual(['❯ build it', '', '● Ran sleep 100 · cancelled', '', '  Interrupted · tell fxterm what to do instead'])

    // The cancelled command's late result is ignored.
    const screen = h.screen()
    await h.exec(2, { stdout: 'finally\n', stderr: '', exitCode: 0 })
    expect(h.screen()).toBe(screen)

    await h.type('never mind\r')
    expect(h.allOf('exec')).toHaveLength(1)
    expect(h.lastOf('model_request')).toEqual({
      kind: 'model_request',
      id: 3,
      request: {
        model: 'demo',
        provider: 'demo',
        messages: [
          SYSTEM,
          { role: 'user', content: 'build it' },
          {
            role: 'assistant',
            content: '',
            toolCalls: [
              { id: 'call_1', name: 'run_command', arguments: '{"command":"sleep 100"}' },
              { id: 'call_2', name: 'run_command', arguments: '{"command":"echo done"}' },
            ],
          },
          { role: 'tool', toolCallId: 'call_1', content: 'Cancelled by the user.' },
          { role: 'tool', toolCallId: 'call_2', content: 'Not run: the user interrupted.' },
          { role: 'user', content: 'never mind' },
        ],
        tools: [RUN_COMMAND_TOOL],
      },
    })
  })
})

describe('while a turn runs', () => {
  test('the spinner row counts elapsed seconds when its timer fires', async () => {
    const h = await createHarness()
    await h.type('think hard\r')
    expect(h.allOf('timer_set')).toEqual([{ kind: 'timer_set', id: SPINNER_TIMER, delayMs: 100 }])
    expect(spinnerRow(h)).toBe('⠋ Thinking… (0s · esc to interrupt)')

    h.tick(3000)
    await h.timer(SPINNER_TIMER)
    expect(spinnerRow(h)).toBe('⠋ Thinking… (3s · esc to interrupt)')
    expect(h.allOf('timer_set')).toHaveLength(2)

    h.tick(1100)
    await h.timer(SPINNER_TIMER)
    expect(spinnerRow(h)).toBe('⠙ Thinking… (4s · esc to interrupt)')
  })

  test('the spinner stops asking for timers once the turn ends', async () => {
    const h = await createHarness()
    await h.type('hi\r')
    await h.model(1, { type: 'finish', reason: 'stop' })
    const before = h.effects.length
    h.tick(100)
    await h.timer(SPINNER_TIMER)
    expect(h.effects.slice(before)).toEqual([])
    expect(spinnerRow(h)).toBe('')
  })

  test('a prompt sent while busy waits as queued and goes to the model when the turn ends', async () => {
    const h = await createHarness()
    await h.type('first\r')
    await h.type('second\r')
    expect(h.allOf('model_request')).toHaveLength(1)
    expect(conversation(h)).toEqual(['❯ first', '❯ second', '  1 queued · ↑ to edit'])

    await modelEvents(h, 1, [{ type: 'text_delta', delta: 'One.' }, { type: 'finish', reason: 'stop' }])
    expect(h.allOf('model_request')).toHaveLength(2)
    expect(h.lastOf('model_request')).toEqual({
      kind: 'model_request',
      id: 2,
      request: {
        model: 'demo',
        provider: 'demo',
        messages: [SYSTEM, { role: 'user', content: 'first' }, { role: 'assistant', content: 'One.' }, { role: 'user', content: 'second' }],
        tools: [RUN_COMMAND_TOOL],
      },
    })
    expect(conversation(h)).toEqual(['❯ first', '', '● One.', '', '❯ second'])
    expect(spinnerRow(h)).toBe('⠋ Thinking… (0s · esc to interrupt)')
  })
})

describe('slash commands', () => {
  test('/help lists the commands by category, then the keys', async () => {
    const h = await createHarness()
    await h.type('/help\r')
    expect(h.allOf('model_request')).toEqual([])
    const lines = conversation(h)
    expect(lines.slice(0, 4)).toEqual([
      'Session',
      '  /help                    show commands and keys',
      '  /new                     start a new conversation',
      '  /clear                   start a new conversation and clear the screen',
    ])
    // One column for every description, clear of the longest usage.
    expect(lines.find((l) => l.startsWith('  /key'))).toMatch(/^  \/key \[provider\] \[clear\]  save a provider's API key/)
    const columns = new Set(lines.filter((l) => /^ {2}\//.test(l)).map((l) => l.search(/ {2}[a-z]/) + 2))
    expect([...columns]).toEqual([27])
    expect(lines.filter((l) => /^[A-Z]/.test(l))).toEqual(['Session', 'Model', 'Workspace', 'Transcript', 'Account', 'Keys'])
    const names = lines.flatMap((l) => l.match(/^ {2}(\/[a-z0-9]+)/)?.[1] ?? [])
    expect(names).toEqual([
      '/help', '/new', '/clear', '/resume', '/sessions', '/rename', '/compact', '/status', '/exit', '/quit',
      '/model', '/models', '/fast', '/provider', '/mode', '/files', '/download', '/open', '/clone', '/diff', '/undo', '/copy', '/export', '/history', '/a11y', '/login', '/logout', '/key', '/version',
    ])
  })

  test('/exit says Goodbye and asks the host to exit with code 0', async () => {
    const h = await createHarness()
    await h.type('/exit\r')
    expect(h.effects).toEqual([{ kind: 'history_append', value: '/exit' }, { kind: 'exit', code: 0 }])
    expect(h.screen().split('\n').slice(3)).toEqual(['', '  Goodbye.', '', 'Session ended · reload the page to start again'])
    expect(h.viewport().filter((line) => line.startsWith('❯'))).toEqual([])

    const screen = h.screen()
    await h.type('anything\r')
    expect(h.screen()).toBe(screen)
    expect(h.effects).toEqual([{ kind: 'history_append', value: '/exit' }, { kind: 'exit', code: 0 }])
  })

  test('/exit during a turn cancels it first', async () => {
    const h = await createHarness()
    await h.type('hi\r')
    const before = h.effects.length
    await h.type('/exit\r')
    expect(h.effects.slice(before)).toEqual([
      { kind: 'history_append', value: '/exit' },
      { kind: 'model_cancel', id: 1 },
      { kind: 'event', event: { type: 'turn_end', stopReason: 'cancelled' } },
      { kind: 'exit', code: 0 },
    ])
  })

  test('an unknown command is named in a ✗ line and nothing is sent', async () => {
    const h = await createHarness()
    await h.type('/foo\r')
    expect(h.allOf('model_request')).toEqual([])
    expect(conversation(h)).toEqual(['✗ Unknown command /foo. Try /help.'])
    expect(composerRows(h)).toEqual(['❯ '])
  })

  test('/clear forgets the conversation and redraws the banner', async () => {
    const h = await createHarness()
    await h.type('hi\r')
    await modelEvents(h, 1, [{ type: 'text_delta', delta: 'Hello.' }, { type: 'finish', reason: 'stop' }])
    await h.type('/clear\r')
    expect(h.viewport().slice(0, 9)).toEqual([
      '✻ fxterm · Run /help for commands',
      '  a coding agent in your browser tab · offline demo model: no key, no network',
      '  Try "what\'s in this project?", "count the cities per country", !ls, /model.',
      '',
      '',
      '─'.repeat(80),
      '❯ ',
      '─'.repeat(80),
      '  auto · demo · /workspace · /help',
    ])
    await h.type('again\r')
    expect(h.lastOf('model_request')?.request.messages).toEqual([SYSTEM, { role: 'user', content: 'again' }])
  })
})

describe('chat only', () => {
  test('boot without tools offers no tools and the status line says chat only', async () => {
    const h = await createHarness({ tools: false })
    await h.type('hi\r')
    expect(h.lastOf('model_request')).toEqual({
      kind: 'model_request',
      id: 1,
      request: { model: 'demo', provider: 'demo', messages: [SYSTEM, { role: 'user', content: 'hi' }], tools: [] },
    })
    expect(h.viewport().filter((line) => line.startsWith('  auto'))).toEqual(['  auto · demo · chat only · /help'])
  })

  test('a tool call without a workspace is refused without an exec', async () => {
    const h = await createHarness({ tools: false })
    await h.type('hi\r')
    await modelEvents(h, 1, [...toolCall(0, 'c', 'run_command', '{"command":"ls"}'), { type: 'finish', reason: 'tool_calls' }])
    const why = 'No workspace is available, so commands cannot run.'
    expect(h.allOf('exec')).toEqual([])
    // Like any failed tool call, the host sees it start and end with the error.
    expect(h.allOf('event').map((e) => e.event).filter((e) => String(e['type']).startsWith('tool_'))).toEqual([
      { type: 'tool_start', command: 'ls' },
      { type: 'tool_end', error: why },
    ])
    expect(conversation(h)).toEqual(['❯ hi', '', `✗ ${why}`])
    expect(h.lastOf('model_request')?.request.messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'c', content: why })
  })
})
