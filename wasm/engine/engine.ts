// The engine: one instance owns the screen and the conversation. `feed` dispatches one input
// frame; every handler records effects, and the frame ends with at most one terminal write.

import { ByteBuf, stringBytes } from './util/byte-buf'
import { parseJson, J_STR, writeJsonString } from './util/json'
import { Effects, OUT_EVENT, OUT_ACTION, OUT_CLIPBOARD, OUT_ECHO_HINT, OUT_CATALOG_REQUEST, OUT_HISTORY_APPEND } from './abi/frames'
import { Composer } from './terminal/composer'
import { Rows } from './terminal/layout'
import { Screen } from './terminal/screen'
import { Transcript } from './terminal/transcript'
import * as K from './terminal/keys'
import { BRACKETED_PASTE_ON, GRAY, RESET, YELLOW } from './terminal/ansi'
import { activityRow, divider, grayRow, queuedRows, retryRow, SPINNER_INTERVAL_MS } from './terminal/footer'
import { AgentLoop, DEFAULT_MAX_STEPS, RETRY_TIMER_ID } from './agent/loop'
import { formatWindow, ProviderInfo, Providers, shortModelName } from './agent/catalog'
import { MAX_ATTEMPTS } from './agent/retry'
import { runSlash } from './commands/run-slash'
import { SlashMenu } from './commands/slash-menu'
import { Picker, PICK_CHOSEN } from './commands/picker'
import { modelIds, modelsCommand, restore, restoreConfig, setModel, syncModelInfo } from './commands/model-commands'
import { TranscriptView } from './terminal/transcript-view'
import { Session, commitIfDue, forkSession, restoreSession } from './session/session'
import { describe, openSession, removeSession, SessionEntry } from './commands/session-commands'

