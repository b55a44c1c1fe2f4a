/**
 * A reload draws what the live turn drew (issue 32): one session goes through every row kind the
 * engine draws in a turn (reasoning, a reply, a command with output, an edit, a write, a refused
 * file tool, an unknown tool, an approved and a denied command in ask mode, a refusal, a call the
 * output limit cut short, a reply with nothing in it, a failed request, /undo's line), is committed,
 * and is resumed in a fresh engine; the conversation rows must be the same. (Images draw no row:
 * only the agent API sends them, and the engine keeps none.)
 */
import { expect, test } from 'vitest'
import { ErrorCode } from '../../src/shared/errors.ts'
import { createHarness, type Harness } from './harness.ts'
import { conversation, modelEvents, toolCall } from './turn-helpers.ts'

const EDIT_ARGS = '{"path":"a.txt","old_string":"one","new_string":"two"}'
const EDIT_ANSWER = {
  ok: true,
  result: 'Edited a.txt: replaced 1 occurrence (+1 −1 lines).',
  verb: 'Edit',
  path: 'a.txt',
  added: 1,
  removed: 1,
  diff: '--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,1 @@\n-one\n+two',
}
const WRITE_ANSWER = { ok: true, result: 'Created docs/new.md (+1 −0 lines).', verb: 'Create', path: 'docs/new.md', added: 1, removed: 0, diff: '@@ -0,0 +1,1 @@\n+hi' }
const REFUSED = 'Refused: "../../x" is outside the workspace (/workspace); only files under it can be used. Nothing was changed.'

const lastRequest = (h: Harness) => h.lastOf('model_request')!.id
const answerOp = (h: Harness, answer: unknown) => h.workspace(h.lastOf('workspace_op')!.id, answer)

/** One session through every row kind; returns its harness, idle, with the session committed. */
async function everyRowKind(): Promise<Harness> {
  const h = await createHarness({ fileTools: true, sessions: true })
  await h.type('change things\r')
  await modelEvents(h, lastRequest(h), [
    { type: 'reasoning_delta', delta: 'The person wants a listing and two changes.' },
    { type: 'text_delta', delta: 'Looking first.' },
    ...toolCall(0, 'call_ls', 'run_command', '{"command":"ls"}'),
    ...toolCall(1, 'call_e', 'edit_file', EDIT_ARGS),
    ...toolCall(2, 'call_w', 'write_file', '{"path":"/workspace/docs/new.md","content":"hi\\n"}'),
    ...toolCall(3, 'call_x', 'write_file', '{"path":"../../x","content":""}'),
    ...toolCall(4, 'call_u', 'search_web', '{"q":"x"}'),
    { type: 'finish', reason: 'tool_calls' },
  ])
  await h.exec(h.lastOf('exec')!.id, { stdout: 'a.txt\ndocs\n', stderr: '', exitCode: 0 })
  await answerOp(h, EDIT_ANSWER)
  await answerOp(h, WRITE_ANSWER)
  await answerOp(h, { ok: false, result: REFUSED })
  await modelEvents(h, lastRequest(h), [{ type: 'text_delta', delta: 'Done: **two** changes.' }, { type: 'finish', reason: 'stop' }])

  await h.type('/mode ask\r')
  await h.type('clean up\r')
  await modelEvents(h, lastRequest(h), [
    ...toolCall(0, 'call_ok', 'run_command', '{"command":"echo yes"}'),
    ...toolCall(1, 'call_no', 'run_command', '{"command":"rm -rf docs"}'),
    { type: 'finish', reason: 'tool_calls' },
  ])
  await h.type('1') // echo yes: yes
  await h.exec(h.lastOf('exec')!.id, { stdout: 'yes\n', stderr: '', exitCode: 0 })
  await h.type('3') // rm -rf docs: no
  await modelEvents(h, lastRequest(h), [{ type: 'text_delta', delta: 'Left docs alone.' }, { type: 'finish', reason: 'stop' }])

  await h.type('say something rude\r')
  await modelEvents(h, lastRequest(h), [{ type: 'refusal_delta', delta: 'I cannot help with that.' }, { type: 'finish', reason: 'stop' }])

  await h.type('long one\r')
  await modelEvents(h, lastRequest(h), [
    { type: 'text_delta', delta: 'Writing.' },
    ...toolCall(0, 'call_cut', 'run_command', '{"command":"echo'),
    { type: 'finish', reason: 'length' },
  ])
  await modelEvents(h, lastRequest(h), [{ type: 'text_delta', delta: 'Cut short.' }, { type: 'finish', reason: 'stop' }])

  await h.type('say nothing\r')
  await modelEvents(h, lastRequest(h), [{ type: 'finish', reason: 'stop' }])
  await h.type('fail\r')
  await h.model(lastRequest(h), { type: 'error', code: ErrorCode.FX_MODEL_SERVER_ERROR, message: 'The server failed.' })

  await h.type('/undo\r')
  await answerOp(h, { restored: ['a.txt'], message: 'Restored 1 file to how it was before the last turn: a.txt' })
  await h.type('thanks\r')
  await modelEvents(h, lastRequest(h), [{ type: 'text_delta', delta: 'You are welcome.' }, { type: 'finish', reason: 'stop' }])
  return h
}

