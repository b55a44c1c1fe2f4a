// The session snapshot: versioned bytes the host stores without reading them (except the small
// metadata header, which it shows in the /resume picker).
//
//   "FXSN" · u16 version · u16 0 · u32 metaLen · meta JSON · body JSON
//   meta: {id, title, createdMs, updatedMs, turns, firstPrompt}
//   body: {model, provider, mode, fast, messages, archived, shownOnly?, after?, turn: {active, runningCallId}}
//   shownOnly: [[index in messages, text], …]: what was drawn with a message but never sent to
//   the model (Message.shownOnly), for the resume's replay; absent when there is none.
//   after: [[index in messages, text, level], …]: the line drawn after it (Message.afterLine).
//
// Version 1 (the first sessions) held only {messages}; it migrates by taking defaults. A newer
// version than this engine knows is refused and left untouched.

import { ByteBuf } from '../util/byte-buf'
import { parseJson, writeJsonBuf, writeJsonString, JsonValue, J_ARR, J_NUM, J_OBJ, J_STR } from '../util/json'
import { Message, writeMessagesJson } from '../agent/conversation'
import { readSnapshotBody } from './snapshot-body'

export const SNAPSHOT_VERSION: i32 = 2
const MAGIC = 0x4e535846 // "FXSN" little-endian
const HEADER = 12

export class SnapshotMeta {
  id: string = ''
  title: string = ''
  createdMs: f64 = 0
  updatedMs: f64 = 0
  turns: i32 = 0
  firstPrompt: string = ''
}

export class Snapshot {
  meta: SnapshotMeta = new SnapshotMeta()
  version: i32 = SNAPSHOT_VERSION
  model: string = ''
  provider: string = ''
  mode: string = ''
  fast: bool = false
  messages: Array<Message> = []
  archived: Array<Message> = []
  /** The session was saved mid-turn (the tab closed or the engine stopped). */
  turnActive: bool = false
  /** The tool call whose command may have been running then, or ''. */
  runningCallId: string = ''
  /** Why the bytes could not be read ('' when they could). */
  error: string = ''
}

/**
 * Appends the snapshot's bytes to `out` (the effects buffer: a 4 MB session is written there
 * directly, not built in a buffer of its own and then copied).
 */
export function encodeSnapshotInto(out: ByteBuf, s: Snapshot): void {
  const meta = new ByteBuf(256)
  meta.str('{"id":')
  writeJsonString(meta, s.meta.id)
  meta.str(',"title":')
  writeJsonString(meta, s.meta.title)
  meta.str(',"createdMs":' + (<i64>s.meta.createdMs).toString() + ',"updatedMs":' + (<i64>s.meta.updatedMs).toString())
  meta.str(',"turns":' + s.meta.turns.toString() + ',"firstPrompt":')
  writeJsonString(meta, s.meta.firstPrompt)
  meta.byte(0x7d)
  out.reserve(meta.length + 4096)
  out.writeU32(MAGIC)
  out.writeU32(<u32>SNAPSHOT_VERSION)
  out.writeU32(<u32>meta.length)
  out.append(meta)
  out.str('{"model":')
  writeJsonString(out, s.model)
  out.str(',"provider":')
  writeJsonString(out, s.provider)
  out.str(',"mode":')
  writeJsonString(out, s.mode)
  out.str(',"fast":' + (s.fast ? 'true' : 'false') + ',"messages":')
  writeMessagesJson(out, s.messages)
  out.str(',"archived":')
  writeMessagesJson(out, s.archived)
  writeShownOnly(out, s.messages)
  writeAfterLines(out, s.messages)
  out.str(',"turn":{"active":' + (s.turnActive ? 'true' : 'false') + ',"runningCallId":')
  writeJsonString(out, s.runningCallId)
  out.str('}}')
}

