/**
 * Sessions in the engine: commit points, the snapshot round trip (every field), older-format
 * migration, newer-format refusal, damaged bytes, replay on resume, an interrupted turn that
 * continues, read-only sessions that fork, conflicts, the /resume picker and prompt history.
 */
import { describe, expect, test } from 'vitest'
import { createHarness, type Harness } from './harness.ts'
import { encodeStoredSession } from '../../src/page/agent-api/session-store-durability.ts'
import { composerRows, conversation, modelEvents, toolCall } from './turn-helpers.ts'

const text = (h: Harness) => conversation(h).join(' ').replace(/\s+/g, ' ')
const commits = (h: Harness) => h.allOf('session_commit').map((c) => c.bytes)
const lastCommit = (h: Harness) => commits(h).at(-1)!

/** The header and body of a snapshot, read the way the host does (meta) and as JSON (body). */
function readSnapshot(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const magic = new TextDecoder().decode(bytes.subarray(0, 4))
  const version = view.getUint32(4, true)
  const metaLen = view.getUint32(8, true)
  const meta = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + metaLen)))
  const body = JSON.parse(new TextDecoder().decode(bytes.subarray(12 + metaLen)))
  return { magic, version, meta, body }
}

function snapshotBytes(version: number, meta: object, body: object): Uint8Array {
  const m = new TextEncoder().encode(JSON.stringify(meta))
  const b = new TextEncoder().encode(JSON.stringify(body))
  const out = new Uint8Array(12 + m.length + b.length)
  out.set(new TextEncoder().encode('FXSN'))
  new DataView(out.buffer).setUint32(4, version, true)
  new DataView(out.buffer).setUint32(8, m.length, true)
  out.set(m, 12)
  out.set(b, 12 + m.length)
  return out
}

async function withSessions(boot = {}) {
  return createHarness({ sessions: true, ...boot })
}

async function turn(h: Harness, prompt: string, reply: string) {
  await h.type(`${prompt}\r`)
  await modelEvents(h, h.lastOf('model_request')!.id, [{ type: 'text_delta', delta: reply }, { type: 'finish', reason: 'stop' }])
}

