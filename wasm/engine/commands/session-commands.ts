// /resume (a picker over saved sessions, with search and delete), /sessions, /rename and
// /history clear. The host owns the store; the engine asks it for the list and for one session.

import { Engine } from '../engine'
import { stringBytes } from '../util/byte-buf'
import { parseJson, writeJsonString, J_ARR, J_OBJ } from '../util/json'
import { OUT_HISTORY_CLEAR, OUT_SESSION_LIST, OUT_SESSION_OPEN, OUT_SESSION_REMOVE } from '../abi/frames'
import { GRAY } from '../terminal/ansi'
import { titleOf } from '../session/session'
import { openSessionPicker } from './pickers'

export const LIST_FOR_PICKER = 1
export const LIST_FOR_PRINT = 2

/** A saved session as the host lists it. */
export class SessionEntry {
  id: string = ''
  title: string = ''
  updatedMs: f64 = 0
  turns: i32 = 0
  firstPrompt: string = ''
}

export function resumeCommand(engine: Engine, arg: string): void {
  if (!engine.session.enabled) {
    engine.transcript.error(stringBytes('Sessions are not saved on this page (no session store), so there is nothing to resume.'))
    return
  }
  if (arg.length > 0) {
    openSession(engine, arg)
    return
  }
  engine.sessionListFor = LIST_FOR_PICKER
  engine.fx.emit(OUT_SESSION_LIST, 0, null)
}

export function sessionsCommand(engine: Engine): void {
  if (!engine.session.enabled) {
    engine.transcript.error(stringBytes('Sessions are not saved on this page (no session store).'))
    return
  }
  engine.sessionListFor = LIST_FOR_PRINT
  engine.fx.emit(OUT_SESSION_LIST, 0, null)
}

export function openSession(engine: Engine, id: string): void {
  const at = engine.fx.begin(OUT_SESSION_OPEN, 0)
  engine.fx.buf.str('{"id":')
  writeJsonString(engine.fx.buf, id)
  engine.fx.buf.byte(0x7d)
  engine.fx.end(at)
}

export function removeSession(engine: Engine, entry: SessionEntry): void {
  const at = engine.fx.begin(OUT_SESSION_REMOVE, 0)
  engine.fx.buf.str('{"id":')
  writeJsonString(engine.fx.buf, entry.id)
  engine.fx.buf.byte(0x7d)
  engine.fx.end(at)
  engine.transcript.notice('Deleted the session ' + entry.title + '.', GRAY)
}

/** The host's list (newest first): shown as a picker or printed. */
export function sessionList(engine: Engine, json: Uint8Array, start: i32, end: i32): void {
  const v = parseJson(json, start, end)
  const entries = new Array<SessionEntry>()
  if (v != null && v.kind == J_ARR) {
    for (let i = 0; i < v.items.length; i++) {
      const o = v.items[i]
      if (o.kind != J_OBJ) continue
      const e = new SessionEntry()
      e.id = o.getString('id', '')
      if (e.id.length == 0) continue
      e.firstPrompt = o.getString('firstPrompt', '')
      e.title = o.getString('title', '')
      if (e.title.length == 0) e.title = titleOf(e.firstPrompt)
      e.updatedMs = o.getNumber('updatedAtMs', 0)
      e.turns = <i32>o.getNumber('turns', 0)
      entries.push(e)
    }
  }
  const purpose = engine.sessionListFor
  engine.sessionListFor = 0
  if (purpose == LIST_FOR_PRINT) {
    printList(engine, entries)
    return
  }
  if (purpose != LIST_FOR_PICKER) return
  if (entries.length == 0) {
    engine.transcript.notice('There are no saved sessions yet.', GRAY)
    return
  }
  openSessionPicker(engine, entries)
}

function printList(engine: Engine, entries: Array<SessionEntry>): void {
  if (entries.length == 0) {
    engine.transcript.notice('There are no saved sessions yet.', GRAY)
    return
  }
  let text = 'Sessions (' + entries.length.toString() + ')\n'
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]
    const mark = e.id == engine.session.id ? '  ● ' : '    '
    text += mark + e.title.padEnd(40) + ' ' + describe(engine, e) + '\n'
  }
  text += 'Open one with /resume.'
  engine.transcript.lines(text)
}

/** `5m ago · 3 turns · first prompt…` */
export function describe(engine: Engine, e: SessionEntry): string {
  return age(engine.nowMs - e.updatedMs) + ' · ' + e.turns.toString() + (e.turns == 1 ? ' turn' : ' turns')
}

function age(ms: f64): string {
  const s = <i64>(max(0, ms) / 1000)
  if (s < 60) return 'just now'
  if (s < 3600) return (s / 60).toString() + 'm ago'
  if (s < 86400) return (s / 3600).toString() + 'h ago'
  return (s / 86400).toString() + 'd ago'
}

export function renameCommand(engine: Engine, arg: string): void {
  const t = engine.transcript
  if (arg.length == 0) {
    t.error(stringBytes('Give the new title: /rename <title>.'))
    return
  }
  const session = engine.session
  session.title = titleOf(arg)
  session.renamed = true
  session.due = true
  t.notice('Session renamed to ' + session.title + '.', GRAY)
}

export function historyCommand(engine: Engine, arg: string): void {
  if (arg != 'clear') {
    engine.transcript.error(stringBytes('Use /history clear to forget the prompts typed here.'))
    return
  }
  engine.clearHistory()
  engine.fx.emit(OUT_HISTORY_CLEAR, 0, null)
  engine.transcript.notice('Prompt history cleared.', GRAY)
}
