// The session this engine writes: its id and title, when it is committed (the host stores the
// bytes with revisions), and how a saved one comes back — replayed onto the screen, and, when it
// was saved mid-turn, continued with the model told what happened.

import { OUT_SESSION_COMMIT } from '../abi/frames'
import { GRAY, YELLOW } from '../screen/ansi'
import { ROLE_USER } from '../agent/conversation'
import { decodeSnapshot, encodeSnapshotInto, Snapshot } from './snapshot'
import { isFxtermNote } from '../agent/fxterm-notes'
import { replay } from './replay-rows'
import { continueInterrupted } from './interrupted-turn'
import { SessionState as Engine } from './session-state' // the session functions' part of the engine

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
