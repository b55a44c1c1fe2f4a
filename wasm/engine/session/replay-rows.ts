// A resumed session's last turns drawn as the live turns drew them (issue 32: "a reload draws
// what the live turn drew"): prompts, reasoning, replies and refusals, commands with their
// output, file tool rows, denials and cancellations, and fxterm's notes as the lines the person
// saw, and the line that ended a turn (a notice, a failed request's error). Runs in the engine
// (wasm), on a resume; every row comes from the stored messages.

import { ByteBuf } from '../util/byte-buf'
import { GRAY, YELLOW } from '../screen/ansi'
import { AFTER_ERROR, AFTER_WARNING, Message, ToolCallRec, ROLE_ASSISTANT, ROLE_TOOL, ROLE_USER } from '../agent/conversation'
import { fileToolVerb, isFileTool } from '../agent/file-tools'
import { FileChange } from '../screen/file-rows'
import { parseJson } from '../util/json'
import { commandText } from '../agent/compaction'
import { callProblem, CUT_CALL_RESULT } from '../agent/tool-calls'
import { findHostTool } from '../agent/host-tools'
import { Snapshot } from './snapshot'
import { isFxtermNote, readShellNote, undoNoteMessage } from '../agent/fxterm-notes'
import { SessionState as Engine } from './session-state'

/**
 * What is replayed onto the screen on resume (older turns are in /export; the model gets them
 * all): the last turns, at most ten, and only as many as fit in 16 KiB of message text (always
 * the last one). That is three or four screens of scrollback, enough to pick up where one left
 * off. Drawing is most of a resume: xterm.js took ~70 ms on a slow machine to parse ten 4 KB
 * turns (480 rows) on a page whose code had just loaded.
 */
const REPLAY_TURNS = 10
const REPLAY_BYTES = 16 * 1024

// The results the loop gives the model when the person said no or stopped the turn (loop.ts):
// live, they drew a denial, a cancelled command or nothing, never the result's text.
const DENIED_COMMAND = 'Denied by the user: the command was not run.'
const DENIED_CHANGE = 'Denied by the user: the change was not made.'
const NOT_RUN = 'Not run: the user interrupted.'
const CANCELLED = 'Cancelled by the user.'
const INTERRUPTED = 'Interrupted · tell fxterm what to do instead'
const CUT_NOTICE = "The model's output limit cut a tool call short; it did not run."
const TOO_LONG = 'The command is longer than 64 KiB' // sizeProblem's (tool-calls.ts)

/** Draws the last turns as they were shown: prompts, replies, commands with their output. */
export function replay(engine: Engine, s: Snapshot): void {
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
  // Set once the person stopped this reply's calls: the later ones were answered, never drawn.
  let interrupted = false
  for (let i = from; i < messages.length; i++) {
    const m = messages[i]
    if (m.role == ROLE_USER) {
      if (isFxtermNote(m)) replayNote(engine, m)
      else t.promptCard(m.content)
    } else if (m.role == ROLE_ASSISTANT) {
      interrupted = false
      replayReply(engine, m)
      for (let j = 0; j < m.toolCalls.length; j++) calls.set(m.toolCalls[j].id, m.toolCalls[j])
    } else if (m.role == ROLE_TOOL && calls.has(m.toolCallId)) {
      const call = calls.get(m.toolCallId)
      const result = m.content.toString()
      if (result == NOT_RUN || result == CANCELLED) {
        if (!interrupted) replayStop(engine, call, result)
        interrupted = true
        const next = i + 1 < messages.length ? messages[i + 1] : null
        if (next == null || next.role != ROLE_TOOL) t.notice(INTERRUPTED, YELLOW)
      } else if (result == DENIED_COMMAND || result == DENIED_CHANGE) t.toolDenied(deniedWhat(engine, call, m.shownOnly))
      else if (isFileTool(call.name)) replayFileTool(engine, call, result, m.shownOnly)
      else replayCall(engine, call, result)
    }
    if (m.afterLine.length > 0) replayAfterLine(engine, m)
  }
}

/** The line drawn after a message: a turn's end notice or a failed request's error. */
function replayAfterLine(engine: Engine, m: Message): void {
  const t = engine.transcript
  if (m.afterLevel == AFTER_ERROR) t.error(Uint8Array.wrap(String.UTF8.encode(m.afterLine)))
  else t.notice(m.afterLine, m.afterLevel == AFTER_WARNING ? YELLOW : GRAY)
}

