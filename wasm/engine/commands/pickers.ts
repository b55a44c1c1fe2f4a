// Keys in the pickers under the composer: /model over the active provider's catalog, /resume over
// the saved sessions (Delete asks before removing one). Each command opens its own picker; the
// list itself is commands/picker.ts, what it lists commands/picker-state.ts.

import * as K from '../screen/keys'
import { SessionState } from '../session/session-state'
import { PICK_CHOSEN } from './picker'
import { SessionEntry } from './picker-state'
import { Settings } from './settings'
import { setModel } from './model-commands'
import { AuthPanel, providerPicked } from './auth-commands'
import { openSession, removeSession, sessionDetails, sessionTitles } from './session-commands'

export function pickerKey(settings: Settings, sessions: SessionState, auth: AuthPanel, k: K.Key): void {
  const picks = settings.picks
  if (!picks.pickingModels && !picks.pickingProviders && sessionPickerKey(sessions, k)) return
  const result = picks.picker.key(k)
  if (result != PICK_CHOSEN) {
    if (!picks.picker.open) picks.pickingProviders = false
    return
  }
  const chosen = picks.picker.chosen()
  if (picks.pickingProviders) {
    providerPicked(settings, auth, chosen)
    return
  }
  if (picks.pickingModels) {
    if (chosen.length > 0 && chosen != settings.loop.model) setModel(settings, chosen)
    return
  }
  const entry = chosenSession(sessions)
  if (entry != null) openSession(sessions, entry.id)
}

function chosenSession(s: SessionState): SessionEntry | null {
  const m = s.picks.picker.matches()
  if (m.length == 0) return null
  return s.picks.sessionEntries[m[min(s.picks.picker.selected, m.length - 1)]]
}

/** Delete on an entry asks; y removes it, any other key keeps it. */
function sessionPickerKey(s: SessionState, k: K.Key): bool {
  const picks = s.picks
  const pending = picks.pendingDelete
  if (pending != null) {
    picks.pendingDelete = null
    if (k.kind == K.K_CHAR && (k.cp == 0x79 || k.cp == 0x59)) {
      removeSession(s, pending)
      const at = picks.sessionEntries.indexOf(pending)
      if (at >= 0) picks.sessionEntries.splice(at, 1)
      picks.picker.setItems(sessionTitles(s), sessionDetails(s))
    }
    return true
  }
  if (k.kind == K.K_DELETE) {
    picks.pendingDelete = chosenSession(s)
    return true
  }
  return false
}