/** The snapshot in `bytes[start, end)`; `owned`: those bytes are never written again, so the messages keep views into them. */
export function decodeSnapshot(bytes: Uint8Array, start: i32, end: i32, owned: bool = false): Snapshot {
  const s = new Snapshot()
  if (end - start < HEADER || readU32(bytes, start) != MAGIC) {
    s.error = 'it is not an fxterm session (or it was cut short)'
    return s
  }
  const version = <i32>(readU32(bytes, start + 4) & 0xffff)
  s.version = version
  if (version > SNAPSHOT_VERSION) {
    s.error = 'it was saved by a newer fxterm (format ' + version.toString() + ')'
    return s
  }
  const metaLen = <i32>readU32(bytes, start + 8)
  const bodyAt = start + HEADER + metaLen
  if (metaLen < 0 || bodyAt > end) {
    s.error = 'it was cut short'
    return s
  }
  const meta = parseJson(bytes, start + HEADER, bodyAt)
  const read = meta != null && meta.kind == J_OBJ ? readSnapshotBody(bytes, bodyAt, end, s.messages, s.archived, owned) : null
  if (meta == null || read == null) {
    s.error = 'its contents are damaged'
    return s
  }
  if (!read.messagesOk) {
    s.error = 'its messages are damaged'
    return s
  }
  s.meta.id = meta.getString('id', '')
  s.meta.title = meta.getString('title', '')
  s.meta.createdMs = meta.getNumber('createdMs', 0)
  s.meta.updatedMs = meta.getNumber('updatedMs', 0)
  s.meta.turns = <i32>meta.getNumber('turns', 0)
  s.meta.firstPrompt = meta.getString('firstPrompt', '')
  // Version 1 had only messages: everything else keeps its default.
  const body = read.rest
  if (version >= 2) {
    s.model = body.getString('model', '')
    s.provider = body.getString('provider', '')
    s.mode = body.getString('mode', '')
    s.fast = body.getBool('fast', false)
    readShownOnly(body.get('shownOnly'), s.messages)
    readAfterLines(body.get('after'), s.messages)
    const turn = body.get('turn')
    if (turn != null) {
      s.turnActive = turn.getBool('active', false)
      s.runningCallId = turn.getString('runningCallId', '')
    }
  }
  return s
}

function writeShownOnly(out: ByteBuf, messages: Array<Message>): void {
  let any = false
  for (let i = 0; i < messages.length; i++) {
    const kept = messages[i].shownOnly
    if (kept == null || kept.length == 0) continue
    out.str((any ? ',[' : ',"shownOnly":[[') + i.toString() + ',')
    writeJsonBuf(out, kept)
    out.byte(0x5d)
    any = true
  }
  if (any) out.byte(0x5d)
}

/** Gives messages back what was drawn with them; entries that do not fit are dropped. */
function readShownOnly(list: JsonValue | null, messages: Array<Message>): void {
  if (list == null || list.kind != J_ARR) return
  for (let i = 0; i < list.items.length; i++) {
    const entry = list.items[i]
    if (entry.kind != J_ARR || entry.items.length != 2 || entry.items[0].kind != J_NUM || entry.items[1].kind != J_STR) continue
    const at = <i32>entry.items[0].num
    if (at < 0 || at >= messages.length) continue
    const text = entry.items[1].str
    const kept = new ByteBuf(String.UTF8.byteLength(text))
    kept.str(text)
    messages[at].shownOnly = kept
  }
}

function writeAfterLines(out: ByteBuf, messages: Array<Message>): void {
  let any = false
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]
    if (m.afterLine.length == 0) continue
    out.str((any ? ',[' : ',"after":[[') + i.toString() + ',')
    writeJsonString(out, m.afterLine)
    out.str(',' + m.afterLevel.toString() + ']')
    any = true
  }
  if (any) out.byte(0x5d)
}

function readAfterLines(list: JsonValue | null, messages: Array<Message>): void {
  if (list == null || list.kind != J_ARR) return
  for (let i = 0; i < list.items.length; i++) {
    const entry = list.items[i]
    if (entry.kind != J_ARR || entry.items.length != 3 || entry.items[0].kind != J_NUM || entry.items[1].kind != J_STR || entry.items[2].kind != J_NUM) continue
    const at = <i32>entry.items[0].num
    if (at < 0 || at >= messages.length) continue
    messages[at].afterLine = entry.items[1].str
    messages[at].afterLevel = <i32>entry.items[2].num
  }
}

function readU32(b: Uint8Array, at: i32): u32 {
  return <u32>b[at] | (<u32>b[at + 1] << 8) | (<u32>b[at + 2] << 16) | (<u32>b[at + 3] << 24)
}
