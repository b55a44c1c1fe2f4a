/**
 * Retries, stop reasons and limits of the agent loop: a failed request is asked again with
 * backoff (the activity row counts down), a reply cut mid-way continues without repeating what
 * was shown, and the turn ends with a clear reason when it cannot go on.
 */
import { describe, expect, test } from 'vitest'
import { ErrorCode } from '../../src/shared/errors.ts'
import { createHarness } from './harness.ts'
import { conversation, modelEvents, spinnerRow, toolCall } from './turn-helpers.ts'

const RETRY_TIMER = 0xffff0003
const rateLimited = { type: 'error' as const, code: ErrorCode.FX_MODEL_RATE_LIMITED, message: 'The server is rate limiting requests.', retryable: true, status: 429 }

describe('retries', () => {
  test('a 429 waits 250 ms, shows the countdown row, and asks again with the same request', async () => {
    const h = await createHarness()
    await h.type('hi\r')
    const first = h.lastOf('model_request')!
    await h.model(first.id, rateLimited)
    expect(h.lastOf('timer_set')).toEqual({ kind: 'timer_set', id: RETRY_TIMER, delayMs: 250 })
    expect(spinnerRow(h)).toBe('⚠ Rate limited · retrying in 1s · attempt 2/6')
    expect(conversation(h)).toEqual(['❯ hi'])
    h.tick(250)
    await h.timer(RETRY_TIMER)
    const second = h.lastOf('model_request')!
    expect(second.id).not.toBe(first.id)
    expect(second.request).toEqual(first.request)
    await modelEvents(h, second.id, [{ type: 'text_delta', delta: 'Hello.' }, { type: 'finish', reason: 'stop' }])
    expect(conversation(h)).toEqual(['❯ hi', '', '● Hello.'])
    expect(h.lastOf('event')?.event).toEqual({ type: 'turn_end', stopReason: 'end_turn' })
  })

  test('backoff is 250 ms, 1 s, then doubling; Retry-After wins up to 30 s; six attempts at most', async () => {
    const h = await createHarness()
    await h.type('hi\r')
    const delays: number[] = []
    for (let attempt = 1; attempt <= 6; attempt++) {
      const id = h.lastOf('model_request')!.id
      const retryAfterMs = attempt === 4 ? 90_000 : undefined
      await h.model(id, { ...rateLimited, status: 503, ...(retryAfterMs ? { retryAfterMs } : {}) })
      if (attempt < 6) {
        delays.push(h.lastOf('timer_set')!.delayMs)
        await h.timer(RETRY_TIMER)
      }
    }
    expect(delays).toEqual([250, 1000, 2000, 30_000, 8000])
    expect(h.allOf('model_request')).toHaveLength(6)
    expect(conversation(h)).toEqual(['❯ hi', '', '✗ The server is rate limiting requests (gave up after 6 attempts).'])
    expect(h.lastOf('event')?.event).toEqual({ type: 'turn_end', stopReason: 'error' })
  })

  test('an error that cannot pass (401) is not retried', async () => {
    const h = await createHarness()
    await h.type('hi\r')
    await h.model(1, { type: 'error', code: ErrorCode.FX_MODEL_UNAUTHORIZED, message: 'The key was refused: run /login or set a key.', status: 401 })
    expect(h.allOf('timer_set').filter((t) => t.id === RETRY_TIMER)).toEqual([])
    expect(conversation(h)).toEqual(['❯ hi', '', '✗ The key was refused: run /login or set a key.'])
  })

  test('a stream cut mid-reply continues: the shown text is sent back to be continued, and nothing is drawn twice', async () => {
    const h = await createHarness()
    await h.type('tell me\r')
    await h.model(1, { type: 'text_delta', delta: 'The first half, ' })
    await h.model(1, { type: 'error', code: ErrorCode.FX_MODEL_STREAM_TRUNCATED, message: 'The stream was cut.', retryable: true })
    expect(spinnerRow(h)).toBe('⚠ Stream interrupted · retrying in 1s · attempt 2/6')
    await h.timer(RETRY_TIMER)
    const retry = h.lastOf('model_request')!
    expect(retry.request.messages.slice(1)).toEqual([
      { role: 'user', content: 'tell me' },
      { role: 'assistant', content: 'The first half, ' },
      { role: 'user', content: expect.stringContaining('Continue exactly where it stopped') },
    ])
    await modelEvents(h, retry.id, [{ type: 'text_delta', delta: 'and the second half.' }, { type: 'finish', reason: 'stop' }])
    expect(conversation(h)).toEqual(['❯ tell me', '', '● The first half, and the second half.'])
    await h.type('next\r')
    // The conversation keeps one whole reply, not the pieces or the note.
    expect(h.lastOf('model_request')!.request.messages.slice(1)).toEqual([
      { role: 'user', content: 'tell me' },
      { role: 'assistant', content: 'The first half, and the second half.' },
      { role: 'user', content: 'next' },
    ])
  })

  test('Esc while waiting to retry cancels the timer and keeps the partial reply', async () => {
    const h = await createHarness()
    await h.type('hi\r')
    await h.model(1, { type: 'text_delta', delta: 'Partial' })
    await h.model(1, rateLimited)
    await h.type('\x1b')
    expect(h.lastOf('timer_cancel')).toEqual({ kind: 'timer_cancel', id: RETRY_TIMER })
    await h.timer(RETRY_TIMER) // a late timer changes nothing
    expect(h.allOf('model_request')).toHaveLength(1)
    expect(conversation(h)).toEqual(['❯ hi', '', '● Partial', '', '  Interrupted · tell fxterm what to do instead'])
  })
})