/**
 * The conversation rows, without what only one side draws: the resume's own line, and what a
 * slash command printed (/mode's answer is no part of the conversation, so it is not replayed).
 */
function rows(h: Harness): string[] {
  const lines = conversation(h)
  const dropped = lines.flatMap((line, i) => (/^  (Session resumed|Mode): /.test(line) ? [i, i + 1] : []))
  const kept = lines.filter((_, i) => !dropped.includes(i))
  while (kept.at(-1) === '') kept.pop()
  return kept
}

test('a resume draws every row kind as the live turn drew it', async () => {
  const live = await everyRowKind()
  const resumed = await createHarness({ fileTools: true, sessions: true })
  await resumed.session(live.allOf('session_commit').at(-1)!.bytes)
  const before = rows(live)
  const after = rows(resumed)
  expect(after).toEqual(before)
  // Each kind was drawn (a kind drawn on neither side would pass unseen).
  expect(before).toEqual(
    expect.arrayContaining([
      '∴ The person wants a listing and two changes.',
      '● Ran ls',
      '● Edit a.txt +1 −1',
      '     +two',
      '● Create docs/new.md +1 −0',
      '✗ The model asked for an unknown tool "search_web"; only run_command exists.',
      '● Ran echo yes',
      '● Denied rm -rf docs',
      '⊘ I cannot help with that.',
      "  The model's output limit cut a tool call short; it did not run.",
      '  The model finished without a reply.',
      '✗ The server failed.',
      '  Restored 1 file to how it was before the last turn: a.txt',
    ]),
  )
})

test('a resume draws a stopped turn and a denied change as they were drawn', async () => {
  const live = await createHarness({ fileTools: true, sessions: true })
  await live.type('/mode ask\r')
  await live.type('write it\r')
  await modelEvents(live, lastRequest(live), [...toolCall(0, 'call_w', 'write_file', '{"path":"/workspace/b.txt","content":"b"}'), { type: 'finish', reason: 'tool_calls' }])
  await answerOp(live, { ...WRITE_ANSWER, result: '', path: 'b.txt' }) // the preview, then the question
  await live.type('3') // no
  await modelEvents(live, lastRequest(live), [{ type: 'text_delta', delta: 'Not written.' }, { type: 'finish', reason: 'stop' }])
  await live.type('/mode auto\r')
  await live.type('build\r')
  await modelEvents(live, lastRequest(live), [
    ...toolCall(0, 'call_s', 'run_command', '{"command":"sleep 100"}'),
    ...toolCall(1, 'call_t', 'run_command', '{"command":"ls"}'),
    { type: 'finish', reason: 'tool_calls' },
  ])
  await live.type('\x1b') // Esc while sleep 100 runs
  expect(conversation(live)).toContain('● Ran sleep 100 · cancelled')

  const resumed = await createHarness({ fileTools: true, sessions: true })
  await resumed.session(live.allOf('session_commit').at(-1)!.bytes)
  expect(rows(resumed)).toEqual(rows(live))
  expect(rows(resumed)).toEqual(expect.arrayContaining(['● Denied Create b.txt', '● Ran sleep 100 · cancelled', '  Interrupted · tell fxterm what to do instead']))
})
