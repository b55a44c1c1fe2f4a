// A session saved mid-turn, resumed: every open tool call gets an answer and the model is asked to
// go on. One case asks the person first: a shell command was running when the tab ended. The most
// likely reason a tab ends mid-command is that command (a runaway `node` heap takes the whole tab
// down, and Chromium cannot stop it from outside), so continuing by itself would let the model run
// it again and crash the tab again. Until the person answers, nothing is sent and nothing is
// committed: a reload in between asks again.

import { ByteBuf } from '../util/byte-buf'
import { YELLOW, GRAY } from '../screen/ansi'
import { sanitizeInto } from '../screen/sanitize'
import { Message, ROLE_ASSISTANT, ROLE_TOOL, ROLE_USER } from '../agent/conversation'
import { commandText } from '../agent/compaction'
import { findHostTool } from '../agent/host-tools'
import { isFileTool } from '../agent/file-tools'
import { INTERRUPTED_NOTE } from '../agent/loop'
import { SessionState as Engine } from './session-state'

const PARTLY_RUN =
  'This command may have partly run when the session was interrupted (the tab closed or fxterm stopped). It was not run again; check its effects before retrying it.'
const NOT_STARTED = 'Not run: the session was interrupted before this command started.'
/** What the model reads when the person stopped the turn: the command most likely ended the tab. */
export const CRASHED_RESULT =
  'This command was running when the browser tab closed, and most likely crashed it (for example by running out of memory). It was not run again, and the person chose to stop the turn here. Do not run it again as it is.'

/** The longest command shown in the one-line notice; the rest is cut with "…". */
const SHOWN_COMMAND_CHARS = 60

/**
 * The session was saved mid-turn. A shell command that was running makes the engine ask (in the
 * terminal; the headless agent has no one to ask and continues as documented); otherwise every
 * open call is answered — the one that may have been running as possibly partly run, never re-run
 * unless it is an idempotent host tool — and the model is asked to go on.
 */
export function continueInterrupted(engine: Engine, runningCallId: string): void {
  const loop = engine.loop
  const last = openReply(loop.conv.messages)
  if (last != null) {
    for (let j = 0; j < last.toolCalls.length; j++) {
      const call = last.toolCalls[j]
      if (call.id != runningCallId || hasResult(loop.conv.messages, call.id)) continue
      const host = findHostTool(loop.conv.hostTools, call.name)
      if (engine.session.readOnly) break
      if (host != null && host.idempotent) {
        // Safe to run twice: it runs again, and the calls after it run as usual.
        const note = new ByteBuf(160)
        note.str(INTERRUPTED_NOTE)
        loop.resumeAtCall(last, j, note, engine.nowMs)
        return
      }
      if (host == null && !isFileTool(call.name) && !engine.headless) {
        askFirst(engine, call.id, commandText(call.args))
        return
      }
    }
  }
  answerOpenCalls(engine, runningCallId, PARTLY_RUN)
  goOn(engine)
}

/** The person's answer to "Continue the interrupted turn?": true goes on as a resume always did. */
export function answerResumeQuestion(engine: Engine, goOnWithIt: bool): void {
  const loop = engine.loop
  const callId = loop.resumeCallId
  const command = loop.resumeCommand
  if (command == null) return
  loop.resumeCallId = ''
  loop.resumeCommand = null
  if (goOnWithIt) {
    answerOpenCalls(engine, callId, PARTLY_RUN)
    goOn(engine)
    return
  }
  answerOpenCalls(engine, callId, CRASHED_RESULT)
  engine.transcript.notice('Stopped. `' + command.toString() + '` was not run again; the model is told it most likely crashed the tab if you write on.', GRAY)
  loop.commitDue = true // the turn is over: a reload no longer asks
}

function askFirst(engine: Engine, callId: string, command: ByteBuf): void {
  const shown = oneLine(command)
  engine.loop.resumeCallId = callId
  engine.loop.resumeCommand = shown
  engine.transcript.notice('The tab closed while `' + shown.toString() + '` was running — it may have run out of memory.', YELLOW)
}

function goOn(engine: Engine): void {
  engine.transcript.notice('The last turn was interrupted; fxterm is continuing it.', YELLOW)
  if (engine.session.readOnly) return
  engine.loop.resumeTurn(engine.nowMs)
}

/** The command as one short, harmless line: control sequences taken out, first line, cut. */
function oneLine(command: ByteBuf): ByteBuf {
  const clean = new ByteBuf(command.length)
  sanitizeInto(command.data, 0, command.length, clean)
  let text = clean.toString().trim()
  const newline = text.indexOf('\n')
  let cut = newline >= 0
  if (cut) text = text.substring(0, newline).trimEnd()
  if (text.length > SHOWN_COMMAND_CHARS) {
    text = text.substring(0, SHOWN_COMMAND_CHARS)
    cut = true
  }
  const out = new ByteBuf(text.length + 4)
  out.str(cut ? text + '…' : text)
  return out
}

/** The last assistant reply of the turn, whose calls may still be open (null when none). */
function openReply(messages: Array<Message>): Message | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role == ROLE_ASSISTANT) return messages[i]
    if (messages[i].role == ROLE_USER) break
  }
  return null
}

/** Answers every open call of the last reply: `running` for the one that ran, "not run" for the rest. */
function answerOpenCalls(engine: Engine, runningCallId: string, running: string): void {
  const messages = engine.loop.conv.messages
  const last = openReply(messages)
  if (last == null) return
  for (let j = 0; j < last.toolCalls.length; j++) {
    const call = last.toolCalls[j]
    if (hasResult(messages, call.id)) continue
    const m = new Message(ROLE_TOOL)
    m.toolCallId = call.id
    m.content.str(call.id == runningCallId ? running : NOT_STARTED)
    engine.loop.conv.add(m)
  }
}

function hasResult(messages: Array<Message>, callId: string): bool {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role == ROLE_TOOL && messages[i].toolCallId == callId) return true
  return false
}