describe('commit points', () => {
  test('nothing is written before the first prompt; a prompt is committed before the model sees it', async () => {
    const h = await withSessions()
    expect(commits(h)).toEqual([])
    await h.type('make a readme\r')
    const kinds = h.effects.map((e) => e.kind)
    expect(kinds.indexOf('session_commit')).toBeGreaterThanOrEqual(0)
    const snap = readSnapshot(lastCommit(h))
    expect(snap.body.messages).toEqual([{ role: 'user', content: 'make a readme' }])
    expect(snap.body.turn).toEqual({ active: true, runningCallId: '' })
    expect(snap.meta).toMatchObject({ title: 'make a readme', turns: 1, firstPrompt: 'make a readme' })
    expect(snap.meta.id).toMatch(/^s[0-9a-z]+-[0-9a-z]+$/)
  })

  test('a command start, its result and the turn end are commit points; the running call is recorded', async () => {
    const h = await withSessions()
    await h.type('list\r')
    await modelEvents(h, 1, [...toolCall(0, 'call_ls', 'run_command', '{"command":"ls"}'), { type: 'finish', reason: 'tool_calls' }])
    expect(readSnapshot(lastCommit(h)).body.turn).toEqual({ active: true, runningCallId: 'call_ls' })
    const before = commits(h).length
    await h.exec(h.lastOf('exec')!.id, { stdout: 'README.md\n', stderr: '', exitCode: 0 })
    expect(commits(h).length).toBe(before + 1)
    await modelEvents(h, h.lastOf('model_request')!.id, [{ type: 'text_delta', delta: 'One file.' }, { type: 'finish', reason: 'stop' }])
    const snap = readSnapshot(lastCommit(h))
    expect(snap.body.turn).toEqual({ active: false, runningCallId: '' })
    expect(snap.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant'])
  })

  test('no session store: no commits at all', async () => {
    const h = await createHarness()
    await turn(h, 'hi', 'Hello.')
    expect(commits(h)).toEqual([])
  })
})

describe('the snapshot round trip', () => {
  test('every field comes back: messages, tool calls, model, mode, fast, title; the transcript is replayed', async () => {
    const boot = { provider: 'ai-gateway', model: 'openai/gpt-5', providers: [{ name: 'ai-gateway', label: 'ai-gateway', model: 'openai/gpt-5' }] }
    const a = await withSessions(boot)
    await a.catalog({ provider: 'ai-gateway', models: [{ id: 'openai/gpt-5', fast: true }] })
    await a.type('/mode ask\r')
    await a.type('/fast\r')
    await a.type('count the files\r')
    await modelEvents(a, a.lastOf('model_request')!.id, [...toolCall(0, 'c1', 'run_command', '{"command":"ls | wc -l"}'), { type: 'finish', reason: 'tool_calls' }])
    await a.type('1') // approve the command (ask mode)
    await a.exec(a.lastOf('exec')!.id, { stdout: '3\n', stderr: '', exitCode: 0 })
    await modelEvents(a, a.lastOf('model_request')!.id, [{ type: 'text_delta', delta: 'There are **3** files.' }, { type: 'finish', reason: 'stop' }])
    await a.type('/rename Counting files\r')
    const saved = lastCommit(a)

    const b = await withSessions(boot)
    await b.session(saved)
    expect(text(b)).toContain('❯ count the files')
    expect(text(b)).toContain('● Ran ls | wc -l')
    expect(text(b)).toContain('There are 3 files.')
    expect(text(b)).toContain('Session resumed: Counting files')
    expect(b.allOf('model_request')).toEqual([]) // no model request on resume
    expect(b.viewport().filter((l) => l.trim()).at(-1)).toMatch(/^ {2}ask · gpt-5 · ⚡ · /)
    await b.type('thanks\r')
    const request = b.lastOf('model_request')!.request
    expect(request.messages.slice(1).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user'])
    expect(request.options).toEqual({ fast: true })
    // The same session id and title go on being written.
    expect(readSnapshot(lastCommit(b)).meta).toMatchObject({ id: readSnapshot(saved).meta.id, title: 'Counting files', turns: 2 })
  })

  test('a refusal comes back from a saved session drawn as a refusal, and still goes to the model as the reply', async () => {
    const a = await withSessions()
    await a.type('do something bad\r')
    await modelEvents(a, a.lastOf('model_request')!.id, [{ type: 'refusal_delta', delta: "I can't help with that." }, { type: 'finish', reason: 'stop' }])
    const saved = lastCommit(a)
    expect(readSnapshot(saved).body.messages.at(-1)).toEqual({ role: 'assistant', content: "I can't help with that.", refusal: true })

    const b = await withSessions()
    const written: string[] = []
    const write = b.term.write.bind(b.term)
    b.term.write = ((data: string | Uint8Array, cb?: () => void) => {
      written.push(typeof data === 'string' ? data : new TextDecoder().decode(data))
      write(data, cb)
    }) as typeof b.term.write
    await b.session(saved)
    expect(conversation(b)).toContain("⊘ I can't help with that.")
    expect(written.join('')).toContain("\x1b[33mI can't help with that.")
    await b.type('ok, something else\r')
    const request = b.lastOf('model_request')!.request
    expect(request.messages.slice(1)).toEqual([
      { role: 'user', content: 'do something bad' },
      { role: 'assistant', content: "I can't help with that.", refusal: true },
      { role: 'user', content: 'ok, something else' },
    ])
    // A later commit writes it again as a refusal.
    expect(readSnapshot(lastCommit(b)).body.messages[1]).toEqual({ role: 'assistant', content: "I can't help with that.", refusal: true })
  })

  test('a long session replays its last 10 turns and says how many earlier messages are left out', async () => {
    const messages = []
    for (let t = 1; t <= 14; t++) messages.push({ role: 'user', content: `question ${t}` }, { role: 'assistant', content: `answer ${t}.` })
    const h = await withSessions()
    await h.session(snapshotBytes(2, { id: 'long1', title: 'Long one', turns: 14 }, { messages, archived: [{ role: 'user', content: 'older' }, { role: 'assistant', content: 'Older.' }] }))
    const shown = text(h)
    expect(shown).toContain('10 earlier messages are not shown (/export saves them all).') // 8 + 2 archived
    expect(shown).not.toContain('question 4 ')
    expect(shown).toContain('❯ question 5 ● answer 5.')
    expect(shown).toContain('❯ question 14 ● answer 14.')
    await h.type('next\r')
    // Only the screen is cut: the model still gets every live message.
    expect(h.lastOf('model_request')!.request.messages.filter((m: { role: string }) => m.role === 'user')).toHaveLength(15)
  })

  test("messages not replayed are read when first used: escapes, accents and emoji come back whole", async () => {
    // Early turns are not shown on a resume, so their text is left in the snapshot until needed.
    const tricky = (t: number) => `q${t} "quoted" back\\slash tab\tnew\nline café ✓ 🚀 \u0001 end`
    const messages = []
    for (let t = 1; t <= 14; t++) messages.push({ role: 'user', content: tricky(t) }, { role: 'assistant', content: `answer ${t}: ${tricky(t)}` })
    const h = await withSessions()
    const saved = snapshotBytes(2, { id: 'lazy1', title: 'Lazy one', turns: 14 }, { messages })
    await h.session(saved)
    expect(text(h)).toContain('earlier messages are not shown')
    // The model gets every message exactly as it was saved.
    await h.type('next\r')
    const sent = h.lastOf('model_request')!.request.messages.slice(1, 29)
    expect(sent.map((m: { content: string }) => m.content)).toEqual(messages.map((m) => m.content))
    // /export reads every message's text now, the ones never shown too.
    await h.type('/export json\r')
    const exported = JSON.parse((h.lastOf('action')!.action as { content: string }).content)
    expect(exported.messages.slice(0, 28).map((m: { content: string }) => m.content)).toEqual(messages.map((m) => m.content))
    // And a commit writes the same messages again.
    expect(readSnapshot(lastCommit(h)).body.messages.slice(0, 28)).toEqual(messages)
  })

  test('long turns replay only as many as fit in 16 KiB of text, but always the last one', async () => {
    const messages = []
    // 3 KB a turn: the last five fit (15 KB), a sixth would not.
    for (let t = 1; t <= 8; t++) messages.push({ role: 'user', content: `question ${t}` }, { role: 'assistant', content: `answer ${t}: ${'words '.repeat(500)}` })
    const h = await withSessions()
    await h.session(snapshotBytes(2, { id: 'wide1', title: 'Wide one', turns: 8 }, { messages }))
    const shown = text(h)
    expect(shown).toContain('6 earlier messages are not shown (/export saves them all).')
    expect(shown).not.toContain('question 3 ')
    expect(shown).toContain('❯ question 4 ● answer 4:')
    expect(shown).toContain('❯ question 8 ● answer 8:')
    // One turn larger than the budget is still shown whole.
    const one = await withSessions()
    await one.session(snapshotBytes(2, { id: 'huge1', title: 'Huge one', turns: 2 }, { messages: [{ role: 'user', content: 'small' }, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'big' }, { role: 'assistant', content: `start ${'x'.repeat(20000)} end` }] }))
    expect(text(one)).toContain('2 earlier messages are not shown')
    expect(text(one)).toContain('end')
  })

  test('a session decoded before boot is restored from what the engine held, as if its bytes came after boot', async () => {
    const bytes = snapshotBytes(2, { id: 'early1', title: 'Decoded early', turns: 1 }, { messages: [{ role: 'user', content: 'read ahead' }, { role: 'assistant', content: 'Held.' }] })
    const h = await createHarness({ sessions: true }, (engine) => engine.decodeSession(bytes))
    await h.restoreDecoded()
    expect(text(h)).toContain('❯ read ahead ● Held.')
    expect(text(h)).toContain('Session resumed: Decoded early')
    // What it held is taken once: asked again, it says it has nothing, and starts fresh.
    await h.restoreDecoded()
    expect(text(h)).toContain('The saved session could not be opened: the host asked for a session it never sent.')
  })

  test('an older format (version 1: messages only) migrates and says so', async () => {
    const h = await withSessions()
    await h.session(snapshotBytes(1, { id: 'old1', title: 'Old one', turns: 1 }, { messages: [{ role: 'user', content: 'hello from v1' }, { role: 'assistant', content: 'Hi.' }] }))
    expect(text(h)).toContain('❯ hello from v1')
    expect(text(h)).toContain('Session resumed: Old one (saved by an older fxterm; updated)')
    await h.type('more\r')
    const snap = readSnapshot(lastCommit(h))
    expect(snap.version).toBe(2)
    expect(snap.meta.id).toBe('old1')
  })

  test('a newer format is refused with a notice and never overwritten: the next commit uses a new id', async () => {
    const h = await withSessions()
    await h.session(snapshotBytes(9, { id: 'future', title: 'From the future' }, { messages: [] }))
    expect(text(h)).toContain('The saved session could not be opened: it was saved by a newer fxterm (format 9). It was left as it is; this is a new session.')
    await h.type('hi\r')
    expect(readSnapshot(lastCommit(h)).meta.id).not.toBe('future')
  })

  test.each([
    ['truncated', (b: Uint8Array) => b.subarray(0, b.length - 20)],
    ['not a snapshot', () => new TextEncoder().encode('{"hello":1}')],
    ['damaged body', (b: Uint8Array) => { const c = b.slice(); c[c.length - 5] = 0x7b; return c }],
  ])('%s bytes give a clear notice and a fresh session', async (_name, damage) => {
    const a = await withSessions()
    await turn(a, 'keep me', 'Kept.')
    const h = await withSessions()
    await h.session(damage(lastCommit(a)))
    expect(text(h)).toContain('The saved session could not be opened')
    expect(h.allOf('event').map((e) => e.event.type)).toContain('session.load_error')
    await h.type('still works\r')
    expect(h.lastOf('model_request')!.request.messages.slice(1)).toEqual([{ role: 'user', content: 'still works' }])
  })
})

test("an agent's session record in a shared store is refused clearly and never written over", async () => {
  // createFxAgent and the terminal may share one sessionStore; their records differ.
  const agentRecord = encodeStoredSession({ turns: [{ messageId: 'm1', input: 'from the agent', status: 'done' }], chunks: 0, lineCount: 0 }, [])
  const h = await withSessions()
  await h.session(agentRecord)
  expect(text(h)).toContain('The saved session could not be opened')
  expect(commits(h)).toEqual([]) // opening it wrote nothing
  await h.type('go on here\r')
  // What the terminal writes next is a session of its own (the bridge stores it under the id in
  // its header, a new one), so the agent's record is left as it was.
  const written = readSnapshot(lastCommit(h))
  expect([written.magic, written.meta.turns, written.meta.firstPrompt]).toEqual(['FXSN', 1, 'go on here'])
})

describe('crashes, tabs and conflicts', () => {
  test('a session saved mid-command continues once the person says so: the command is reported as maybe partly run, not re-run', async () => {
    const a = await withSessions()
    await a.type('delete the logs\r')
    await modelEvents(a, 1, [...toolCall(0, 'c9', 'run_command', '{"command":"rm -r logs"}'), { type: 'finish', reason: 'tool_calls' }])
    const saved = lastCommit(a) // the tab dies here, the command in flight

    const b = await withSessions()
    await b.session(saved)
    expect(b.allOf('exec')).toEqual([]) // never re-run on its own
    await b.type('1') // "Continue the interrupted turn?" (crash-resume.test.ts): yes
    expect(text(b)).toContain('The last turn was interrupted; fxterm is continuing it.')
    const request = b.lastOf('model_request')!.request
    expect(request.messages.slice(1)).toEqual([
      { role: 'user', content: 'delete the logs' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c9', name: 'run_command', arguments: '{"command":"rm -r logs"}' }] },
      { role: 'tool', toolCallId: 'c9', content: expect.stringContaining('may have partly run') },
      { role: 'user', content: expect.stringContaining('The previous turn was interrupted') },
    ])
  })

  test('the note that an interrupted turn continues is not a turn: not counted, not replayed as a prompt', async () => {
    const a = await withSessions()
    await a.type('count the files\r')
    const b = await withSessions()
    await b.session(lastCommit(a)) // continues the turn: the note joins the conversation
    await modelEvents(b, b.lastOf('model_request')!.id, [{ type: 'text_delta', delta: 'There are 3.' }, { type: 'finish', reason: 'stop' }])
    const snap = readSnapshot(lastCommit(b))
    expect(snap.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'user', 'assistant'])
    expect(snap.meta).toMatchObject({ turns: 1, firstPrompt: 'count the files' })

    const c = await withSessions()
    await c.session(lastCommit(b))
    expect(text(c)).toContain('count the files')
    expect(text(c)).not.toContain('The previous turn was interrupted')
  })

  test('text that needs escaping survives commit, resume and commit again byte for byte', async () => {
    const tricky = 'quote " backslash \\ tab \t nul \u0000 del \u007f bell \u0007 é 日本 🎉 </script>'
    const a = await withSessions()
    await turn(a, `say ${tricky}`, `Here: ${tricky}\nand a second line`)
    const first = lastCommit(a)
    const b = await withSessions()
    await b.session(first)
    await b.type('/rename Same title\r')
    const again = readSnapshot(lastCommit(b))
    expect(again.body.messages).toEqual(readSnapshot(first).body.messages)
    expect(again.body.messages[1].content).toBe(`Here: ${tricky}\nand a second line`)
    // The next turn grows the conversation: the new reply is written, the old ones unchanged.
    await turn(b, 'and now?', 'Now more.')
    expect(readSnapshot(lastCommit(b)).body.messages.slice(-2)).toEqual([
      { role: 'user', content: 'and now?' },
      { role: 'assistant', content: 'Now more.' },
    ])
  })

  test('a resumed session keeps its messages whole while later inputs come in (they are read from the bytes it was sent)', async () => {
    const a = await withSessions()
    await turn(a, 'first question', 'A first answer that the commit after resume must write again unchanged.')
    await turn(a, 'second question', 'A second answer, also kept as it was.')
    const first = lastCommit(a)
    const b = await withSessions()
    await b.session(first)
    // A paste almost as long as the session: it fills the engine's input buffer, where the session arrived.
    await b.type('x'.repeat(first.byteLength - 64))
    await b.type('\x03') // Ctrl+C: the draft is dropped, the session goes on
    await b.type('/rename Kept whole\r')
    expect(readSnapshot(lastCommit(b)).body.messages).toEqual(readSnapshot(first).body.messages)
  })

  test('so does a session decoded before boot', async () => {
    const a = await withSessions()
    await turn(a, 'first question', 'A long first answer that the commit after resume must write again unchanged. '.repeat(50))
    const first = lastCommit(a)
    // The boot that comes between (a long prompt history in it) lands where the session arrived.
    const b = await createHarness({ sessions: true, history: ['y'.repeat(first.byteLength - 1024)] }, (engine) => engine.decodeSession(first))
    await b.restoreDecoded()
    await b.type('/rename Kept whole\r')
    expect(readSnapshot(lastCommit(b)).body.messages).toEqual(readSnapshot(first).body.messages)
  })

  test('a prompt accepted just before a crash is not lost: resume sends it', async () => {
    const a = await withSessions()
    await a.type('the prompt that must survive\r')
    const b = await withSessions()
    await b.session(lastCommit(a))
    expect(b.lastOf('model_request')!.request.messages[1]).toEqual({ role: 'user', content: 'the prompt that must survive' })
  })

  test('read-only (held by another tab): a notice, no commits, and sending forks into a new session', async () => {
    const a = await withSessions()
    await turn(a, 'shared work', 'Done.')
    const original = readSnapshot(lastCommit(a)).meta
    const b = await withSessions({ seed: 2 }) // another tab: another random seed
    await b.session(lastCommit(a), true)
    expect(text(b)).toContain('This session is open in another tab, so it opened read-only here.')
    expect(commits(b)).toEqual([])
    await b.type('my own direction\r')
    const fork = readSnapshot(lastCommit(b))
    expect(fork.meta.id).not.toBe(original.id)
    expect(fork.meta.title).toBe('shared work (fork)')
    expect(fork.body.messages.map((m: { content: string }) => m.content)).toEqual(['shared work', 'Done.', 'my own direction'])
  })

  test('a conflicting commit forks the session and saves it again; nothing is dropped', async () => {
    const h = await withSessions()
    await turn(h, 'first', 'One.')
    const id = readSnapshot(lastCommit(h)).meta.id
    const before = commits(h).length
    await h.sessionEvent({ type: 'conflict' })
    expect(text(h)).toContain('Another tab saved this session at the same time. This conversation continues as a new session: first (fork).')
    expect(commits(h).length).toBe(before + 1)
    const fork = readSnapshot(lastCommit(h))
    expect(fork.meta.id).not.toBe(id)
    expect(fork.body.messages.map((m: { content: string }) => m.content)).toEqual(['first', 'One.'])
  })

  test('a failing store is reported once per streak', async () => {
    const h = await withSessions()
    await h.type('a\r')
    await h.sessionEvent({ type: 'commit_error', message: 'quota exceeded' })
    await h.sessionEvent({ type: 'commit_error', message: 'quota exceeded' })
    expect(text(h).match(/could not be saved/g)).toHaveLength(1)
    await h.sessionEvent({ type: 'commit_ok' })
    await h.sessionEvent({ type: 'commit_error', message: 'quota exceeded' })
    expect(text(h).match(/could not be saved/g)).toHaveLength(2)
  })
})

describe('/resume, /sessions, /rename and history', () => {
  const entries = [
    { id: 's2', updatedAtMs: 1_000_000 - 5 * 60_000, title: 'Fix the tests', turns: 3, firstPrompt: 'fix the tests' },
    { id: 's1', updatedAtMs: 1_000_000 - 2 * 86_400_000, title: 'Write a parser', turns: 12, firstPrompt: 'write a parser' },
  ]

  test('/resume asks for the list and opens a picker with title, age and turns; Enter opens the choice', async () => {
    const h = await withSessions()
    await h.type('/resume\r')
    expect(h.lastOf('session_list')).toEqual({ kind: 'session_list' })
    await h.sessionList(entries)
    const view = h.viewport().join('\n')
    expect(view).toContain('❯ ' + 'Fix the tests'.padEnd(32) + ' 5m ago · 3 turns')
    expect(view).toContain('  ' + 'Write a parser'.padEnd(32) + ' 2d ago · 12 turns')
    await h.type('pars\r')
    expect(h.lastOf('session_open')).toEqual({ kind: 'session_open', id: 's1' })
  })

  test('Delete in the picker asks first; y removes, any other key keeps', async () => {
    const h = await withSessions()
    await h.type('/resume\r')
    await h.sessionList(entries)
    await h.type('\x1b[3~')
    expect(h.viewport().join('\n')).toContain('Delete the session "Fix the tests"? y deletes it · any other key keeps it')
    await h.type('n')
    expect(h.allOf('session_remove')).toEqual([])
    await h.type('\x1b[3~y')
    expect(h.allOf('session_remove')).toEqual([{ kind: 'session_remove', id: 's2' }])
    expect(h.viewport().join('\n')).not.toContain('Fix the tests'.padEnd(32))
  })

  test('/sessions prints the list; /rename commits the new title', async () => {
    const h = await withSessions()
    await h.type('/sessions\r')
    await h.sessionList(entries)
    expect(conversation(h)).toContain('    ' + 'Fix the tests'.padEnd(40) + ' 5m ago · 3 turns')
    await turn(h, 'hello', 'Hi.')
    await h.type('/rename   A better name  \r')
    expect(readSnapshot(lastCommit(h)).meta.title).toBe('A better name')
  })

  test('history from boot walks with Up; every prompt and command is appended; /history clear forgets', async () => {
    const h = await withSessions({ history: ['first old prompt', 'second old prompt'] })
    await h.type('\x1b[A')
    expect(composerRows(h)).toEqual(['❯ second old prompt'])
    await h.type('\x1b[B')
    await turn(h, 'new one', 'ok')
    await h.type('/status\r')
    expect(h.allOf('history_append').map((e) => e.value)).toEqual(['new one', '/status'])
    await h.type('/history clear\r')
    expect(h.lastOf('history_clear')).toEqual({ kind: 'history_clear' })
    await h.type('\x1b[A')
    expect(composerRows(h)).toEqual(['❯ '])
  })

  test('a setting changed in another tab applies here without being written back', async () => {
    const h = await withSessions()
    await h.configChanged('mode', 'ask')
    expect(h.viewport().filter((l) => l.trim()).at(-1)).toMatch(/^ {2}ask · demo/)
    expect(h.allOf('config_set')).toEqual([])
  })
})
