// Reads a snapshot's body JSON straight into messages, without building a JSON tree first: a
// 1,000-turn session is megabytes of message text, and the tree (then a UTF-16 string per field,
// then UTF-8 again) was most of a resume. Everything but the two message lists goes through the
// ordinary reader.

import { ByteBuf } from '../util/byte-buf'
import { JsonReader, JsonValue, J_BOOL, J_OBJ } from '../util/json'
import { Message, ToolCallRec, ROLE_ASSISTANT, ROLE_TOOL, ROLE_USER } from '../agent/conversation'

/** The body's fields besides the messages (as an object), or null when the body is damaged. */
export class BodyRead {
  rest: JsonValue = new JsonValue()
  messagesOk: bool = true
}

export function readSnapshotBody(src: Uint8Array, start: i32, end: i32, messages: Array<Message>, archived: Array<Message>, owned: bool = false): BodyRead | null {
  // Each message's JSON is kept as a view into the body, not a copy of its own (2,000 allocations
  // of ~4 KB each for 1,000 turns, most of a decode). Bytes handed over (`owned`: the engine's
  // input buffer, taken for the session) are that body; others are copied once.
  let body: Uint8Array
  if (owned) body = src.subarray(start, end)
  else {
    body = new Uint8Array(end - start)
    memory.copy(body.dataStart, src.dataStart + <usize>start, end - start)
  }
  const r = new JsonReader(body, end - start)
  r.pos = 0
  const out = new BodyRead()
  out.rest.kind = J_OBJ
  r.skipWs()
  if (r.peek() != 0x7b) return null
  r.pos++
  r.skipWs()
  if (r.peek() == 0x7d) {
    r.pos++
  } else {
    while (!r.failed) {
      const key = readKey(r)
      if (r.failed) return null
      if (key == 'messages' || key == 'archived') {
        if (!readMessages(r, key == 'messages' ? messages : archived)) out.messagesOk = false
      } else {
        out.rest.keys.push(key)
        out.rest.items.push(r.value(1))
      }
      if (!out.messagesOk) return out
      if (!endOfMember(r, 0x7d)) break
    }
  }
  r.skipWs()
  if (r.failed || r.pos != r.end) return null
  return out
}

/** A member's key and its colon; fails the reader when they are not there. */
function readKey(r: JsonReader): string {
  r.skipWs()
  if (r.peek() != 0x22) {
    r.failed = true
    return ''
  }
  const key = r.string()
  r.skipWs()
  if (r.peek() != 0x3a) r.failed = true
  r.pos++
  return key
}

/** After a value: true at a comma (more follow), false at `close` (done) or on damage. */
function endOfMember(r: JsonReader, close: i32): bool {
  r.skipWs()
  const c = r.peek()
  r.pos++
  if (c == 0x2c) return true
  if (c != close) r.failed = true
  return false
}

/** A list that is not an array of messages fails; `null` counts as empty. */
function readMessages(r: JsonReader, into: Array<Message>): bool {
  r.skipWs()
  const c = r.peek()
  if (c == 0x6e) return r.value(1).kind == 0 && !r.failed
  if (c != 0x5b) return false
  r.pos++
  r.skipWs()
  if (r.peek() == 0x5d) {
    r.pos++
    return true
  }
  while (!r.failed) {
    const m = readMessage(r)
    if (m == null) return false
    into.push(m)
    if (!endOfMember(r, 0x5d)) break
  }
  return !r.failed
}

function readMessage(r: JsonReader): Message | null {
  r.skipWs()
  if (r.peek() != 0x7b) return null
  const from = r.pos
  r.pos++
  const m = new Message(0)
  r.skipWs()
  if (r.peek() == 0x7d) return null // no role
  while (!r.failed) {
    const key = readKey(r)
    if (r.failed) return null
    r.skipWs()
    if (key == 'content' && r.peek() == 0x22) {
      // Read when first used (Message.content): only the last turns are shown on a resume.
      const at = r.pos
      const length = r.stringLength()
      if (length < 0) return null
      m.contentLater(r.src, at, length)
    }
    else if (key == 'toolCalls' && r.peek() == 0x5b) {
      if (!readToolCalls(r, m.toolCalls)) return null
    } else {
      const v = r.value(2)
      if (key == 'role') m.role = v.str == 'user' ? ROLE_USER : v.str == 'tool' ? ROLE_TOOL : v.str == 'assistant' ? ROLE_ASSISTANT : 0
      else if (key == 'toolCallId') m.toolCallId = v.str
      else if (key == 'refusal') m.refusal = v.kind == J_BOOL && v.bool
    }
    if (!endOfMember(r, 0x7d)) break
  }
  if (r.failed || m.role == 0) return null
  // The engine wrote these bytes: they are this message's JSON, kept for the next commit.
  m.keepJson(ByteBuf.view(r.src, from, r.pos))
  return m
}

function readToolCalls(r: JsonReader, into: Array<ToolCallRec>): bool {
  r.pos++ // [
  r.skipWs()
  if (r.peek() == 0x5d) {
    r.pos++
    return true
  }
  while (!r.failed) {
    r.skipWs()
    if (r.peek() != 0x7b) return false
    r.pos++
    const rec = new ToolCallRec('', '')
    let args = new ByteBuf(0)
    r.skipWs()
    if (r.peek() == 0x7d) r.pos++
    else {
      while (!r.failed) {
        const key = readKey(r)
        r.skipWs()
        if (key == 'arguments' && r.peek() == 0x22) {
          args = sized(r)
          r.stringInto(args)
        }
        else {
          const v = r.value(3)
          if (key == 'id') rec.id = v.str
          else if (key == 'name') rec.name = v.str
        }
        if (!endOfMember(r, 0x7d)) break
      }
    }
    rec.args = args
    into.push(rec)
    if (!endOfMember(r, 0x5d)) break
  }
  return !r.failed
}

/** A buffer just big enough for the string literal at the reader (its text is never longer). */
function sized(r: JsonReader): ByteBuf {
  return new ByteBuf(max(r.stringSpan(), 16))
}
