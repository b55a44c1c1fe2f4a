// The session this engine writes: its id and title, when it is committed (the host stores the
// bytes with revisions), and how a saved one comes back — replayed onto the screen, and, when it
// was saved mid-turn, continued with the model told what happened.

import { ByteBuf } from '../util/byte-buf'
import { OUT_SESSION_COMMIT } from '../abi/frames'
import { GRAY, YELLOW } from '../screen/ansi'
import { Message, ToolCallRec, ROLE_ASSISTANT, ROLE_TOOL, ROLE_USER } from '../agent/conversation'
import { isFileTool } from '../agent/file-tools'
import { FileChange } from '../screen/file-rows'
import { parseJson } from '../util/json'
import { commandText } from '../agent/compaction'
import { decodeSnapshot, encodeSnapshotInto, Snapshot } from './snapshot'
import { isFxtermNote, readShellNote, undoNoteMessage } from '../agent/fxterm-notes'
import { continueInterrupted } from './interrupted-turn'
import { SessionState as Engine } from './session-state' // the session functions' part of the engine

/**
 * What is replayed onto the screen on resume (older turns are in /export; the model gets them
 * all): the last turns, at most ten, and only as many as fit in 16 KiB of message text (always
 * the last one). That is three or four screens of scrollback, enough to pick up where one left
 * off. Drawing is most of a resume: xterm.js took ~70 ms on a slow machine to parse ten 4 KB
 * turns (480 rows) on a page whose code had just loaded.
 */
const REPLAY_TURNS = 10
const REPLAY_BYTES = 16 * 1024
const TITLE_MAX = 60

/** Writes the session if a commit point passed during this feed. */
export function commitIfDue(engine: Engine): void {
  const session = engine.session
  const loop = engine.loop
  if (!session.due && !loop.commitDue) return
  session.due = false
  loop.commitDue = false
  if (!session.enabled || session.readOnly || loop.conv.messages.length + loop.conv.archived.length == 0) return
  if (session.id.length == 0) {
    session.id = session.newId(engine.nowMs)
    session.createdMs = engine.nowMs
  }
  const s = new Snapshot()
  s.meta.id = session.id
  s.meta.createdMs = session.createdMs
  s.meta.updatedMs = engine.nowMs
  const all = loop.conv.all()
  let turns = 0
  let first = ''
  for (let i = 0; i < all.length; i++) {
    if (all[i].role != ROLE_USER || isFxtermNote(all[i])) continue
    if (turns == 0) first = all[i].content.toString()
    turns++
  }
  if (!session.renamed) session.title = titleOf(first)
  s.meta.title = session.title
  s.meta.turns = turns
  s.meta.firstPrompt = first.length > 200 ? first.substring(0, 200) : first
  s.model = loop.model
  s.provider = loop.provider
  s.mode = engine.modeAsk ? 'ask' : 'auto'
  s.fast = loop.fast
  s.messages = loop.conv.messages
  s.archived = loop.conv.archived
  s.turnActive = loop.inTurn
  s.runningCallId = loop.runningCallId
  const at = engine.fx.begin(OUT_SESSION_COMMIT, 0)
  encodeSnapshotInto(engine.fx.buf, s)
  engine.fx.end(at)
}

/** A title from the first prompt: its first line, cut to 60 characters. */
export function titleOf(prompt: string): string {
  let t = prompt.trim()
  const nl = t.indexOf('\n')
  if (nl >= 0) t = t.substring(0, nl)
  if (t.length > TITLE_MAX) t = t.substring(0, TITLE_MAX - 1) + '…'
  return t.length > 0 ? t : 'Untitled'
}

/** A snapshot decoded ahead of its restore (IN_SESSION_DECODE), until an IN_SESSION takes it. */
let heldSnapshot: Snapshot | null = null

/** Decodes `bytes` (handed over: never written again) now, for the restore that follows (the engine may not be booted yet). */
export function holdSnapshot(bytes: Uint8Array, start: i32, end: i32): void {
  heldSnapshot = decodeSnapshot(bytes, start, end, true)
}

