// Where a keystroke goes. The terminal's bytes are parsed into keys (terminal/keys.ts); each key
// goes to the first thing that wants it: the Ctrl+O transcript view, an open picker, the slash
// menu, the approval row, and finally the composer and the turn (Enter submits or steers, Esc
// and Ctrl+C interrupt, Up/Down walk the draft, queued prompts and history).

import { Engine, HINT_TIMER_ID } from '../engine'
import { ByteBuf, stringBuf, stringBytes } from '../util/byte-buf'
import * as K from '../screen/keys'
import { runSlash } from '../commands/run-slash'
import { CMD_CLEAR, CMD_CLONE, CMD_EXIT, slashArgument } from '../commands/slash'
import { CLONE_USAGE, cloneShellLine } from '../commands/clone-command'
import { pickerKey } from '../commands/pickers'
import { forkSession } from '../session/session'
import { answerResumeQuestion } from '../session/interrupted-turn'
import { OUT_CLIPBOARD, OUT_HISTORY_APPEND } from '../abi/frames'
import { authKey } from '../commands/auth-commands'
import { hasKeyShape, isKeyInTheOpen } from './secret-line'
import { cancelServerUrl, submitServerUrl } from '../commands/own-server'
import { sentence } from '../util/format'

const EXIT_HINT_MS: f64 = 3000
const DOUBLE_ESC_MS: f64 = 500

export function handleKeys(engine: Engine, bytes: Uint8Array, start: i32, end: i32): void {
  if (engine.ui.exited) return
  const keys = K.parseKeys(bytes, start, end)
  for (let i = 0; i < keys.length && !engine.ui.exited; i++) {
    const k = keys[i]
    if (engine.ui.view.open) viewKey(engine, k)
    else if (engine.auth.modal) authKey(engine.fx, engine.auth, k)
    else if (engine.picks.picker.open) pickerKey(engine.settings, engine.sessions, engine.auth, k)
    else if (k.kind == K.K_CTRL && k.cp == 0x6f) openView(engine)
    else if (!menuKey(engine, k)) key(engine, k)
  }
  engine.dirty = true
}

/** Ctrl+O: the whole transcript in the alternate screen. */
function openView(engine: Engine): void {
  const out = new ByteBuf(64)
  engine.ui.view.show(out, engine.transcript.log, engine.ui.screen.rows)
  engine.fx.write(out)
}

function viewKey(engine: Engine, k: K.Key): void {
  if (engine.ui.view.key(k, engine.transcript.log, engine.ui.screen.rows)) return
  const out = new ByteBuf(16)
  engine.ui.view.hide(out)
  engine.fx.write(out)
  if (engine.reflowPending) engine.reflow()
}

/** The command menu takes Up/Down, Tab, Enter and Esc while it is open. */
function menuKey(engine: Engine, k: K.Key): bool {
  if (engine.loop.pendingApproval != null || engine.loop.resumeCommand != null) return false
  const draft = engine.ui.composer.toBuf().toString()
  const matches = engine.ui.menu.matches(draft)
  if (matches.length == 0) return false
  if (k.kind == K.K_UP) engine.ui.menu.move(-1, matches.length)
  else if (k.kind == K.K_DOWN) engine.ui.menu.move(1, matches.length)
  else if (k.kind == K.K_ESCAPE) engine.ui.menu.dismiss(draft)
  else if (k.kind == K.K_TAB) completeCommand(engine, matches)
  else if (k.kind == K.K_ENTER) {
    const name = engine.ui.menu.selectedName(matches)
    if (name != draft) engine.ui.composer.setText(stringBuf(name))
    return false // Enter then runs it as usual
  } else return false
  return true
}

function completeCommand(engine: Engine, matches: Array<i32>): void {
  engine.ui.composer.setText(stringBuf(engine.ui.menu.selectedName(matches) + ' '))
}

