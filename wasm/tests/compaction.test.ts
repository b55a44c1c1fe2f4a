/**
 * Compaction: /compact and the automatic one near the context window ask the model for a
 * summary and continue from it plus the latest turn; Esc leaves the history unchanged; offline
 * or on failure a local summary is used and the person is told.
 */
import { describe, expect, test } from 'vitest'
import { ErrorCode } from '../../src/shared/errors.ts'
import { paste } from './composer-helpers.ts'
import { createHarness, type Harness } from './harness.ts'
import { conversation, modelEvents, spinnerRow } from './turn-helpers.ts'

/** The transcript as one string, wrapped lines joined. */
const text = (h: Harness) => conversation(h).join(' ').replace(/\s+/g, ' ')

async function turn(h: Harness, prompt: string, reply: string) {
  await h.type(`${prompt}\r`)
  await modelEvents(h, h.lastOf('model_request')!.id, [{ type: 'text_delta', delta: reply }, { type: 'finish', reason: 'stop' }])
}

const gateway = { provider: 'ai-gateway', model: 'gpt-test', providers: [{ name: 'ai-gateway', label: 'ai-gateway', model: 'gpt-test' }] }

describe('/compact', () => {
  test('asks the model for a summary of the earlier turns, then continues from summary + the latest turn', async () => {
    const h = await createHarness(gateway)
    await turn(h, 'make a file called a.txt', 'Made a.txt.')
    await turn(h, 'now b.txt', 'Made b.txt.')
    await h.type('/compact\r')
    const summary = h.lastOf('model_request')!
    expect(summary.request.tools).toEqual([])
    expect(summary.request.messages[0]!.content).toContain('You compact conversations')
    expect(summary.request.messages[1]!.content).toContain('User: make a file called a.txt')
    expect(summary.request.messages[1]!.content).toContain('Agent: Made a.txt.')
    expect(summary.request.messages[1]!.content).not.toContain('now b.txt')
    expect(spinnerRow(h)).toMatch(/Compacting… \(0s/)
    await modelEvents(h, summary.id, [{ type: 'text_delta', delta: '- a.txt was created' }, { type: 'finish', reason: 'stop' }])
    expect(conversation(h).join('\n')).toMatch(/Compacted 2 messages into a summary/)
    // The summary is not drawn as a reply: the transcript has only the notice.
    expect(conversation(h).join('\n')).not.toContain('a.txt was created')
    await h.type('and c.txt\r')
    expect(h.lastOf('model_request')!.request.messages.slice(1)).toEqual([
      { role: 'user', content: '[Summary of the conversation so far, compacted to save context]\n- a.txt was created' },
      { role: 'user', content: 'now b.txt' },
      { role: 'assistant', content: 'Made b.txt.' },
      { role: 'user', content: 'and c.txt' },
    ])
  })

  test('Esc during compaction cancels it and leaves the history unchanged', async () => {
    const h = await createHarness(gateway)
    await turn(h, 'one', 'One.')
    await turn(h, 'two', 'Two.')
    await h.type('/compact\r')
    const summary = h.lastOf('model_request')!
    await h.type('\x1b')
    expect(h.lastOf('model_cancel')).toEqual({ kind: 'model_cancel', id: summary.id })
    expect(conversation(h).at(-1)).toBe('  Compaction cancelled; the conversation is unchanged.')
    await h.type('three\r')
    expect(h.lastOf('model_request')!.request.messages.slice(1).map((m) => m.content)).toEqual(['one', 'One.', 'two', 'Two.', 'three'])
  })

  test('when the model cannot summarise, a local summary is used and the person is told why', async () => {
    const h = await createHarness(gateway)
    await turn(h, 'list the files', 'Here they are.')
    await turn(h, 'thanks', 'You are welcome.')
    await h.type('/compact\r')
    await h.model(h.lastOf('model_request')!.id, { type: 'error', code: ErrorCode.FX_MODEL_SERVER_ERROR, message: 'The server failed.' })
    expect(text(h)).toContain('the model could not summarise (The server failed.), so a local summary was used')
    await h.type('next\r')
    const first = h.lastOf('model_request')!.request.messages[1]!.content as string
    expect(first).toContain('(A local summary: the model was not asked.)')
    expect(first).toContain('- The user asked: list the files')
  })

  test('offline (the demo), /compact summarises locally without a model request', async () => {
    const h = await createHarness()
    await turn(h, 'hello', 'Hi.')
    const requests = h.allOf('model_request').length
    await h.type('/compact\r')
    expect(h.allOf('model_request')).toHaveLength(requests)
    expect(text(h)).toContain('offline, so a local summary was used')
    await h.type('/export json\r')
    // The full history stays in the session for export.
    const exported = JSON.parse((h.lastOf('action')!.action as { content: string }).content)
    const contents = exported.messages.map((m: { content: string }) => m.content)
    expect(contents.slice(0, 2)).toEqual(['hello', 'Hi.'])
    expect(contents[2]).toMatch(/^\[Summary of the conversation so far/)
  })
})

describe('automatic compaction', () => {
  test('a request that would pass ~85% of the context window compacts first, then sends the turn', async () => {
    const h = await createHarness(gateway)
    await h.catalog({ provider: 'ai-gateway', models: [{ id: 'gpt-test', contextWindow: 4000 }] })
    // Pasted, not typed: 14,000 typed keys each redraw a growing draft, seconds of work on a
    // loaded machine that compaction does not need (the model gets the same text either way).
    await turn(h, paste('x'.repeat(14_000)), 'ok')
    await h.type('short question\r')
    const summary = h.lastOf('model_request')!
    expect(summary.request.messages[0]!.content).toContain('You compact conversations')
    await modelEvents(h, summary.id, [{ type: 'text_delta', delta: 'The user sent a long text.' }, { type: 'finish', reason: 'stop' }])
    const next = h.lastOf('model_request')!
    expect(next.id).not.toBe(summary.id)
    expect(next.request.messages.slice(1).map((m) => m.content)).toEqual([
      '[Summary of the conversation so far, compacted to save context]\nThe user sent a long text.',
      'short question',
    ])
  })
})