function takeHeldSnapshot(): Snapshot {
  const s = heldSnapshot
  heldSnapshot = null
  if (s != null) return s
  const none = new Snapshot()
  none.error = 'the host asked for a session it never sent'
  return none
}

/**
 * A saved session from the host (`--resume`, or the /resume picker), in bytes handed over to it.
 * Damaged or newer bytes are refused with a notice, and the record is not overwritten: this
 * engine starts a new one.
 */
export function restoreSession(engine: Engine, bytes: Uint8Array, start: i32, end: i32, readOnly: bool, held: bool = false): void {
  const t = engine.transcript
  const s = held ? takeHeldSnapshot() : decodeSnapshot(bytes, start, end, true)
  if (s.error.length > 0) {
    t.notice('The saved session could not be opened: ' + s.error + '. It was left as it is; this is a new session.', YELLOW)
    engine.loop.event('{"type":"session.load_error"}')
    return
  }
  const loop = engine.loop
  if (loop.busy) loop.interrupt()
  loop.resumeCallId = ''
  loop.resumeCommand = null // a question about the session this one replaces is moot
  const session = engine.session
  session.reset()
  session.id = s.meta.id
  session.title = s.meta.title
  session.renamed = true // keep the stored title, renamed or not
  session.createdMs = s.meta.createdMs
  session.readOnly = readOnly
  loop.conv.messages = s.messages
  loop.conv.archived = s.archived
  loop.sessionChanged()
  loop.forgetContextCount()
  if (s.model.length > 0 && (s.provider.length == 0 || s.provider == loop.provider)) {
    loop.model = s.model
    loop.fast = s.fast
  }
  if (s.mode == 'ask') engine.setModeAsk(true, false)
  replay(engine, s)
  let note = 'Session resumed: ' + (s.meta.title.length > 0 ? s.meta.title : 'Untitled')
  if (s.version < 2) note += ' (saved by an older fxterm; updated)'
  t.notice(note, GRAY)
  if (readOnly) {
    t.notice('This session is open in another tab, so it opened read-only here. Send a message to continue in a copy (a fork).', YELLOW)
  }
  loop.event('{"type":"session.resumed","turns":' + s.meta.turns.toString() + '}')
  if (s.turnActive) continueInterrupted(engine, s.runningCallId)
}

/** Draws the last turns as they were shown: prompts, replies, commands with their output. */
function replay(engine: Engine, s: Snapshot): void {
  const t = engine.transcript
  const messages = s.messages
  // From the end, turn by turn (a turn starts at a prompt): `from` is where the shown ones start;
  // 0 (everything) when every turn fits.
  let from = 0
  let users = 0
  let bytes = 0
  let turnBytes = 0
  let cut = false
  for (let i = messages.length - 1; i >= 0 && !cut; i--) {
    const m = messages[i]
    turnBytes += m.contentLength()
    if (m.role != ROLE_USER || isFxtermNote(m)) continue
    cut = users > 0 && bytes + turnBytes > REPLAY_BYTES // `from` stays at the turn after this one
    if (cut) break
    bytes += turnBytes
    turnBytes = 0
    from = i
    cut = ++users == REPLAY_TURNS
  }
  if (!cut) from = 0
  const hidden = s.archived.length + from
  if (hidden > 0) t.notice(hidden.toString() + ' earlier messages are not shown (/export saves them all).', GRAY)
  const calls = new Map<string, ToolCallRec>()
  for (let i = from; i < messages.length; i++) {
    const m = messages[i]
    if (m.role == ROLE_USER) {
      if (isFxtermNote(m)) replayNote(engine, m)
      else t.promptCard(m.content)
    } else if (m.role == ROLE_ASSISTANT) {
      if (m.content.length > 0) {
        if (m.refusal) t.refusalDelta(m.content.data, 0, m.content.length)
        else t.assistantDelta(m.content.data, 0, m.content.length)
        t.endAssistant()
      }
      for (let j = 0; j < m.toolCalls.length; j++) calls.set(m.toolCalls[j].id, m.toolCalls[j])
    } else if (m.role == ROLE_TOOL && calls.has(m.toolCallId)) {
      const call = calls.get(m.toolCallId)
      if (isFileTool(call.name)) replayFileTool(engine, call, m.content.toString())
      else replayTool(engine, commandText(call.args), m)
    }
  }
}