function key(engine: Engine, k: K.Key): void {
  if (engine.loop.pendingApproval != null && approvalKey(engine, k)) return
  if (engine.loop.resumeCommand != null && resumeKey(engine, k)) return
  if (engine.settings.askingUrl && urlKey(engine, k)) return
  const c = engine.ui.composer
  switch (k.kind) {
    case K.K_CHAR: if (k.cp >= 0xa0 || (k.cp >= 0x20 && k.cp < 0x7f)) c.insert(k.cp); break
    case K.K_PASTE: c.paste(k.text as ByteBuf); break
    case K.K_NEWLINE: c.newline(); break
    case K.K_ENTER: enter(engine); break
    case K.K_BACKSPACE: c.backspace(); break
    case K.K_DELETE: c.deleteForward(); break
    case K.K_LEFT: c.left(); break
    case K.K_RIGHT: c.right(); break
    case K.K_HOME: c.home(); break
    case K.K_END: c.end(); break
    case K.K_TOP: c.top(); break
    case K.K_BOTTOM: c.bottom(); break
    case K.K_WORD_LEFT: c.wordLeft(); break
    case K.K_WORD_RIGHT: c.wordRight(); break
    case K.K_WORD_BACKSPACE: c.killWordBack(); break
    case K.K_WORD_DELETE: c.killWordForward(); break
    case K.K_UNDO: c.undo(); break
    case K.K_REDO: c.redo(); break
    case K.K_SELECT_ALL: c.selectAll(); break
    case K.K_COPY: copySelection(engine, false); break
    case K.K_CUT: copySelection(engine, true); break
    case K.K_UP: lineUp(engine); break
    case K.K_DOWN: lineDown(engine); break
    case K.K_ESCAPE:
      // Esc first drops a selection (unless it has a turn to stop).
      if (c.hasSelection && !engine.loop.busy) c.deselect()
      else escape(engine)
      break
    case K.K_CTRL: ctrl(engine, k.cp); break
  }
}

/**
 * Keys while the composer holds a server's URL (the picker's "another server"): Enter adds it,
 * Esc or Ctrl+C cancels; the rest edit the line as usual. The URL never goes to history.
 */
function urlKey(engine: Engine, k: K.Key): bool {
  const c = engine.ui.composer
  if (k.kind == K.K_ENTER) {
    const text = c.toBuf().toString()
    c.reset()
    submitServerUrl(engine.settings, text)
  } else if (k.kind == K.K_ESCAPE || (k.kind == K.K_CTRL && k.cp == 0x63)) {
    c.reset()
    cancelServerUrl(engine.settings)
  } else return false
  return true
}

/** Keys while the approval row is up: 1/2/3, arrows and Enter answer it, Esc denies. */
function approvalKey(engine: Engine, k: K.Key): bool {
  if (k.kind == K.K_CHAR && k.cp >= 0x31 && k.cp <= 0x33) answer(engine, k.cp - 0x30)
  else if (k.kind == K.K_UP) engine.ui.approvalChoice = max(1, engine.ui.approvalChoice - 1)
  else if (k.kind == K.K_DOWN) engine.ui.approvalChoice = min(3, engine.ui.approvalChoice + 1)
  else if (k.kind == K.K_ENTER) answer(engine, engine.ui.approvalChoice)
  else if (k.kind == K.K_ESCAPE) answer(engine, 3)
  else return false
  return true
}

/** Keys while a resumed turn asks whether to go on: 1/y continue, 2/n or Esc stop, arrows and Enter. */
function resumeKey(engine: Engine, k: K.Key): bool {
  const ui = engine.ui
  if (k.kind == K.K_CHAR && (k.cp == 0x31 || k.cp == 0x79 || k.cp == 0x59)) answerResume(engine, true)
  else if (k.kind == K.K_CHAR && (k.cp == 0x32 || k.cp == 0x6e || k.cp == 0x4e)) answerResume(engine, false)
  else if (k.kind == K.K_UP) ui.approvalChoice = 1
  else if (k.kind == K.K_DOWN) ui.approvalChoice = 2
  else if (k.kind == K.K_ENTER) answerResume(engine, ui.approvalChoice == 1)
  else if (k.kind == K.K_ESCAPE) answerResume(engine, false)
  else return false
  return true
}

function answerResume(engine: Engine, goOn: bool): void {
  engine.ui.approvalChoice = 1
  answerResumeQuestion(engine.sessions, goOn)
}

function answer(engine: Engine, choice: i32): void {
  engine.ui.approvalChoice = 1
  engine.loop.answerApproval(choice)
}

