// The engine: one instance owns the screen and the conversation. `feed` dispatches one input
// frame; every handler records effects, and the frame ends with at most one terminal write.

import { ByteBuf, stringBuf, stringBytes } from './util/byte-buf'
import { parseJson, J_STR, JsonValue, writeJsonString } from './util/json'
import { Effects, OUT_EVENT, OUT_ACTION, OUT_CLIPBOARD, OUT_CATALOG_REQUEST } from './abi/frames'
import { Composer } from './terminal/composer'
import { Screen } from './terminal/screen'
import { Transcript } from './terminal/transcript'
import { BRACKETED_PASTE_ON, GRAY, YELLOW } from './terminal/ansi'
import { SPINNER_INTERVAL_MS } from './terminal/footer'
import { render } from './terminal/render'
import { AgentLoop, DEFAULT_MAX_STEPS, RETRY_TIMER_ID } from './agent/loop'
import { ProviderInfo, Providers } from './agent/catalog'
import { SlashMenu } from './commands/slash-menu'
import { Picker } from './commands/picker'
import { modelsCommand, restore, restoreConfig, syncModelInfo } from './commands/model-commands'
import { SessionEntry } from './commands/session-commands'
import { TranscriptView } from './terminal/transcript-view'
import { Session, commitIfDue, forkSession, restoreSession } from './session/session'
import { AuthPanel, bootAuth } from './commands/auth-commands'
import { readHostTools } from './agent/host-tools'

export const SPINNER_TIMER_ID: u32 = 0xffff0001
export const HINT_TIMER_ID: u32 = 0xffff0002

export class Engine {
  fx: Effects
  screen: Screen = new Screen()
  transcript: Transcript
  composer: Composer = new Composer()
  loop: AgentLoop
  nowMs: f64 = 0
  providers: Providers = new Providers()
  picker: Picker = new Picker()
  /** What the picker lists: models (/model) or saved sessions (/resume). */
  pickingModels: bool = false
  sessionEntries: Array<SessionEntry> = []
  /** A session the person asked to delete, waiting for y. */
  pendingDelete: SessionEntry | null = null
  session: Session = new Session()
  /** Why the host's next session list was asked for (session-commands LIST_FOR_*). */
  sessionListFor: i32 = 0
  commitFailing: bool = false
  /** /models ran before the catalog arrived: list it when it does. */
  listModelsWhenLoaded: bool = false
  booted: bool = false
  exited: bool = false
  dirty: bool = false
  timerPending: bool = false
  view: TranscriptView = new TranscriptView()
  cursorOnLastDraftRow: bool = false
  menu: SlashMenu = new SlashMenu()
  ctrlCArmedUntil: f64 = 0
  lastEscMs: f64 = -1e9
  history: Array<ByteBuf> = []
  historyIndex: i32 = -1
  draft: ByteBuf | null = null
  /** The workspace asks before every command (permission 'prompt'); /mode ask does too. */
  permissionPrompt: bool = false
  modeAsk: bool = false
  approvalChoice: i32 = 1
  /** Sign-in and key states shown by the engine (it never holds a token or key). */
  auth: AuthPanel = new AuthPanel()
  /** Booted with `restorePending`: stored settings and history have not arrived yet. */
  restorePending: bool = false
  /** Enter was pressed before they did: the draft is sent once they arrive. */
  submitHeld: bool = false
  private bootNotices: JsonValue | null = null
  /** The agent API (boot `headless`): no terminal output, no spinner; events and effects only. */
  headless: bool = false

  constructor() {
    const fx = new Effects()
    const transcript = new Transcript()
    this.fx = fx
    this.transcript = transcript
    this.loop = new AgentLoop(fx, transcript)
  }