/**
 * Any other call as it was drawn: a host tool's drew nothing, one the output limit cut short a
 * notice, one refused (unknown tool, bad or oversized arguments) the refusal, a command its row.
 */
function replayCall(engine: Engine, call: ToolCallRec, result: string): void {
  const t = engine.transcript
  if (call.name != 'run_command' && findHostTool(engine.loop.conv.hostTools, call.name) != null) return
  if (result == CUT_CALL_RESULT) {
    t.notice(CUT_NOTICE, YELLOW)
    return
  }
  const refused = result == callProblem(call, true) || result == callProblem(call, false) || result.startsWith(TOO_LONG)
  if (refused) t.error(Uint8Array.wrap(String.UTF8.encode(result)))
  else replayResult(engine, commandText(call.args), result)
}

/** A reply: its reasoning (kept for this), then its text or refusal, each its own block as live. */
function replayReply(engine: Engine, m: Message): void {
  const t = engine.transcript
  const reasoning = m.shownOnly
  if (reasoning != null && reasoning.length > 0) t.reasoningDelta(reasoning.data, 0, reasoning.length)
  if (m.content.length > 0) {
    if (m.refusal) t.refusalDelta(m.content.data, 0, m.content.length)
    else t.assistantDelta(m.content.data, 0, m.content.length)
  }
  t.endAssistant()
}

/**
 * The call the person stopped: live, a command waiting for approval was drawn as denied and a
 * running one as cancelled; a file change or a host tool under way drew nothing.
 */
function replayStop(engine: Engine, call: ToolCallRec, result: string): void {
  if (call.name != 'run_command') return
  const command = commandText(call.args)
  if (result == NOT_RUN) engine.transcript.toolDenied(command)
  else engine.transcript.toolRan(command, new Uint8Array(0), new Uint8Array(0), 130, true)
}

/**
 * What a denial row names: the command, or a file change's verb and path as its approval did
 * (kept with the result; from the call for sessions saved before it was).
 */
function deniedWhat(engine: Engine, call: ToolCallRec, kept: ByteBuf | null): ByteBuf {
  if (!isFileTool(call.name)) return commandText(call.args)
  if (kept != null && kept.length > 0) return kept
  const what = new ByteBuf(64)
  what.str(fileToolVerb(call.name) + ' ' + workspacePath(engine, call))
  return what
}

/** A file tool call's path as rows show it: relative to the workspace. */
function workspacePath(engine: Engine, call: ToolCallRec): string {
  const args = parseJson(call.args.data, 0, call.args.length)
  const path = args != null ? args.getString('path', '') : ''
  const root = engine.loop.root + '/'
  return path.startsWith(root) ? path.substring(root.length) : path
}

/**
 * A note of fxterm's drawn as it was live: a `!command`'s row (with its colours, from the output
 * kept with the note), /undo's line, or nothing.
 */
function replayNote(engine: Engine, m: Message): void {
  const text = m.content.toString()
  const shell = readShellNote(text)
  if (shell != null) {
    const command = new ByteBuf(shell[0].length)
    command.str(shell[0])
    replayResult(engine, command, shell[1], true, m.shownOnly)
    return
  }
  const undo = undoNoteMessage(text)
  if (undo.length > 0) engine.transcript.notice(undo, GRAY)
}

/**
 * A file tool's row from its stored result, as it was drawn live: the verb, the path and the
 * line counts the result states (`Edited a.txt: replaced 1 occurrence (+1 −1 lines).`), or the
 * refusal, and the diff kept with it (sessions saved before it was kept show none; /diff does).
 */
function replayFileTool(engine: Engine, call: ToolCallRec, result: string, diff: ByteBuf | null): void {
  const change = new FileChange()
  if (call.name == 'read_file') {
    change.verb = 'Read'
    change.path.str(workspacePath(engine, call))
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
  if (diff != null) change.diff.append(diff)
  engine.transcript.fileChanged(change)
}

/**
 * A command row from a stored result: its `[exit code N]` and `[cwd: …]` markers say the rest.
 * `shown`: the output as it was drawn (a `!command`'s, with its colours) in place of the result's.
 */
function replayResult(engine: Engine, command: ByteBuf, result: string, coloured: bool = false, shown: ByteBuf | null = null): void {
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
  const output = shown != null ? shown.data.subarray(0, shown.length) : Uint8Array.wrap(String.UTF8.encode(text))
  engine.transcript.toolRan(command, output, new Uint8Array(0), exitCode, false, coloured)
}
