// The pickers under the composer: /model over the active provider's catalog, /resume over the
// saved sessions (Delete asks before removing one). The list itself is commands/picker.ts.

import { Engine } from '../engine'
import * as K from '../terminal/keys'
import { PICK_CHOSEN } from './picker'
import { modelIds, setModel, syncModelInfo } from './model-commands'
import { describe, openSession, removeSession, SessionEntry } from './session-commands'

/** /model with no id: a picker over the active provider's catalog. */
export function openModelPicker(engine: Engine): void {
  const p = engine.providers.active
  engine.pickingModels = true
  engine.picker.empty = p.loaded ? p.label + ' lists no models; set one with /model <id>.' : 'Loading the model list…'
  engine.picker.show('Choose a model on ' + p.label, modelIds(p), new Array<string>(), engine.loop.model)
  syncModelInfo(engine)
}

export function pickerKey(engine: Engine, k: K.Key): void {
  if (!engine.pickingModels && sessionPickerKey(engine, k)) return
  if (engine.picker.key(k) != PICK_CHOSEN) return
  const chosen = engine.picker.chosen()
  if (engine.pickingModels) {
    if (chosen.length > 0 && chosen != engine.loop.model) setModel(engine, chosen)
    return
  }
  const entry = chosenSession(engine)
  if (entry != null) openSession(engine, entry.id)
}

/** /resume: saved sessions, newest first; Delete asks before removing one. */
export function openSessionPicker(engine: Engine, entries: Array<SessionEntry>): void {
  engine.pickingModels = false
  engine.sessionEntries = entries
  engine.pendingDelete = null
  engine.picker.empty = 'There are no saved sessions.'
  engine.picker.show('Resume a session', sessionTitles(engine), sessionDetails(engine), '')
}

function sessionTitles(engine: Engine): Array<string> {
  const out = new Array<string>()
  for (let i = 0; i < engine.sessionEntries.length; i++) out.push(engine.sessionEntries[i].title)
  return out
}

function sessionDetails(engine: Engine): Array<string> {
  const out = new Array<string>()
  for (let i = 0; i < engine.sessionEntries.length; i++) out.push(describe(engine, engine.sessionEntries[i]))
  return out
}

function chosenSession(engine: Engine): SessionEntry | null {
  const m = engine.picker.matches()
  if (m.length == 0) return null
  return engine.sessionEntries[m[min(engine.picker.selected, m.length - 1)]]
}

/** Delete on an entry asks; y removes it, any other key keeps it. */
function sessionPickerKey(engine: Engine, k: K.Key): bool {
  const pending = engine.pendingDelete
  if (pending != null) {
    engine.pendingDelete = null
    if (k.kind == K.K_CHAR && (k.cp == 0x79 || k.cp == 0x59)) {
      removeSession(engine, pending)
      const at = engine.sessionEntries.indexOf(pending)
      if (at >= 0) engine.sessionEntries.splice(at, 1)
      engine.picker.setItems(sessionTitles(engine), sessionDetails(engine))
    }
    return true
  }
  if (k.kind == K.K_DELETE) {
    engine.pendingDelete = chosenSession(engine)
    return true
  }
  return false
}