const SPINNER_TIMER_ID: u32 = 0xffff0001
const HINT_TIMER_ID: u32 = 0xffff0002
const EXIT_CHORD_MS: f64 = 3000
const DOUBLE_ESC_MS: f64 = 500

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
  private sessionEntries: Array<SessionEntry> = []
  /** A session the person asked to delete, waiting for y. */
  private pendingDelete: SessionEntry | null = null
  session: Session = new Session()
  /** Why the host's next session list was asked for (session-commands LIST_FOR_*). */
  sessionListFor: i32 = 0
  private commitFailing: bool = false
  /** /models ran before the catalog arrived: list it when it does. */
  listModelsWhenLoaded: bool = false
  booted: bool = false
  exited: bool = false
  private dirty: bool = false
  private timerPending: bool = false
  view: TranscriptView = new TranscriptView()
  private cursorOnLastDraftRow: bool = false
  private menu: SlashMenu = new SlashMenu()
  private ctrlCArmedUntil: f64 = 0
  private lastEscMs: f64 = -1e9
  private history: Array<ByteBuf> = []
  private historyIndex: i32 = -1
  private draft: ByteBuf | null = null
  /** The workspace asks before every command (permission 'prompt'); /mode ask does too. */
  permissionPrompt: bool = false
  modeAsk: bool = false
  private approvalChoice: i32 = 1

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
    }
    this.booted = true
    if (v != null) {
      restoreConfig(this, v.get('config'))
      this.session.enabled = v.getBool('sessions', false)
      this.session.seed(<u32>v.getNumber('seed', 1))
      const history = v.get('history')
      if (history != null) {
        for (let i = 0; i < history.items.length; i++) {
          if (history.items[i].kind == J_STR) this.history.push(stringBuf(history.items[i].str))
        }
      }
    }
    const w = new ByteBuf(64)
    w.str(BRACKETED_PASTE_ON)
    this.fx.write(w)
    this.transcript.banner(this.label, this.loop.model)
    this.requestCatalog(this.providers.active)
    if (v != null) {
      const notices = v.get('notices')
      if (notices != null) {
        for (let i = 0; i < notices.items.length; i++) {
          const n = notices.items[i]
          if (n.kind == J_STR) this.transcript.notice(n.str, YELLOW)
        }
      }
    }
    this.dirty = true
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

  /** /model with no id: a picker over the active provider's catalog. */
  openModelPicker(): void {
    const p = this.providers.active
    this.pickingModels = true
    this.picker.empty = p.loaded ? p.label + ' lists no models; set one with /model <id>.' : 'Loading the model list…'
    this.picker.show('Choose a model on ' + p.label, modelIds(p), new Array<string>(), this.loop.model)
    syncModelInfo(this)
  }

  private pickerKey(k: K.Key): void {
    if (!this.pickingModels && this.sessionPickerKey(k)) return
    if (this.picker.key(k) != PICK_CHOSEN) return
    const chosen = this.picker.chosen()
    if (this.pickingModels) {
      if (chosen.length > 0 && chosen != this.loop.model) setModel(this, chosen)
      return
    }
    const entry = this.chosenSession()
    if (entry != null) openSession(this, entry.id)
  }

  /** /resume: saved sessions, newest first; Delete asks before removing one. */
  openSessionPicker(entries: Array<SessionEntry>): void {
    this.pickingModels = false
    this.sessionEntries = entries
    this.pendingDelete = null
    this.picker.empty = 'There are no saved sessions.'
    this.picker.show('Resume a session', this.sessionTitles(), this.sessionDetails(), '')
  }

  private sessionTitles(): Array<string> {
    const out = new Array<string>()
    for (let i = 0; i < this.sessionEntries.length; i++) out.push(this.sessionEntries[i].title)
    return out
  }

  private sessionDetails(): Array<string> {
    const out = new Array<string>()
    for (let i = 0; i < this.sessionEntries.length; i++) out.push(describe(this, this.sessionEntries[i]))
    return out
  }

  private chosenSession(): SessionEntry | null {
    const m = this.picker.matches()
    if (m.length == 0) return null
    return this.sessionEntries[m[min(this.picker.selected, m.length - 1)]]
  }

  /** Delete on an entry asks; y removes it, any other key keeps it. */
  private sessionPickerKey(k: K.Key): bool {
    const pending = this.pendingDelete
    if (pending != null) {
      this.pendingDelete = null
      if (k.kind == K.K_CHAR && (k.cp == 0x79 || k.cp == 0x59)) {
        removeSession(this, pending)
        const at = this.sessionEntries.indexOf(pending)
        if (at >= 0) this.sessionEntries.splice(at, 1)
        this.picker.setItems(this.sessionTitles(), this.sessionDetails())
      }
      return true
    }
    if (k.kind == K.K_DELETE) {
      this.pendingDelete = this.chosenSession()
      return true
    }
    return false
  }

  /** A saved session arrived (resume): replayed, and continued when it stopped mid-turn. */
  sessionBytes(bytes: Uint8Array, start: i32, end: i32, readOnly: bool): void {
    this.picker.open = false
    restoreSession(this, bytes, start, end, readOnly)
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

  keys(bytes: Uint8Array, start: i32, end: i32): void {
    if (this.exited) return
    const keys = K.parseKeys(bytes, start, end)
    for (let i = 0; i < keys.length && !this.exited; i++) {
      const k = keys[i]
      if (this.view.open) this.viewKey(k)
      else if (this.picker.open) this.pickerKey(k)
      else if (k.kind == K.K_CTRL && k.cp == 0x6f) this.openView()
      else if (!this.menuKey(k)) this.key(k)
    }
    this.dirty = true
  }

  /** Ctrl+O: the whole transcript in the alternate screen. */
  private openView(): void {
    const out = new ByteBuf(64)
    this.view.show(out, this.transcript.log, this.screen.rows)
    this.fx.write(out)
  }

  private viewKey(k: K.Key): void {
    if (this.view.key(k, this.transcript.log, this.screen.rows)) return
    const out = new ByteBuf(16)
    this.view.hide(out)
    this.fx.write(out)
  }

  /** The command menu takes Up/Down, Tab, Enter and Esc while it is open. */
  private menuKey(k: K.Key): bool {
    if (this.loop.pendingApproval != null) return false
    const draft = this.composer.toBuf().toString()
    const matches = this.menu.matches(draft)
    if (matches.length == 0) return false
    if (k.kind == K.K_UP) this.menu.move(-1, matches.length)
    else if (k.kind == K.K_DOWN) this.menu.move(1, matches.length)
    else if (k.kind == K.K_ESCAPE) this.menu.dismiss(draft)
    else if (k.kind == K.K_TAB) this.completeCommand(matches)
    else if (k.kind == K.K_ENTER) {
      const name = this.menu.selectedName(matches)
      if (name != draft) this.composer.setText(stringBuf(name))
      return false // Enter then runs it as usual
    } else return false
    return true
  }

  private completeCommand(matches: Array<i32>): void {
    this.composer.setText(stringBuf(this.menu.selectedName(matches) + ' '))
  }

  private key(k: K.Key): void {
    if (this.loop.pendingApproval != null && this.approvalKey(k)) return
    const c = this.composer
    switch (k.kind) {
      case K.K_CHAR: if (k.cp >= 0xa0 || (k.cp >= 0x20 && k.cp < 0x7f)) c.insert(k.cp); break
      case K.K_PASTE: c.paste(k.text as ByteBuf); break
      case K.K_NEWLINE: c.newline(); break
      case K.K_ENTER: this.enter(); break
      case K.K_BACKSPACE: c.backspace(); break
      case K.K_DELETE: c.deleteForward(); break
      case K.K_LEFT: c.left(); break
      case K.K_RIGHT: c.right(); break
      case K.K_HOME: c.home(); break
      case K.K_END: c.end(); break
      case K.K_TOP: c.top(); break
      case K.K_BOTTOM: c.bottom(); break
      case K.K_WORD_LEFT: c.wordLeft(); break
      case K.K_WORD_RIGHT: c.wordRight(); break
      case K.K_WORD_BACKSPACE: c.killWordBack(); break
      case K.K_WORD_DELETE: c.killWordForward(); break
      case K.K_UNDO: c.undo(); break
      case K.K_REDO: c.redo(); break
      case K.K_SELECT_ALL: c.selectAll(); break
      case K.K_COPY: this.copySelection(false); break
      case K.K_CUT: this.copySelection(true); break
      case K.K_UP: this.lineUp(); break
      case K.K_DOWN: this.lineDown(); break
      case K.K_ESCAPE:
        // Esc first drops a selection (unless it has a turn to stop).
        if (c.hasSelection && !this.loop.busy) c.deselect()
        else this.escape()
        break
      case K.K_CTRL: this.ctrl(k.cp); break
    }
  }

  /** Keys while the approval row is up: 1/2/3, arrows and Enter answer it, Esc denies. */
  private approvalKey(k: K.Key): bool {
    if (k.kind == K.K_CHAR && k.cp >= 0x31 && k.cp <= 0x33) this.answer(k.cp - 0x30)
    else if (k.kind == K.K_UP) this.approvalChoice = max(1, this.approvalChoice - 1)
    else if (k.kind == K.K_DOWN) this.approvalChoice = min(3, this.approvalChoice + 1)
    else if (k.kind == K.K_ENTER) this.answer(this.approvalChoice)
    else if (k.kind == K.K_ESCAPE) this.answer(3)
    else return false
    return true
  }

  private answer(choice: i32): void {
    this.approvalChoice = 1
    this.loop.answerApproval(choice)
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

  private ctrl(letter: i32): void {
    const c = this.composer
    if (letter == 0x61) c.home()
    else if (letter == 0x65) c.end()
    else if (letter == 0x62) c.left()
    else if (letter == 0x66) c.right()
    else if (letter == 0x6b) c.killToEnd()
    else if (letter == 0x75) c.killToStart()
    else if (letter == 0x77) c.killSpaceWordBack()
    else if (letter == 0x79) c.yank()
    else if (letter == 0x5f || letter == 0x7a) c.undo() // Ctrl+_ (Cmd/Ctrl+Z arrive as Ctrl+_)
    else if (letter == 0x78) this.copySelection(true) // Ctrl+X cuts a selection
    else if (letter == 0x70) this.lineUp()
    else if (letter == 0x6e) this.lineDown()
    else if (letter == 0x64) {
      if (c.isEmpty && !this.loop.busy) this.exit()
      else c.deleteForward()
    } else if (letter == 0x63) {
      // Ctrl+C with a selection copies it (and drops the selection, so the next one interrupts).
      if (c.hasSelection) {
        this.copySelection(false)
        c.deselect()
        return
      }
      // Ctrl+C stops the turn, else clears the draft; a second one within 3 s exits.
      if (this.nowMs < this.ctrlCArmedUntil) {
        this.exit()
        return
      }
      if (this.loop.busy) this.interruptTurn()
      else if (!c.isEmpty) c.clear()
      this.ctrlCArmedUntil = this.nowMs + EXIT_CHORD_MS
      this.fx.timer(HINT_TIMER_ID, EXIT_CHORD_MS)
    } else if (letter == 0x6c) {
      const w = new ByteBuf(16)
      w.str('\x1b[H\x1b[2J')
      this.fx.write(w)
      this.screen.forget()
    }
  }

  /** Cmd+C / Ctrl+C copy the selection; Cmd+X / Ctrl+X cut it. Nothing without a selection. */
  private copySelection(cut: bool): void {
    const text = this.composer.selectedText()
    if (text == null) return
    this.copyToClipboard(text)
    if (cut) this.composer.deleteSelection()
  }

  /** Up, Ctrl+P: the row above in the draft; on the first row, a queued prompt or history. */
  private lineUp(): void {
    if (this.composer.up(this.screen.cols)) return
    if (!this.editLastSteer()) this.walkHistory(-1)
  }

  /** Down, Ctrl+N: the row below in the draft; on the last row, newer history. */
  private lineDown(): void {
    if (!this.composer.down(this.screen.cols)) this.walkHistory(1)
  }

  /** Esc stops the turn; twice within 500 ms on an idle draft, it clears the draft. */
  private escape(): void {
    if (this.loop.busy) this.interruptTurn()
    else if (this.nowMs - this.lastEscMs < DOUBLE_ESC_MS) this.composer.clear()
    this.lastEscMs = this.nowMs
  }

  /** Stops the turn; prompts queued for it go back into the draft instead of being sent. */
  private interruptTurn(): void {
    this.loop.interrupt()
    if (this.loop.steers.length == 0) return
    const text = new ByteBuf(64)
    for (let i = 0; i < this.loop.steers.length; i++) {
      if (i > 0) text.byte(0x0a)
      text.append(this.loop.steers[i])
    }
    if (!this.composer.isEmpty) text.byte(0x0a)
    this.loop.steers = []
    const draft = this.composer.toBuf()
    text.append(draft)
    this.composer.setText(text)
  }

  /** Up on an empty draft while prompts are queued takes the last one back to edit. */
  private editLastSteer(): bool {
    if (!this.composer.isEmpty || this.loop.steers.length == 0) return false
    const text = this.loop.takeLastSteer()
    if (text != null) this.composer.setText(text)
    return true
  }

  private enter(): void {
    const c = this.composer
    // A backslash right before the cursor continues the draft on a new line (as in a shell).
    if (c.continueLine()) return
    const draft = c.toBuf()
    const s = draft.toString().trim()
    if (s.length == 0) return
    // Pastes shown as placeholders go out in full: the transcript card and the model get them.
    // History keeps the draft as typed (its placeholders still expand).
    const text = c.expanded()
    c.reset()
    this.remember(draft)
    if (s.charCodeAt(0) == 0x2f && s.indexOf('\n') < 0) {
      this.slash(s)
      return
    }
    if (this.loop.model.length == 0) {
      this.transcript.error(stringBytes('No model is chosen on ' + this.label + ' yet: pick one with /model.'))
      this.composer.setText(text)
      return
    }
    if (this.session.readOnly) forkSession(this, 'This session is open in another tab.')
    if (this.loop.busy) {
      this.loop.steer(text)
      return
    }
    this.loop.submit(text, this.nowMs)
  }

  private remember(text: ByteBuf): void {
    const n = this.history.length
    if (n == 0 || this.history[n - 1].toString() != text.toString()) this.history.push(text)
    this.fx.emit(OUT_HISTORY_APPEND, 0, text)
    this.historyIndex = -1
    this.draft = null
  }

  private walkHistory(dir: i32): void {
    const n = this.history.length
    if (n == 0) return
    if (this.historyIndex < 0) {
      if (dir > 0) return
      this.draft = this.composer.toBuf()
      this.historyIndex = n - 1
    } else {
      this.historyIndex += dir
      if (this.historyIndex >= n) {
        this.historyIndex = -1
        this.composer.setText(this.draft != null ? (this.draft as ByteBuf) : new ByteBuf(0))
        return
      }
      if (this.historyIndex < 0) this.historyIndex = 0
    }
    this.composer.setText(this.history[this.historyIndex])
  }

  private slash(s: string): void {
    runSlash(this, s)
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
    if (this.loop.busy && !this.timerPending) {
      this.fx.timer(SPINNER_TIMER_ID, SPINNER_INTERVAL_MS)
      this.timerPending = true
    }
    commitIfDue(this)
    if (this.dirty || this.transcript.commit.length > 0) this.render()
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

  private render(): void {
    const cols = this.screen.cols
    if (this.view.open) {
      // Commits wait in the transcript until the view closes; only the view is drawn.
      const out = new ByteBuf(4096)
      this.view.render(out, this.transcript.log, this.screen.rows, cols)
      this.fx.write(out)
      this.dirty = false
      return
    }
    const live = new Rows()
    this.transcript.liveRows(live)
    const running = this.loop.runningCommandText
    if (running != null) this.transcript.toolRunningRow(live, running)
    const pending = this.loop.pendingApproval
    if (pending != null) this.transcript.approvalRows(live, pending, this.approvalChoice)
    if (this.exited) {
      live.add(new ByteBuf(0), 0)
      const end = new ByteBuf(64)
      end.str(GRAY + 'Session ended · reload the page to start again' + RESET)
      live.add(end, 46)
      this.present(live, live.count - 1, 0)
      return
    }
    queuedRows(live, cols, this.loop.steers)
    live.add(new ByteBuf(0), 0)
    if (this.loop.busy) this.activity(live, cols)
    else live.add(new ByteBuf(0), 0)
    divider(live, cols)
    const composerTop = live.count
    // The composer grows to about half the screen, then scrolls to keep the cursor in view.
    const draft = new Rows()
    this.composer.layout(draft, cols, '')
    this.cursorOnLastDraftRow = this.composer.cursorRow == draft.count - 1
    const maxDraft = max(1, this.screen.rows / 2)
    let first = 0
    if (draft.count > maxDraft) first = min(max(0, this.composer.cursorRow - maxDraft + 1), draft.count - maxDraft)
    const shown = min(draft.count - first, maxDraft)
    for (let i = first; i < first + shown; i++) live.add(draft.lines[i], draft.widths[i])
    divider(live, cols)
    const matches = this.loop.pendingApproval == null ? this.menu.matches(this.composer.toBuf().toString()) : new Array<i32>()
    const deleting = this.pendingDelete
    if (deleting != null) grayRow(live, cols, '  Delete the session "' + deleting.title + '"? y deletes it · any other key keeps it', YELLOW)
    else if (this.picker.open) this.picker.rows(live, cols)
    else if (matches.length > 0) this.menu.rows(live, matches, cols)
    else this.statusRow(live, cols)
    this.present(live, composerTop + this.composer.cursorRow - first, this.composer.cursorCol)
  }

  /**
   * Draws the live region. It never takes more rows than the screen has: the cursor could not
   * move back above the screen's top, and the next redraw would leave stale rows behind. When
   * it is too tall, its first rows (the oldest streaming text) wait off screen until committed.
   */
  private present(all: Rows, row: i32, col: i32): void {
    let live = all
    const allowed = max(1, this.screen.rows - 1)
    if (all.count > allowed) {
      const skip = min(all.count - allowed, row)
      live = new Rows()
      for (let i = skip; i < all.count; i++) live.add(all.lines[i], all.widths[i])
      row -= skip
    }
    const out = new ByteBuf(this.transcript.commit.length + 512)
    this.screen.present(out, this.transcript.commit, live, row, col)
    this.transcript.commit.reset()
    this.fx.write(out)
    this.dirty = false
    this.echoHint()
  }

  /**
   * Tells the host how many typed ASCII characters it may echo itself before this engine's next
   * frame arrives: a worker's answer reaches the page a frame later, while a local echo shows in
   * the same frame. Only when typing simply appends to the draft's last row; the next frame
   * redraws the row either way, so a wrong guess lasts one frame.
   */
  private echoHint(): void {
    const c = this.composer
    let columns = 0
    if (!this.exited && !this.view.open && this.loop.pendingApproval == null && c.cursor == c.text.length && this.cursorOnLastDraftRow && !c.hasSelection) {
      columns = max(0, this.screen.cols - 1 - this.screen.cursorCol)
    }
    const at = this.fx.begin(OUT_ECHO_HINT, 0)
    this.fx.buf.writeU32(<u32>columns)
    this.fx.end(at)
  }

  /** The activity row: what the turn is doing, or the retry countdown. */
  private activity(live: Rows, cols: i32): void {
    const loop = this.loop
    if (loop.retryAtMs > 0) {
      const wait = <i64>Math.ceil(max(0, loop.retryAtMs - this.nowMs) / 1000)
      retryRow(live, cols, loop.retryWhy + ' · retrying in ' + wait.toString() + 's · attempt ' + loop.attempt.toString() + '/' + MAX_ATTEMPTS.toString())
      return
    }
    const compacting = loop.compaction.running
    const since = compacting ? loop.compaction.startMs : loop.turnStartMs
    const elapsed = formatElapsed(<i64>((this.nowMs - since) / 1000))
    const what = compacting ? 'Compacting…' : loop.pendingApproval != null ? 'Waiting for you…' : loop.waitingForModel ? 'Thinking…' : 'Running…'
    let detail = ' (' + elapsed
    if (loop.inputTokens > 0 || loop.outputTokens > 0) {
      detail += ' · ↑' + formatCount(loop.inputTokens) + ' ↓' + formatCount(loop.outputTokens)
    }
    detail += loop.pendingApproval != null ? ' · esc to deny)' : ' · esc to interrupt)'
    activityRow(live, cols, this.nowMs, what, detail)
  }

  /** mode · model · ⚡ · context used · provider · workspace · /help (or the Ctrl+C hint). */
  private statusRow(live: Rows, cols: i32): void {
    if (this.nowMs < this.ctrlCArmedUntil) {
      grayRow(live, cols, '  Press Ctrl+C again to exit', YELLOW)
      return
    }
    const loop = this.loop
    const demo = this.providers.active.name == 'demo'
    let text = '  ' + (this.modeAsk || this.permissionPrompt ? 'ask' : 'auto')
    text += ' · ' + (loop.model.length > 0 ? shortModelName(loop.model) : 'no model')
    if (loop.fast) text += ' · ⚡'
    if (!demo && loop.conv.messages.length > 0) {
      const pct = <i64>Math.round((loop.estimateTokens() * 100) / loop.window)
      text += ' · ' + pct.toString() + '% of ' + formatWindow(loop.window)
    }
    if (this.providers.active.name != 'ai-gateway' && !(demo && loop.model == 'demo')) text += ' · ' + this.label
    text += loop.withTools ? ' · ' + loop.cwd : ' · chat only'
    text += ' · /help'
    grayRow(live, cols, text)
  }

  event(json: string): void {
    const at = this.fx.begin(OUT_EVENT, 0)
    this.fx.buf.str(json)
    this.fx.end(at)
  }
}

/** Elapsed time as the activity row shows it: 5s, 18m0s, 1h1m3s. */
export function formatElapsed(seconds: i64): string {
  if (seconds < 60) return seconds.toString() + 's'
  if (seconds < 3600) return (seconds / 60).toString() + 'm' + (seconds % 60).toString() + 's'
  return (seconds / 3600).toString() + 'h' + ((seconds % 3600) / 60).toString() + 'm' + (seconds % 60).toString() + 's'
}

/** Token counts: 456, 1.2k, 3.4M. */
export function formatCount(n: f64): string {
  if (n < 1000) return (<i64>n).toString()
  const scaled = n < 1e6 ? n / 1000 : n / 1e6
  const unit = n < 1e6 ? 'k' : 'M'
  const tenths = <i64>Math.round(scaled * 10)
  return (tenths / 10).toString() + (tenths % 10 != 0 ? '.' + (tenths % 10).toString() : '') + unit
}

function stringBuf(s: string): ByteBuf {
  const b = new ByteBuf(s.length + 4)
  b.str(s)
  return b
}
