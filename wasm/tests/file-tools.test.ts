/**
 * The model's file tools in the engine: offered when the workspace answers workspace ops, asked of
 * the host with output 24, drawn from its answer through the sanitizer, approved first in ask
 * mode, and refused as unknown when the workspace has none. The host's side is played by the test.
 */
import { describe, expect, test } from 'vitest'
import { createHarness } from './harness.ts'
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

describe('file tools', () => {
  test('are offered with run_command, and a call asks the workspace and draws its diff row', async () => {
    const h = await createHarness({ fileTools: true })
    await h.type('edit it\r')
    const tools = h.lastOf('model_request')?.request.tools.map((t) => t.name)
    expect(tools).toEqual(['run_command', 'read_file', 'write_file', 'edit_file'])
    await modelEvents(h, 1, [...toolCall(0, 'call_e', 'edit_file', EDIT_ARGS), { type: 'finish', reason: 'tool_calls' }])
    expect(h.allOf('workspace_op')).toEqual([
      { kind: 'workspace_op', id: 0, request: { op: 'turn' } },
      { kind: 'workspace_op', id: 2, request: { op: 'file', name: 'edit_file', arguments: EDIT_ARGS, cwd: '/workspace', apply: true } },
    ])
    await h.workspace(2, EDIT_ANSWER)
    expect(conversation(h)).toEqual(['❯ edit it', '', '● Edit a.txt +1 −1', '  └  @@ -1,1 +1,1 @@', '     -one', '     +two'])
    const messages = h.lastOf('model_request')?.request.messages ?? []
    expect(messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'call_e', content: EDIT_ANSWER.result })
  })

  test('draw the host’s diff text without its escape sequences', async () => {
    const h = await createHarness({ fileTools: true })
    await h.type('write it\r')
    await modelEvents(h, 1, [...toolCall(0, 'call_w', 'write_file', '{"path":"x","content":"y"}'), { type: 'finish', reason: 'tool_calls' }])
    await h.workspace(2, { ...EDIT_ANSWER, verb: 'Create', path: 'x\x1b[2J', diff: '@@ -0,0 +1,1 @@\n+\x1b]0;pwned\x07hi\x1b[31m' })
    expect(conversation(h)).toEqual(['❯ write it', '', '● Create x +1 −1', '  └  @@ -0,0 +1,1 @@', '     +hi'])
  })

  test('show the diff before the change in ask mode, and apply it only after yes', async () => {
    const h = await createHarness({ fileTools: true, permission: 'prompt' })
    await h.type('edit it\r')
    await modelEvents(h, 1, [...toolCall(0, 'call_e', 'edit_file', EDIT_ARGS), { type: 'finish', reason: 'tool_calls' }])
    expect(h.lastOf('workspace_op')?.request).toEqual({ op: 'file', name: 'edit_file', arguments: EDIT_ARGS, cwd: '/workspace', apply: false })
    await h.workspace(2, { ...EDIT_ANSWER, result: '' })
    const screen = h.screen()
    expect(screen).toContain('● Edit a.txt +1 −1\n  └  @@ -1,1 +1,1 @@\n     -one\n     +two\n● Make this change?')
    await h.type('1')
    expect(h.lastOf('workspace_op')).toEqual({ kind: 'workspace_op', id: 3, request: { op: 'file', name: 'edit_file', arguments: EDIT_ARGS, cwd: '/workspace', apply: true } })
  })

  test('a refusal is drawn as an error and goes to the model as the result', async () => {
    const h = await createHarness({ fileTools: true })
    await h.type('escape\r')
    await modelEvents(h, 1, [...toolCall(0, 'call_x', 'write_file', '{"path":"../../x","content":""}'), { type: 'finish', reason: 'tool_calls' }])
    const refusal = 'Refused: "../../x" is outside the workspace (/workspace); only files under it can be used. Nothing was changed.'
    await h.workspace(2, { ok: false, result: refusal })
    expect(h.screen()).toContain('✗ Refused: "../../x" is outside the workspace (/workspace); only files under it\n  can be used. Nothing was changed.')
    expect(h.lastOf('model_request')?.request.messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'call_x', content: refusal })
  })

  test('are not offered, and a call is refused, when the workspace has no workspace ops', async () => {
    const h = await createHarness()
    await h.type('edit it\r')
    expect(h.lastOf('model_request')?.request.tools.map((t) => t.name)).toEqual(['run_command'])
    await modelEvents(h, 1, [...toolCall(0, 'call_e', 'edit_file', EDIT_ARGS), { type: 'finish', reason: 'tool_calls' }])
    expect(h.allOf('workspace_op')).toEqual([])
    expect(h.screen()).toContain('✗ The model asked for an unknown tool "edit_file"; only run_command exists.')
  })
})