  boot(json: Uint8Array, start: i32, end: i32): void {
    const v = parseJson(json, start, end)
    if (v == null) {
      this.transcript.error(stringBytes('fxterm could not read its boot options.'))
    } else {
      this.setSize(<i32>v.getNumber('cols', 80), <i32>v.getNumber('rows', 24))
      const model = v.getString('model', 'demo')
      this.providers.load(v, v.getString('provider', 'demo'), model)
      this.loop.provider = this.providers.active.name
      this.loop.model = model
      this.loop.compaction.offline = this.providers.active.name == 'demo'
      this.loop.maxSteps = max(1, <i32>v.getNumber('maxSteps', <f64>DEFAULT_MAX_STEPS))
      this.loop.withTools = v.getBool('tools', false)
      this.loop.cwd = v.getString('cwd', '/workspace')
      this.loop.root = this.loop.cwd
      this.permissionPrompt = v.getString('permission', 'allow-sandboxed') == 'prompt'
      this.loop.askFirst = this.permissionPrompt
      this.loop.conv.instructions = v.getString('instructions', '')
      this.loop.conv.toolDescription = v.getString('toolDescription', '')
      bootAuth(this, v)
      this.headless = v.getBool('headless', false)
      this.transcript.off = this.headless
      if (v.get('systemPrompt') != null) this.loop.conv.systemPrompt = v.getString('systemPrompt', '')
      readHostTools(v.get('hostTools'), this.loop.conv.hostTools)
      this.loop.effort = v.getString('effort', '')
      if (this.headless) this.loop.conv.describeNoWorkspace = false
    }
    this.booted = true
    if (v != null) {
      this.session.enabled = v.getBool('sessions', false)
      this.session.seed(<u32>v.getNumber('seed', 1))
    }
    if (!this.headless) {
      const w = new ByteBuf(64)
      w.str(BRACKETED_PASTE_ON)
      this.fx.write(w)
    }
    // A host may boot before its stores answer (start-up does not wait on IndexedDB): the
    // composer works at once, and settings, history, the banner and notices follow (IN_RESTORE).
    if (v != null && v.getBool('restorePending', false)) {
      this.restorePending = true
      this.bootNotices = v.get('notices')
    } else this.applyStored(v, v != null ? v.get('notices') : null)
    this.dirty = true
  }

  /** Stored settings and history, then the banner and notices: at boot, or from IN_RESTORE. */
  private applyStored(v: JsonValue | null, notices: JsonValue | null): void {
    if (v != null) {
      restoreConfig(this, v.get('config'))
      const history = v.get('history')
      if (history != null) {
        const loaded: Array<ByteBuf> = []
        for (let i = 0; i < history.items.length; i++) {
          if (history.items[i].kind == J_STR) loaded.push(stringBuf(history.items[i].str))
        }
        // Prompts sent while the stores were read come after the stored ones.
        this.history = loaded.concat(this.history)
      }
      const instructions = v.get('instructions')
      if (instructions != null && instructions.kind == J_STR) this.loop.conv.instructions = instructions.str
    }
    if (!this.headless) this.transcript.banner(this.label, this.loop.model)
    this.requestCatalog(this.providers.active)
    this.printNotices(notices)
  }

  private printNotices(notices: JsonValue | null): void {
    if (notices == null) return
    for (let i = 0; i < notices.items.length; i++) {
      const n = notices.items[i]
      if (n.kind == J_STR) this.transcript.notice(n.str, YELLOW)
    }
  }

  /** IN_RESTORE, after a boot with `restorePending`: false (ignored) when nothing waits for it. */
  restore(json: Uint8Array, start: i32, end: i32): bool {
    if (!this.restorePending) return false
    this.restorePending = false
    const v = parseJson(json, start, end)
    this.applyStored(v, this.bootNotices)
    this.bootNotices = null
    if (v != null) this.printNotices(v.get('notices'))
    syncModelInfo(this)
    this.dirty = true
    return true
  }

