// The engine: one instance owns the screen and the conversation. `feed` dispatches one input
// frame; every handler records effects, and the frame ends with at most one terminal write.

import { ByteBuf, stringBuf, stringBytes } from './util/byte-buf'
import { parseJson, J_STR, JsonValue } from './util/json'
import { Effects } from './abi/frames'
import { Transcript } from './screen/transcript'
import { BRACKETED_PASTE_ON, GRAY, YELLOW } from './screen/ansi'
import { SPINNER_INTERVAL_MS } from './screen/footer'
import { render } from './screen/render'
import { clampCols } from './screen/screen'
import { Ui } from './screen/ui'
import { AgentLoop, DEFAULT_MAX_STEPS, RETRY_TIMER_ID } from './agent/loop'
import { readHostTools } from './agent/host-tools'
import { PickerState } from './commands/picker-state'
import { Settings } from './commands/settings'
import { modelsCommand, openModelPicker, providerCommand, restore, restoreConfig, syncModelInfo } from './commands/model-commands'
import { sentence } from './util/format'
import { showSessionList } from './commands/session-commands'
import { AuthPanel, applyAuthState, bootAuth, keyCommand } from './commands/auth-commands'
import { PromptHistory } from './input/prompt-history'
import { SessionState } from './session/session-state'
import { commitIfDue, forkSession, restoreSession } from './session/session'

export const SPINNER_TIMER_ID: u32 = 0xffff0001
export const HINT_TIMER_ID: u32 = 0xffff0002

/**
 * One engine. It builds the parts, and hands each family of code only its own: the commands get
 * the settings (commands/settings.ts), the session state (session/session-state.ts) or the
 * sign-in panel, and a frame is drawn from the screen side (terminal/ui.ts). All of them share one
 * effects buffer, one transcript and one agent loop. Only the key dispatcher
 * (input/key-dispatch.ts), which routes a key to any of them, takes the whole engine.
 */
export class Engine {
  fx: Effects
  transcript: Transcript
  loop: AgentLoop
  picks: PickerState
  settings: Settings
  sessions: SessionState
  history: PromptHistory
  /** Sign-in and key states shown by the engine (it never holds a token or key). */
  auth: AuthPanel
  ui: Ui
  booted: bool = false
  dirty: bool = false
  timerPending: bool = false
  lastEscMs: f64 = -1e9
  /** Booted with `restorePending`: stored settings and history have not arrived yet. */
  restorePending: bool = false
  /** Enter was pressed before they did: the draft is sent once they arrive. */
  submitHeld: bool = false
  private bootNotices: JsonValue | null = null
  /** A resize came while the Ctrl+O view was open: the transcript is redrawn when it closes. */
  reflowPending: bool = false
  /** The agent API (boot `headless`): no terminal output, no spinner; events and effects only. */
  headless: bool = false

  constructor() {
    const fx = new Effects()
    const transcript = new Transcript()
    const loop = new AgentLoop(fx, transcript)
    const picks = new PickerState()
    const settings = new Settings(fx, transcript, loop, picks)
    const history = new PromptHistory()
    const auth = new AuthPanel()
    this.fx = fx
    this.transcript = transcript
    this.loop = loop
    this.picks = picks
    this.settings = settings
    this.history = history
    this.auth = auth
    this.sessions = new SessionState(fx, transcript, loop, settings, picks, history)
    this.ui = new Ui(fx, transcript, loop, settings, picks, auth)
  }

  /** The time of the input being fed: one clock, the loop's, which every part reads. */
  get nowMs(): f64 {
    return this.loop.nowMs
  }

  set nowMs(ms: f64) {
    this.loop.nowMs = ms
  }