test('/new tells the workspace that another conversation begins', async () => {
  const h = await createHarness({ fileTools: true })
  await h.type('/new\r')
  expect(h.allOf('workspace_op').map((e) => e.request)).toEqual([{ op: 'session' }])
})

describe('/undo', () => {
  test('shows what the workspace restored, and the next request tells the model', async () => {
    const h = await createHarness({ fileTools: true })
    await h.type('/undo\r')
    const op = h.lastOf('workspace_op')
    expect(op?.request).toEqual({ op: 'undo' })
    await h.workspace(op!.id, { restored: ['a.txt'], message: 'Restored 1 file to how it was before the last turn: a.txt' })
    expect(h.screen()).toContain('Restored 1 file to how it was before the last turn: a.txt')
    await h.type('go on\r')
    const messages = h.lastOf('model_request')?.request.messages ?? []
    expect(messages.slice(1).map((m) => m.content)).toEqual([
      '[fxterm: the person ran /undo, which said "Restored 1 file to how it was before the last turn: a.txt". These files were put back as they were before the last turn that changed them: a.txt. Read them again before relying on what you wrote.]',
      'go on',
    ])
  })

  test('a resume draws the note as the line the person saw, never as their prompt', async () => {
    const a = await createHarness({ fileTools: true, sessions: true })
    await a.type('/undo\r')
    await a.workspace(a.lastOf('workspace_op')!.id, { restored: ['a.txt'], message: 'Restored 1 file to how it was before the last turn: a.txt' })
    await a.type('go on\r')
    const b = await createHarness({ fileTools: true, sessions: true })
    await b.session(a.allOf('session_commit').at(-1)!.bytes)
    expect(b.screen()).toContain('Restored 1 file to how it was before the last turn: a.txt')
    expect(b.screen()).not.toContain('[fxterm:')
    expect(b.screen()).toContain('❯ go on')
  })
})

describe('a resume draws file tool rows as they were drawn live', () => {
  test('an edit, a write and a refusal come back as their rows, never as "Ran {json}"', async () => {
    const a = await createHarness({ fileTools: true, sessions: true })
    await a.type('change things\r')
    await modelEvents(a, 1, [
      ...toolCall(0, 'call_e', 'edit_file', EDIT_ARGS),
      ...toolCall(1, 'call_w', 'write_file', '{"path":"/workspace/docs/new.md","content":"hi\\n"}'),
      ...toolCall(2, 'call_x', 'edit_file', '{"path":"../etc/passwd","old_string":"a","new_string":"b"}'),
      ...toolCall(3, 'call_r', 'read_file', '{"path":"/workspace/a.txt"}'),
      { type: 'finish', reason: 'tool_calls' },
    ])
    await a.workspace(a.lastOf('workspace_op')!.id, EDIT_ANSWER)
    await a.workspace(a.lastOf('workspace_op')!.id, { ok: true, result: 'Created docs/new.md (+1 −0 lines).', verb: 'Create', path: 'docs/new.md', added: 1, removed: 0, diff: '@@ -0,0 +1,1 @@\n+hi' })
    await a.workspace(a.lastOf('workspace_op')!.id, { ok: false, result: 'Refused: ../etc/passwd is outside /workspace.' })
    await a.workspace(a.lastOf('workspace_op')!.id, { ok: true, result: '     1\ttwo', verb: 'Read', path: 'a.txt' })
    const live = conversation(a).filter((line) => line.startsWith('●') || line.startsWith('✗'))

    const b = await createHarness({ fileTools: true, sessions: true })
    await b.session(a.allOf('session_commit').at(-1)!.bytes)
    const replayed = conversation(b).filter((line) => line.startsWith('●') || line.startsWith('✗'))
    expect(replayed.slice(0, 4)).toEqual(live.slice(0, 4))
    expect(replayed.slice(0, 4)).toEqual(['● Edit a.txt +1 −1', '● Create docs/new.md +1 −0', '✗ Refused: ../etc/passwd is outside /workspace.', '● Read a.txt'])
  })
})
