// What the picker under the composer lists: the active provider's models (/model) or the saved
// sessions (/resume), and a deletion waiting for its y. The list itself is commands/picker.ts.

import { Picker } from './picker'

/** A saved session as the host lists it. */
export class SessionEntry {
  id: string = ''
  title: string = ''
  updatedMs: f64 = 0
  turns: i32 = 0
  firstPrompt: string = ''
}

export class PickerState {
  picker: Picker = new Picker()
  /** What the picker lists: models (/model) or saved sessions (/resume). */
  pickingModels: bool = false
  /** The first-run provider picker (/model on the demo): hosted APIs, local servers, a URL. */
  pickingProviders: bool = false
  sessionEntries: Array<SessionEntry> = []
  /** A session the person asked to delete, waiting for y. */
  pendingDelete: SessionEntry | null = null
}