  /** The active provider's label, e.g. `demo`, `ai-gateway`, `localhost:11434`. */
  get label(): string {
    return this.providers.active.label
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

  /** The host's answer to a catalog request. */
  catalog(json: Uint8Array, start: i32, end: i32): void {
    const v = parseJson(json, start, end)
    if (v == null) return
    const p = this.providers.setCatalog(v)
    if (p == null || p != this.providers.active) return
    syncModelInfo(this)
    if (this.listModelsWhenLoaded) {
      this.listModelsWhenLoaded = false
      modelsCommand(this)
    }
    this.dirty = true
  }

  /** A saved session arrived (resume): replayed, and continued when it stopped mid-turn. */
  sessionBytes(bytes: Uint8Array, start: i32, end: i32, readOnly: bool, held: bool): void {
    this.picker.open = false
    restoreSession(this, bytes, start, end, readOnly, held)
    this.dirty = true
  }

  /** What became of a commit (or a request) at the host. */
  sessionEvent(json: Uint8Array, start: i32, end: i32): void {
    const v = parseJson(json, start, end)
    if (v == null) return
    const type = v.getString('type', '')
    if (type == 'conflict') forkSession(this, 'Another tab saved this session at the same time.')
    else if (type == 'commit_ok') this.commitFailing = false
    else if (type == 'commit_error') {
      // Once per streak: the in-memory session goes on, and the last good record stays.
      if (!this.commitFailing) this.transcript.notice('The session could not be saved (' + v.getString('message', 'unknown error') + '). It goes on in this tab; the last saved copy is kept.', YELLOW)
      this.commitFailing = true
    } else if (type == 'missing') this.transcript.error(stringBytes('There is no saved session ' + v.getString('id', '') + '.'))
    this.dirty = true
  }

  /** Another tab changed a setting: apply it here too (it is already stored). */
  configChanged(json: Uint8Array, start: i32, end: i32): void {
    const v = parseJson(json, start, end)
    if (v == null) return
    restore(this, v.getString('id', ''), v.getString('value', ''))
    syncModelInfo(this)
    this.dirty = true
  }

  clearHistory(): void {
    this.history = []
    this.historyIndex = -1
  }

  setSize(cols: i32, rows: i32): void {
    this.screen.resize(cols, rows)
    this.transcript.cols = this.screen.cols
  }

  resize(cols: i32, rows: i32): void {
    this.setSize(cols, rows)
    this.dirty = true
  }

  /** Sets /mode: ask before each command, or run them (unless the workspace always asks). */
  setModeAsk(ask: bool, persist: bool = true): void {
    this.modeAsk = ask
    this.loop.askFirst = ask || this.permissionPrompt
    if (persist) this.fx.config('mode', ask ? 'ask' : 'auto')
  }

  /** Asks the host for something only it can do (list files, download the workspace). */
  action(name: string): void {
    const at = this.fx.begin(OUT_ACTION, 0)
    this.fx.buf.str('{"action":"' + name + '"}')
    this.fx.end(at)
  }

  /** An action whose JSON the caller built (it carries data, e.g. /export). */
  actionJson(json: ByteBuf): void {
    this.fx.emit(OUT_ACTION, 0, json)
  }

  /** A copy the person asked for (/copy, Cmd+C in the composer). */
  copyToClipboard(text: ByteBuf): void {
    this.fx.emit(OUT_CLIPBOARD, 0, text)
  }

  /** A message from the host (upload finished, file tree, download saved). */
  hostNotice(json: Uint8Array, start: i32, end: i32): void {
    const v = parseJson(json, start, end)
    if (v == null) return
    const text = v.getString('text', '')
    const level = v.getString('level', 'info')
    if (level == 'plain') this.transcript.lines(text)
    else if (level == 'error') this.transcript.error(stringBytes(text))
    else this.transcript.notice(text, level == 'warning' ? YELLOW : GRAY)
    this.dirty = true
  }

  /** /clear: a fresh conversation and a clean screen. */
  clearAll(): void {
    if (this.loop.busy) this.loop.interrupt()
    this.loop.conv.clear()
    this.loop.forgetContextCount()
    this.session.reset()
    const w = new ByteBuf(16)
    w.str('\x1b[H\x1b[2J\x1b[3J')
    this.fx.write(w)
    this.screen.forget()
    this.transcript.reset()
    this.transcript.banner(this.label, this.loop.model)
  }

  exit(): void {
    if (this.loop.busy) this.loop.interrupt()
    this.transcript.notice('Goodbye.', GRAY)
    this.exited = true
    this.fx.exit(0)
  }

  /** After each input: start the next queued prompt, keep the spinner ticking, redraw. */
  settle(): void {
    if (!this.loop.busy && this.loop.steers.length > 0 && !this.exited) {
      this.loop.submitSteers(this.nowMs)
      this.dirty = true
    }
    if (this.loop.busy && !this.timerPending && !this.headless) {
      this.fx.timer(SPINNER_TIMER_ID, SPINNER_INTERVAL_MS)
      this.timerPending = true
    }
    commitIfDue(this)
    if (this.headless) this.dirty = false
    else if (this.dirty || this.transcript.commit.length > 0) render(this)
  }

  timer(id: u32): void {
    if (id == HINT_TIMER_ID) this.dirty = true
    if (id == RETRY_TIMER_ID) {
      this.loop.retryNow()
      this.dirty = true
    }
    if (id == SPINNER_TIMER_ID) {
      this.timerPending = false
      if (this.loop.busy) this.dirty = true
    }
  }

  markDirty(): void {
    this.dirty = true
  }

  event(json: string): void {
    const at = this.fx.begin(OUT_EVENT, 0)
    this.fx.buf.str(json)
    this.fx.end(at)
  }
}