describe('stop reasons and limits', () => {
  test('content_filter ends the turn as refused, with a notice', async () => {
    const h = await createHarness()
    await h.type('hi\r')
    await h.model(1, { type: 'finish', reason: 'content_filter' })
    expect(conversation(h).at(-1)).toBe("  The model's content filter stopped the reply. Rephrase the request.")
    expect(h.lastOf('event')?.event).toEqual({ type: 'turn_end', stopReason: 'refused' })
  })

  test('maxSteps stops the turn after that many model requests with max_model_turns', async () => {
    const h = await createHarness({ maxSteps: 2 })
    await h.type('loop\r')
    for (let step = 0; step < 2; step++) {
      const id = h.lastOf('model_request')!.id
      await modelEvents(h, id, [...toolCall(0, `c${step}`, 'run_command', '{"command":"true"}'), { type: 'finish', reason: 'tool_calls' }])
      await h.exec(h.lastOf('exec')!.id, { stdout: '', stderr: '', exitCode: 0 })
    }
    expect(h.allOf('model_request')).toHaveLength(2)
    expect(conversation(h).join(' ')).toContain('Stopped after 2 model requests in one turn')
    expect(h.lastOf('event')?.event).toEqual({ type: 'turn_end', stopReason: 'max_model_turns' })
  })

  test('a tool result over 64 KiB reaches the model cut, with a marker giving the original size', async () => {
    const h = await createHarness()
    await h.type('big\r')
    await modelEvents(h, 1, [...toolCall(0, 'c', 'run_command', '{"command":"cat big"}'), { type: 'finish', reason: 'tool_calls' }])
    await h.exec(h.lastOf('exec')!.id, { stdout: 'é'.repeat(40_000), stderr: '', exitCode: 0 })
    const content = h.lastOf('model_request')!.request.messages.at(-1)!.content as string
    expect(new TextEncoder().encode(content).length).toBeLessThan(64 * 1024 + 200)
    expect(content).toContain('[tool result truncated: 65536 of 80000 bytes shown]')
    expect(content).not.toContain('\uFFFD')
  })

  test('the request carries a turn context with the date from the clock, the root and the shell', async () => {
    const h = await createHarness()
    h.tick(Date.UTC(2026, 10, 30, 12) - 1_000_000)
    await h.type('hi\r')
    const system = h.lastOf('model_request')!.request.messages[0]!.content as string
    expect(system).toContain('<turn_context>\ndate: 2026-11-30\nworkspace root: /workspace\nshell: just-bash\n</turn_context>')
  })
})
