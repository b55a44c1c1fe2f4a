// /export tape: the session as a demo tape (format version 2, src/engine-worker/providers/demo-tape.ts) that the
// offline demo provider replays: each prompt with the model's answers to it, tool calls
// included. Command results are left out, since a replay runs the commands for real. The host adds
// the workspace's starting files before saving (action `export` with `tape: true`).

import { ByteBuf, stringBuf } from '../util/byte-buf'
import { parseJson, writeJsonBuf, J_OBJ } from '../util/json'
import { Conversation, ROLE_ASSISTANT, ROLE_USER } from '../agent/conversation'
import { isFxtermNote } from '../agent/fxterm-notes'

const FALLBACK = 'This demo was recorded with other questions: try the one suggested below, or connect a model with /login, /key or /provider.'

/** The tape's JSON (without `files`, which the host adds). */
export function tapeJson(conv: Conversation): ByteBuf {
  const out = new ByteBuf(4096)
  out.str('{"version":2,"turns":[')
  const messages = conv.all()
  let turns = 0
  let responses = 0
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]
    if (m.role == ROLE_USER) {
      if (isFxtermNote(m)) continue
      if (turns > 0) out.str(']}')
      if (turns > 0) out.byte(0x2c)
      out.str('{"prompt":')
      writeJsonBuf(out, m.content)
      out.str(',"responses":[')
      turns++
      responses = 0
    } else if (m.role == ROLE_ASSISTANT && turns > 0) {
      if (responses > 0) out.byte(0x2c)
      out.str('{"text":')
      writeJsonBuf(out, m.content)
      let calls = 0
      for (let j = 0; j < m.toolCalls.length; j++) {
        const call = m.toolCalls[j]
        // Only calls a replay can make: run_command with an object of arguments.
        const args = parseJson(call.args.data, 0, call.args.length)
        if (call.name != 'run_command' || args == null || args.kind != J_OBJ || args.getString('command', '').length == 0) continue
        out.str(calls == 0 ? ',"toolCalls":[' : ',')
        out.str('{"name":"run_command","arguments":')
        out.append(call.args)
        out.byte(0x7d)
        calls++
      }
      if (calls > 0) out.byte(0x5d)
      // How long the model took, so a replay keeps the recorded pace.
      if (m.elapsedMs > 0) out.str(',"ms":' + m.elapsedMs.toString())
      out.byte(0x7d)
      responses++
    }
  }
  if (turns > 0) out.str(']}')
  out.str('],"fallback":')
  writeJsonBuf(out, stringBuf(FALLBACK))
  out.byte(0x7d)
  return out
}

/** How many prompts the tape would hold (to refuse an empty one). */
export function tapeTurns(conv: Conversation): i32 {
  const messages = conv.all()
  let n = 0
  for (let i = 0; i < messages.length; i++) if (messages[i].role == ROLE_USER && !isFxtermNote(messages[i])) n++
  return n
}
