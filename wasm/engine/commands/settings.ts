// The settings the commands change (configStore ids `provider`, `model`, `fast`, `mode`, `a11y`),
// built by the engine and handed to the model, mode, a11y and sign-in commands with what changing
// one touches: the loop that uses it, the effects that store it, the transcript and the picker
// that show it.

import { Effects, OUT_CATALOG_REQUEST } from '../abi/frames'
import { writeJsonString } from '../util/json'
import { AgentLoop } from '../agent/loop'
import { ProviderInfo, Providers } from '../agent/catalog'
import { Transcript } from '../screen/transcript'
import { PickerState } from './picker-state'

export class Settings {
  /** The providers this page offers, and the active one (its model is `loop.model`). */
  providers: Providers = new Providers()
  /** The workspace asks before every command (permission 'prompt'); /mode ask does too. */
  permissionPrompt: bool = false
  modeAsk: bool = false
  /** /models ran before the catalog arrived: list it when it does. */
  listModelsWhenLoaded: bool = false
  /** The /diff and /undo waiting for the workspace's answer (0: none); commands/change-commands.ts. */
  diffRequestId: u32 = 0
  undoRequestId: u32 = 0
  /**
   * The offline demo was left for a real model with the demo's talk on screen: the engine starts
   * a new conversation, so none of the recorded turns is sent to a real model.
   */
  leftDemo: bool = false
  /** The picker's "another server" was chosen: the composer's next line is its URL (own-server.ts). */
  askingUrl: bool = false

  constructor(
    public fx: Effects,
    public transcript: Transcript,
    public loop: AgentLoop,
    public picks: PickerState,
  ) {}

  /** The active provider's label, e.g. `demo`, `ai-gateway`, `localhost:11434`. */
  get label(): string {
    return this.providers.active.label
  }

  /** Sets /mode: ask before each command, or run them (unless the workspace always asks). */
  setModeAsk(ask: bool, persist: bool = true): void {
    this.modeAsk = ask
    this.loop.askFirst = ask || this.permissionPrompt
    if (persist) this.fx.config('mode', ask ? 'ask' : 'auto')
  }

  /** Asks the host for a provider's model catalog, once. */
  requestCatalog(p: ProviderInfo): void {
    if (p.requested) return
    p.requested = true
    const at = this.fx.begin(OUT_CATALOG_REQUEST, 0)
    this.fx.buf.str('{"provider":')
    writeJsonString(this.fx.buf, p.name)
    this.fx.buf.byte(0x7d)
    this.fx.end(at)
  }
}
