// /resume (a picker over saved sessions, with search and delete), /sessions, /rename and
// /history clear. The host owns the store; the engine asks it for the list and for one session.

import { stringBytes } from '../util/byte-buf'
import { parseJson, writeJsonString, J_ARR, J_OBJ } from '../util/json'
import { OUT_HISTORY_CLEAR, OUT_SESSION_LIST, OUT_SESSION_OPEN, OUT_SESSION_REMOVE } from '../abi/frames'
import { GRAY } from '../screen/ansi'
import { titleOf } from '../session/session'
import { SessionState } from '../session/session-state'
import { SessionEntry } from './picker-state'

export const LIST_FOR_PICKER = 1
export const LIST_FOR_PRINT = 2

export function resumeCommand(s: SessionState, arg: string): void {
  if (!s.session.enabled) {
    s.transcript.error(stringBytes('Sessions are not saved on this page (no session store), so there is nothing to resume.'))
    return
  }
  if (arg.length > 0) {
    openSession(s, arg)
    return
  }
  s.listFor = LIST_FOR_PICKER
  s.fx.emit(OUT_SESSION_LIST, 0, null)
}

export function sessionsCommand(s: SessionState): void {
  if (!s.session.enabled) {
    s.transcript.error(stringBytes('Sessions are not saved on this page (no session store).'))
    return
  }
  s.listFor = LIST_FOR_PRINT
  s.fx.emit(OUT_SESSION_LIST, 0, null)
}

export function openSession(s: SessionState, id: string): void {
  const at = s.fx.begin(OUT_SESSION_OPEN, 0)
  s.fx.buf.str('{"id":')
  writeJsonString(s.fx.buf, id)
  s.fx.buf.byte(0x7d)
  s.fx.end(at)
}

export function removeSession(s: SessionState, entry: SessionEntry): void {
  const at = s.fx.begin(OUT_SESSION_REMOVE, 0)
  s.fx.buf.str('{"id":')
  writeJsonString(s.fx.buf, entry.id)
  s.fx.buf.byte(0x7d)
  s.fx.end(at)
  s.transcript.notice('Deleted the session ' + entry.title + '.', GRAY)
}

/** The host's list (newest first): shown as a picker or printed. */
export function showSessionList(s: SessionState, json: Uint8Array, start: i32, end: i32): void {
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
  const purpose = s.listFor
  s.listFor = 0
  if (purpose == LIST_FOR_PRINT) {
    printList(s, entries)
    return
  }
  if (purpose != LIST_FOR_PICKER) return
  if (entries.length == 0) {
    s.transcript.notice('There are no saved sessions yet.', GRAY)
    return
  }
  openSessionPicker(s, entries)
}

/** /resume: saved sessions, newest first; Delete asks before removing one (commands/pickers.ts). */
function openSessionPicker(s: SessionState, entries: Array<SessionEntry>): void {
  const picks = s.picks
  picks.pickingModels = false
  picks.sessionEntries = entries
  picks.pendingDelete = null
  picks.picker.empty = 'There are no saved sessions.'
  picks.picker.show('Resume a session', sessionTitles(s), sessionDetails(s), '', 'sessions')
}

export function sessionTitles(s: SessionState): Array<string> {
  const out = new Array<string>()
  for (let i = 0; i < s.picks.sessionEntries.length; i++) out.push(s.picks.sessionEntries[i].title)
  return out
}

export function sessionDetails(s: SessionState): Array<string> {
  const out = new Array<string>()
  for (let i = 0; i < s.picks.sessionEntries.length; i++) out.push(describe(s, s.picks.sessionEntries[i]))
  return out
}

function printList(s: SessionState, entries: Array<SessionEntry>): void {
  if (entries.length == 0) {
    s.transcript.notice('There are no saved sessions yet.', GRAY)
    return
  }
  let text = 'Sessions (' + entries.length.toString() + ')\n'
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]
    const mark = e.id == s.session.id ? '  ● ' : '    '
    text += mark + e.title.padEnd(40) + ' ' + describe(s, e) + '\n'
  }
  text += 'Open one with /resume.'
  s.transcript.lines(text)
}

/** `5m ago · 3 turns · first prompt…` */
export function describe(s: SessionState, e: SessionEntry): string {
  return age(s.nowMs - e.updatedMs) + ' · ' + e.turns.toString() + (e.turns == 1 ? ' turn' : ' turns')
}

function age(ms: f64): string {
  const s = <i64>(max(0, ms) / 1000)
  if (s < 60) return 'just now'
  if (s < 3600) return (s / 60).toString() + 'm ago'
  if (s < 86400) return (s / 3600).toString() + 'h ago'
  return (s / 86400).toString() + 'd ago'
}

export function renameCommand(s: SessionState, arg: string): void {
  const t = s.transcript
  if (arg.length == 0) {
    t.error(stringBytes('Give the new title: /rename <title>.'))
    return
  }
  const session = s.session
  session.title = titleOf(arg)
  session.renamed = true
  session.due = true
  t.notice('Session renamed to ' + session.title + '.', GRAY)
}

export function historyCommand(s: SessionState, arg: string): void {
  if (arg != 'clear') {
    s.transcript.error(stringBytes('Use /history clear to forget the prompts typed here.'))
    return
  }
  s.history.clear()
  s.fx.emit(OUT_HISTORY_CLEAR, 0, null)
  s.transcript.notice('Prompt history cleared.', GRAY)
}