  boot(json: Uint8Array, start: i32, end: i32): void {
    const v = parseJson(json, start, end)
    if (v == null) {
      this.transcript.error(stringBytes('fxterm could not read its boot options.'))
    } else {
      this.setSize(<i32>v.getNumber('cols', 80), <i32>v.getNumber('rows', 24))
      const model = v.getString('model', 'demo')
      const providers = this.settings.providers
      providers.load(v, v.getString('provider', 'demo'), model)
      this.loop.provider = providers.active.name
      this.loop.model = model
      this.loop.compaction.offline = providers.active.name == 'demo'
      this.loop.maxSteps = max(1, <i32>v.getNumber('maxSteps', <f64>DEFAULT_MAX_STEPS))
      this.loop.withTools = v.getBool('tools', false)
      this.loop.cwd = v.getString('cwd', '/workspace')
      this.loop.root = this.loop.cwd
      this.settings.permissionPrompt = v.getString('permission', 'allow-sandboxed') == 'prompt'
      this.loop.askFirst = this.settings.permissionPrompt
      this.loop.conv.instructions = v.getString('instructions', '')
      this.loop.conv.toolDescription = v.getString('toolDescription', '')
      this.loop.conv.fileTools = v.getBool('fileTools', false)
      bootAuth(this.auth, v)
      this.headless = v.getBool('headless', false)
      this.sessions.headless = this.headless
      this.transcript.off = this.headless
      if (v.get('systemPrompt') != null) this.loop.conv.systemPrompt = v.getString('systemPrompt', '')
      readHostTools(v.get('hostTools'), this.loop.conv.hostTools)
      this.loop.effort = v.getString('effort', '')
      if (this.headless) this.loop.conv.describeNoWorkspace = false
    }
    this.booted = true
    if (v != null) {
      this.sessions.session.enabled = v.getBool('sessions', false)
      this.sessions.session.seed(<u32>v.getNumber('seed', 1))
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
      restoreConfig(this.settings, v.get('config'))
      const history = v.get('history')
      if (history != null) {
        const loaded: Array<ByteBuf> = []
        for (let i = 0; i < history.items.length; i++) {
          if (history.items[i].kind == J_STR) loaded.push(stringBuf(history.items[i].str))
        }
        // Prompts sent while the stores were read come after the stored ones.
        this.history.items = loaded.concat(this.history.items)
      }
      const instructions = v.get('instructions')
      if (instructions != null && instructions.kind == J_STR) this.loop.conv.instructions = instructions.str
    }
    if (!this.headless) this.transcript.banner(this.settings.label, this.loop.model)
    this.settings.requestCatalog(this.settings.providers.active)
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
    syncModelInfo(this.settings)
    this.dirty = true
    return true
  }

  /** The host's answer to a catalog request. */
  catalog(json: Uint8Array, start: i32, end: i32): void {
    const v = parseJson(json, start, end)
    if (v == null) return
    const settings = this.settings
    const p = settings.providers.setCatalog(v)
    if (p == null || p != settings.providers.active) return
    // A person's server that answers 401: ask for its key now (the one step it needs), and list
    // its models once the key is in.
    if (p.unauthorized && p.key == 'optional' && !p.saved && (p.announce || p.pickModel)) {
      p.announce = false
      p.pickModel = true
      settings.transcript.notice(p.name + ' answered 401: it wants a key.', YELLOW)
      keyCommand(settings, this.auth, p.name)
      this.dirty = true
      return
    }
    if (p.announce) {
      p.announce = false
      if (p.error.length > 0) settings.transcript.error(stringBytes(sentence(p.error)))
      else if (p.models.length == 0 && settings.loop.model.length == 0) settings.transcript.notice(p.label + ' lists no models yet: add one on the server, then /model.', GRAY)
    }
    syncModelInfo(settings)
    if (p.pickModel) {
      p.pickModel = false
      if (p.error.length == 0 && p.models.length > 1 && !settings.picks.picker.open) openModelPicker(settings)
    }
    if (settings.listModelsWhenLoaded) {
      settings.listModelsWhenLoaded = false
      modelsCommand(settings)
    }
    this.dirty = true
  }

  /** Input 20: providers added after boot (`/provider add`, or ones remembered from an earlier visit). */
  providersAdded(json: Uint8Array, start: i32, end: i32): void {
    const v = parseJson(json, start, end)
    if (v == null) return
    const added = this.settings.providers.upsert(v)
    const said = v.getString('notice', '')
    if (said.length > 0) this.settings.transcript.notice(said, GRAY)
    // Just added by this person (/provider add, or a URL typed after "another server"): used at
    // once, its model list offered when it answers.
    const use = this.settings.providers.find(v.getString('use', ''))
    if (use != null) {
      use.pickModel = true
      providerCommand(this.settings, use.name)
      this.dirty = true
      return
    }
    // The active one changed under it (added again with another address): ask its catalog anew.
    for (let i = 0; i < added.length; i++) if (added[i] == this.settings.providers.active) this.settings.requestCatalog(added[i])
    this.dirty = true
  }

  /** A saved session arrived (resume): replayed, and continued when it stopped mid-turn. */
  sessionBytes(bytes: Uint8Array, start: i32, end: i32, readOnly: bool, held: bool): void {
    this.picks.picker.open = false
    restoreSession(this.sessions, bytes, start, end, readOnly, held)
    this.dirty = true
  }

  /** What became of a commit (or a request) at the host. */
  sessionEvent(json: Uint8Array, start: i32, end: i32): void {
    const v = parseJson(json, start, end)
    if (v == null) return
    const type = v.getString('type', '')
    if (type == 'conflict') forkSession(this.sessions, 'Another tab saved this session at the same time.')
    else if (type == 'commit_ok') this.sessions.commitFailing = false
    else if (type == 'commit_error') {
      // Once per streak: the in-memory session goes on, and the last good record stays.
      if (!this.sessions.commitFailing) this.transcript.notice('The session could not be saved (' + v.getString('message', 'unknown error') + '). It goes on in this tab; the last saved copy is kept.', YELLOW)
      this.sessions.commitFailing = true
    } else if (type == 'missing') this.transcript.error(stringBytes('There is no saved session ' + v.getString('id', '') + '.'))
    this.dirty = true
  }