function ctrl(engine: Engine, letter: i32): void {
  const c = engine.ui.composer
  if (letter == 0x61) c.home()
  else if (letter == 0x65) c.end()
  else if (letter == 0x62) c.left()
  else if (letter == 0x66) c.right()
  else if (letter == 0x6b) c.killToEnd()
  else if (letter == 0x75) c.killToStart()
  else if (letter == 0x77) c.killSpaceWordBack()
  else if (letter == 0x79) c.yank()
  else if (letter == 0x5f || letter == 0x7a) c.undo() // Ctrl+_ (Cmd/Ctrl+Z arrive as Ctrl+_)
  else if (letter == 0x78) copySelection(engine, true) // Ctrl+X cuts a selection
  else if (letter == 0x70) lineUp(engine)
  else if (letter == 0x6e) lineDown(engine)
  else if (letter == 0x64) {
    // In a browser tab no single key ends the session: Ctrl+D on an empty draft says how.
    if (c.isEmpty && !engine.loop.busy) showExitHint(engine)
    else c.deleteForward()
  } else if (letter == 0x63) {
    // Ctrl+C with a selection copies it (and drops the selection, so the next one interrupts).
    if (c.hasSelection) {
      copySelection(engine, false)
      c.deselect()
      return
    }
    // Ctrl+C stops the turn, else clears the draft. It never exits, however often it is
    // pressed (a tab has no shell to return to): the footer says /exit does that.
    if (engine.loop.busy) interruptTurn(engine)
    else if (!c.isEmpty) c.clear()
    showExitHint(engine)
  } else if (letter == 0x6c) {
    const w = new ByteBuf(16)
    w.str('\x1b[H\x1b[2J')
    engine.fx.write(w)
    engine.ui.screen.forget()
  }
}

/** For 3 s the footer says how a session ends, in place of the status row. */
function showExitHint(engine: Engine): void {
  engine.ui.exitHintUntil = engine.nowMs + EXIT_HINT_MS
  engine.fx.timer(HINT_TIMER_ID, EXIT_HINT_MS)
}

/** Cmd+C / Ctrl+C copy the selection; Cmd+X / Ctrl+X cut it. Nothing without a selection. */
function copySelection(engine: Engine, cut: bool): void {
  const text = engine.ui.composer.selectedText()
  if (text == null) return
  engine.fx.emit(OUT_CLIPBOARD, 0, text)
  if (cut) engine.ui.composer.deleteSelection()
}

/** Up, Ctrl+P: the row above in the draft; on the first row, a queued prompt or history. */
function lineUp(engine: Engine): void {
  if (engine.ui.composer.up(engine.ui.screen.cols)) return
  if (!editLastSteer(engine)) walkHistory(engine, -1)
}

/** Down, Ctrl+N: the row below in the draft; on the last row, newer history. */
function lineDown(engine: Engine): void {
  if (!engine.ui.composer.down(engine.ui.screen.cols)) walkHistory(engine, 1)
}

/** Esc stops the turn; twice within 500 ms on an idle draft, it clears the draft. */
function escape(engine: Engine): void {
  if (engine.loop.busy) interruptTurn(engine)
  else if (engine.nowMs - engine.lastEscMs < DOUBLE_ESC_MS) engine.ui.composer.clear()
  engine.lastEscMs = engine.nowMs
}

/** Stops the turn; prompts queued for it go back into the draft instead of being sent. */
export function interruptTurn(engine: Engine): void {
  engine.loop.interrupt()
  if (engine.loop.steers.length == 0) return
  const text = new ByteBuf(64)
  for (let i = 0; i < engine.loop.steers.length; i++) {
    if (i > 0) text.byte(0x0a)
    text.append(engine.loop.steers[i])
  }
  if (!engine.ui.composer.isEmpty) text.byte(0x0a)
  engine.loop.steers = []
  const draft = engine.ui.composer.toBuf()
  text.append(draft)
  engine.ui.composer.setText(text)
}

/** Up on an empty draft while prompts are queued takes the last one back to edit. */
function editLastSteer(engine: Engine): bool {
  if (!engine.ui.composer.isEmpty || engine.loop.steers.length == 0) return false
  const text = engine.loop.takeLastSteer()
  if (text != null) engine.ui.composer.setText(text)
  return true
}

/** Sends a draft held back by Enter before the stored settings arrived (IN_RESTORE). */
export function submitHeldDraft(engine: Engine): void {
  if (!engine.submitHeld) return
  engine.submitHeld = false
  enter(engine)
}

