// The screen side of one engine, built by it: the screen, the composer, the Ctrl+O view and the
// slash menu, and everything else a frame is drawn from (terminal/render.ts): the transcript,
// the turn, the settings in the status line, the picker and the sign-in rows.

import { Effects } from '../abi/frames'
import { AgentLoop } from '../agent/loop'
import { Settings } from '../commands/settings'
import { PickerState } from '../commands/picker-state'
import { AuthPanel } from '../commands/auth-commands'
import { SlashMenu } from '../commands/slash-menu'
import { Composer } from './composer'
import { Screen } from './screen'
import { Transcript } from './transcript'
import { TranscriptView } from './transcript-view'

export class Ui {
  screen: Screen = new Screen()
  composer: Composer = new Composer()
  view: TranscriptView = new TranscriptView()
  menu: SlashMenu = new SlashMenu()
  /** /exit ran (or Ctrl+C twice, Ctrl+D): the last frame says so, keys are ignored. */
  exited: bool = false
  /** The last frame drew the cursor on the draft's last row (typing there may be echoed early). */
  cursorOnLastDraftRow: bool = false
  /** The approval row's highlighted answer: 1 yes, 2 yes always, 3 no. */
  approvalChoice: i32 = 1
  /** Until when a second Ctrl+C exits (the status line says so). */
  exitHintUntil: f64 = 0

  constructor(
    public fx: Effects,
    public transcript: Transcript,
    public loop: AgentLoop,
    public settings: Settings,
    public picks: PickerState,
    public auth: AuthPanel,
  ) {}
}