  /** Another tab changed a setting: apply it here too (it is already stored). */
  configChanged(json: Uint8Array, start: i32, end: i32): void {
    const v = parseJson(json, start, end)
    if (v == null) return
    restore(this.settings, v.getString('id', ''), v.getString('value', ''))
    syncModelInfo(this.settings)
    this.dirty = true
  }

  setSize(cols: i32, rows: i32): void {
    this.ui.screen.resize(cols, rows)
    this.transcript.cols = this.ui.screen.cols
  }

  /**
   * Every resize lays the whole transcript out again for the new size and redraws it on a
   * cleared terminal: what xterm reflowed by itself (a table cut mid-row, rows it added that the
   * live region's redraw then erased) is never left on screen. While the Ctrl+O view is open the
   * normal buffer cannot be written; it is redrawn when the view closes.
   */
  resize(cols: i32, rows: i32): void {
    const screen = this.ui.screen
    const changed = clampCols(cols) != screen.cols || min(max(rows, 2), 1000) != screen.rows
    this.setSize(cols, rows)
    if (changed && !this.headless && this.booted) {
      if (this.ui.view.open) this.reflowPending = true
      else this.reflow()
    }
    this.dirty = true
  }

  /** Clears the terminal in the next frame and writes the transcript again at the current width. */
  reflow(): void {
    this.reflowPending = false
    this.ui.screen.forget()
    this.ui.screen.clearFirst = true
    this.transcript.reflow(this.ui.screen.cols)
  }

  /** A message from the host (upload finished, file tree, download saved). */
  hostNotice(json: Uint8Array, start: i32, end: i32): void {
    const v = parseJson(json, start, end)
    if (v == null) return
    const text = v.getString('text', '')
    const level = v.getString('level', 'info')
    if (level == 'activity') {
      // Only while a command runs: the row it names exists then, and the note ends with it.
      this.loop.activityNote = this.loop.busy && this.loop.execRunning() ? text : ''
      this.dirty = true
      return
    }
    if (level == 'plain') this.transcript.lines(text)
    else if (level == 'error') this.transcript.error(stringBytes(text))
    else this.transcript.notice(text, level == 'warning' ? YELLOW : GRAY)
    this.dirty = true
  }

  /** A fresh conversation, every counter with it; the screen stays as it is. */
  newConversation(): void {
    if (this.loop.busy) this.loop.interrupt()
    this.loop.conv.clear()
    this.loop.forgetContextCount()
    this.loop.inputTokens = 0
    this.loop.outputTokens = 0
    this.sessions.session.reset()
    this.loop.sessionChanged()
  }

  /** /new, /clear: a fresh conversation and a clean screen. */
  clearAll(): void {
    this.newConversation()
    const w = new ByteBuf(16)
    w.str('\x1b[H\x1b[2J\x1b[3J')
    this.fx.write(w)
    this.ui.screen.forget()
    this.transcript.reset()
    this.transcript.banner(this.settings.label, this.loop.model)
  }

  exit(): void {
    if (this.loop.busy) this.loop.interrupt()
    this.transcript.notice('Goodbye.', GRAY)
    this.ui.exited = true
    this.fx.exit(0)
  }

  /** After each input: start the next queued prompt, keep the spinner ticking, redraw. */
  settle(): void {
    if (this.settings.leftDemo) {
      this.settings.leftDemo = false
      this.newConversation()
      this.transcript.notice('A new conversation with ' + this.settings.label + ': the demo\'s turns are not sent to it.', GRAY)
      this.dirty = true
    }
    if (!this.loop.busy && this.loop.steers.length > 0 && !this.ui.exited) {
      this.loop.submitSteers(this.nowMs)
      this.dirty = true
    }
    if (this.loop.busy && !this.timerPending && !this.headless) {
      this.fx.timer(SPINNER_TIMER_ID, SPINNER_INTERVAL_MS)
      this.timerPending = true
    }
    commitIfDue(this.sessions)
    if (this.headless) this.dirty = false
    else if (this.dirty || this.transcript.commit.length > 0) {
      render(this.ui)
      this.dirty = false
    }
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
}

// Two inputs index.ts hands over with the whole engine; their handlers get their part of it.

/** IN_SESSION_LIST: the host's list of saved sessions, for /resume or /sessions. */
export function sessionList(engine: Engine, json: Uint8Array, start: i32, end: i32): void {
  showSessionList(engine.sessions, json, start, end)
}

/** IN_AUTH: a sign-in display state from the host. */
export function authState(engine: Engine, json: Uint8Array, start: i32, end: i32): void {
  if (applyAuthState(engine.settings, engine.auth, json, start, end)) engine.markDirty()
}
