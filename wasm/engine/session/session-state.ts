// What the session functions (session.ts: commit, resume, fork) and the session commands
// (commands/session-commands.ts) read and change, built by the engine: the record being written,
// why the host's list was asked for, and what a resume or a fork touches.

import { Effects } from '../abi/frames'
import { AgentLoop } from '../agent/loop'
import { Transcript } from '../screen/transcript'
import { Settings } from '../commands/settings'
import { PickerState } from '../commands/picker-state'
import { PromptHistory } from '../input/prompt-history'
import { Session } from './session-record'

export class SessionState {
  session: Session = new Session()
  /** Why the host's next session list was asked for (session-commands LIST_FOR_*). */
  listFor: i32 = 0
  /** The last commit failed: the next failure is not reported again. */
  commitFailing: bool = false
  /** The agent API (boot `headless`): no one to ask, so an interrupted turn just continues. */
  headless: bool = false

  constructor(
    public fx: Effects,
    public transcript: Transcript,
    public loop: AgentLoop,
    public settings: Settings,
    public picks: PickerState,
    public history: PromptHistory,
  ) {}

  /** The time of the input being fed. */
  get nowMs(): f64 {
    return this.loop.nowMs
  }

  /** /mode ask: a session stores it, and a resumed one brings it back. */
  get modeAsk(): bool {
    return this.settings.modeAsk
  }

  setModeAsk(ask: bool, persist: bool = true): void {
    this.settings.setModeAsk(ask, persist)
  }
}