function enter(engine: Engine): void {
  // The stored model and settings are still on their way: this draft goes out with them.
  if (engine.restorePending) {
    engine.submitHeld = true
    return
  }
  const c = engine.ui.composer
  // A backslash right before the cursor continues the draft on a new line (as in a shell).
  if (c.continueLine()) return
  const draft = c.toBuf()
  const s = draft.toString().trim()
  if (s.length == 0) return
  // Pastes shown as placeholders go out in full: the transcript card and the model get them.
  // History keeps the draft as typed (its placeholders still expand).
  const text = c.expanded()
  c.reset()
  const command = s.charCodeAt(0) == 0x2f && s.indexOf('\n') < 0
  // A secret is kept nowhere: not in history, the conversation or on screen (secret-line.ts).
  if (command && isKeyInTheOpen(s, engine.settings.providers)) {
    slash(engine, s)
    return
  }
  if (hasKeyShape(text.toString())) {
    engine.transcript.error(stringBytes('That line holds what looks like an API key, so it was not sent or kept. Save a key with /key <provider>, which asks for it at a masked prompt.'))
    return
  }
  remember(engine, draft)
  if (command) {
    slash(engine, s)
    return
  }
  if (s.charCodeAt(0) == 0x21 && s.substring(1).trim().length > 0) {
    personCommand(engine, s.substring(1).trim())
    return
  }
  if (engine.loop.model.length == 0) {
    // Refused, so cleared: it stays in history (Up brings it back), and the next thing typed
    // does not run into it.
    // When its model list failed, /model would only fail again: the refusal repeats the fix.
    const p = engine.settings.providers.active
    engine.transcript.error(stringBytes(p.loaded && p.error.length > 0
      ? engine.settings.label + ' has no model to answer yet: ' + sentence(p.error) + ' Then press Up to get this prompt back.'
      : 'No model is chosen on ' + engine.settings.label + ' yet: pick one with /model, then press Up to get this prompt back.'))
    return
  }
  if (engine.sessions.session.readOnly) forkSession(engine.sessions, 'This session is open in another tab.')
  if (engine.loop.busy) {
    engine.loop.steer(text)
    return
  }
  engine.loop.submit(text, engine.nowMs)
}

/** `!command`: the person's own command in the workspace shell, with no model request. */
function personCommand(engine: Engine, command: string): void {
  const t = engine.transcript
  if (!engine.loop.withTools) {
    t.error(stringBytes('There is no workspace here to run commands in.'))
    return
  }
  if (engine.loop.busy) {
    t.error(stringBytes('A turn is running: run !' + command + ' once it ends, or stop it with Esc first.'))
    return
  }
  if (engine.sessions.session.readOnly) forkSession(engine.sessions, 'This session is open in another tab.')
  engine.loop.runPersonCommand(stringBuf(command), engine.nowMs)
}

function remember(engine: Engine, text: ByteBuf): void {
  const h = engine.history
  const n = h.items.length
  if (n == 0 || h.items[n - 1].toString() != text.toString()) h.items.push(text)
  engine.fx.emit(OUT_HISTORY_APPEND, 0, text)
  h.index = -1
  h.draft = null
}

function walkHistory(engine: Engine, dir: i32): void {
  const h = engine.history
  const n = h.items.length
  if (n == 0) return
  if (h.index < 0) {
    if (dir > 0) return
    h.draft = engine.ui.composer.toBuf()
    h.index = n - 1
  } else {
    h.index += dir
    if (h.index >= n) {
      h.index = -1
      engine.ui.composer.setText(h.draft != null ? (h.draft as ByteBuf) : new ByteBuf(0))
      return
    }
    if (h.index < 0) h.index = 0
  }
  engine.ui.composer.setText(h.items[h.index])
}

function slash(engine: Engine, s: string): void {
  const cmd = runSlash(engine.settings, engine.sessions, engine.auth, s)
  if (cmd == CMD_EXIT) engine.exit()
  else if (cmd == CMD_CLEAR) engine.clearAll()
  else if (cmd == CMD_CLONE) {
    const line = cloneShellLine(slashArgument(s))
    if (line.length == 0) engine.transcript.error(stringBytes(CLONE_USAGE))
    else personCommand(engine, line)
  }
}