/** A note of fxterm's drawn as it was live: a `!command`'s row, /undo's line, or nothing. */
function replayNote(engine: Engine, m: Message): void {
  const text = m.content.toString()
  const shell = readShellNote(text)
  if (shell != null) {
    const command = new ByteBuf(shell[0].length)
    command.str(shell[0])
    replayResult(engine, command, shell[1])
    return
  }
  const undo = undoNoteMessage(text)
  if (undo.length > 0) engine.transcript.notice(undo, GRAY)
}

/**
 * A file tool's row from its stored result, as it was drawn live: the verb, the path and the
 * line counts the result states (`Edited a.txt: replaced 1 occurrence (+1 −1 lines).`), or the
 * refusal. (The diff itself is not kept; /diff shows it again.)
 */
function replayFileTool(engine: Engine, call: ToolCallRec, result: string): void {
  const change = new FileChange()
  if (call.name == 'read_file') {
    change.verb = 'Read'
    const args = parseJson(call.args.data, 0, call.args.length)
    let path = args != null ? args.getString('path', '') : ''
    const root = engine.loop.root + '/'
    if (path.startsWith(root)) path = path.substring(root.length)
    change.path.str(path)
    engine.transcript.fileChanged(change)
    return
  }
  const counts = result.lastIndexOf(' (+')
  const verbEnd = result.indexOf(' ')
  const verb = verbEnd > 0 ? result.substring(0, verbEnd) : ''
  const known = verb == 'Edited' || verb == 'Created' || verb == 'Wrote'
  if (!known || counts < 0 || !result.endsWith(' lines).')) {
    engine.transcript.error(Uint8Array.wrap(String.UTF8.encode(result)))
    return
  }
  change.verb = verb == 'Edited' ? 'Edit' : verb == 'Created' ? 'Create' : 'Write'
  let path = verb == 'Edited' ? result.substring(verbEnd + 1, result.indexOf(': replaced ')) : result.substring(verbEnd + 1, counts)
  const via = path.indexOf(' (a symlink to ')
  if (via >= 0) path = path.substring(0, via)
  change.path.str(path)
  const numbers = result.substring(counts + 3, result.length - 8).split(' −')
  change.added = numbers.length == 2 ? I32.parseInt(numbers[0]) : 0
  change.removed = numbers.length == 2 ? I32.parseInt(numbers[1]) : 0
  engine.transcript.fileChanged(change)
}

/** A command row from a stored result: its `[exit code N]` and `[cwd: …]` markers say the rest. */
function replayTool(engine: Engine, command: ByteBuf, m: Message): void {
  replayResult(engine, command, m.content.toString())
}

function replayResult(engine: Engine, command: ByteBuf, result: string): void {
  let text = result
  const cwdAt = text.lastIndexOf('\n[cwd: ')
  if (cwdAt >= 0) text = text.substring(0, cwdAt)
  let exitCode = 0
  const exitAt = text.lastIndexOf('[exit code ')
  if (exitAt >= 0 && text.endsWith(']')) {
    exitCode = I32.parseInt(text.substring(exitAt + 11, text.length - 1))
    text = text.substring(0, exitAt)
  }
  if (text == '(no output)') text = ''
  engine.transcript.toolRan(command, Uint8Array.wrap(String.UTF8.encode(text)), new Uint8Array(0), exitCode, false)
}

/** A commit conflicted (another tab wrote the same session): save ours as a fork, never drop it. */
export function forkSession(engine: Engine, why: string): void {
  const session = engine.session
  const old = session.title
  session.id = session.newId(engine.nowMs)
  session.createdMs = engine.nowMs
  session.title = (old.length > 0 ? old : 'Untitled') + ' (fork)'
  session.renamed = true
  session.readOnly = false
  session.due = true
  engine.transcript.notice(why + ' This conversation continues as a new session: ' + session.title + '.', YELLOW)
}
