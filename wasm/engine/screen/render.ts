// Drawing a frame: the live region under the transcript (streaming text, running command,
// approval row, queued prompts, activity row, composer, picker or menu or status line) is
// redrawn in place after the rows the transcript committed during this feed.

import { changeApprovalRows } from './file-rows'
import { resumeQuestionRows } from './resume-question-rows'
import { formatCount, formatElapsed } from '../util/format'
import { ByteBuf } from '../util/byte-buf'
import { OUT_ECHO_HINT, OUT_WRITE } from '../abi/frames'
import { Rows } from './layout'
import { Ui } from './ui'
import { GRAY, RESET, YELLOW } from './ansi'
import { SPINNER_INTERVAL_MS, activityRow, divider, grayRow, grayRowOf, queuedRows, retryRow } from './footer'
import { formatWindow, shortModelName } from '../agent/catalog'
import { MAX_ATTEMPTS } from '../agent/retry'
import { authRows } from '../commands/auth-commands'
import { urlEntryRows } from '../commands/own-server'
import { NO_MATCHES } from '../commands/slash-menu'

// Reused from frame to frame (a frame is drawn per input while a reply streams): the live
// region's rows and the draft's. Their rows are only read, and only while the frame is drawn.
const liveRows = new Rows()
const shownRows = new Rows()
const draftRows = new Rows(true)
/** An empty row; rows are never written to once added, so one serves every frame. */
const BLANK = new ByteBuf(0)

/** Draws the frame (the engine then marks the screen clean). */
export function render(ui: Ui): void {
  const cols = ui.screen.cols
  if (ui.view.open) {
    // Commits wait in the transcript until the view closes; only the view is drawn.
    const out = new ByteBuf(4096)
    ui.view.render(out, ui.transcript.log, ui.screen.rows, cols)
    ui.fx.write(out)
    return
  }
  const live = liveRows
  live.clear()
  ui.transcript.liveRows(live)
  const running = ui.loop.runningCommandText
  if (running != null) ui.transcript.toolRunningRow(live, running)
  const pending = ui.loop.pendingApproval
  const change = ui.loop.pendingFile
  if (change != null) changeApprovalRows(live, change, cols, ui.screen.rows, ui.approvalChoice)
  else if (pending != null) ui.transcript.approvalRows(live, pending, ui.approvalChoice)
  else if (ui.loop.resumeCommand != null) resumeQuestionRows(live, min(2, ui.approvalChoice))
  if (ui.exited) {
    live.add(new ByteBuf(0), 0)
    const end = new ByteBuf(64)
    end.str(GRAY + 'Session ended · reload the page to start again' + RESET)
    live.add(end, 46)
    present(ui, live, live.count - 1, 0)
    return
  }
  queuedRows(live, cols, ui.loop.steers)
  authRows(ui.auth, live, cols)
  urlEntryRows(ui.settings, live, cols)
  live.add(BLANK, 0)
  if (ui.loop.busy) activity(ui, live, cols)
  else live.add(BLANK, 0)
  divider(live, cols)
  const composerTop = live.count
  // The composer grows to about half the screen, then scrolls to keep the cursor in view.
  const draft = draftRows
  draft.clear()
  ui.composer.layout(draft, cols, '')
  ui.cursorOnLastDraftRow = ui.composer.cursorRow == draft.count - 1
  const maxDraft = max(1, ui.screen.rows / 2)
  let first = 0
  if (draft.count > maxDraft) first = min(max(0, ui.composer.cursorRow - maxDraft + 1), draft.count - maxDraft)
  const shown = min(draft.count - first, maxDraft)
  for (let i = first; i < first + shown; i++) live.add(draft.lines[i], draft.widths[i])
  divider(live, cols)
  const matches = ui.loop.pendingApproval == null ? ui.menu.matches(draftString(ui)) : NO_MATCHES
  const deleting = ui.picks.pendingDelete
  if (deleting != null) grayRow(live, cols, '  Delete the session "' + deleting.title + '"? y deletes it · any other key keeps it', YELLOW)
  // The picker gets the rows left once the composer and the two rows above it show (present()).
  else if (ui.picks.picker.open) ui.picks.picker.rows(live, cols, max(3, ui.screen.rows - 1 - (live.count - composerTop) - 3))
  else if (matches.length > 0) ui.menu.rows(live, matches, cols)
  else statusRow(ui, live, cols)
  present(ui, live, composerTop + ui.composer.cursorRow - first, ui.composer.cursorCol)
}

/** The draft as a string for the slash menu; an empty draft (while a reply streams) without the copy. */
function draftString(ui: Ui): string {
  return ui.composer.text.length == 0 ? '' : ui.composer.toBuf().toString()
}

/**
 * Draws the live region. It never takes more rows than the screen has: the cursor could not
 * move back above the screen's top, and the next redraw would leave stale rows behind. When
 * it is too tall, its first rows (the oldest streaming text) wait off screen until committed.
 */
function present(ui: Ui, all: Rows, row: i32, col: i32): void {
  let live = all
  const allowed = max(1, ui.screen.rows - 1)
  if (all.count > allowed) {
    const skip = min(all.count - allowed, row)
    live = shownRows
    live.clear()
    for (let i = skip; i < all.count; i++) live.add(all.lines[i], all.widths[i])
    row -= skip
  }
  // written straight into the output frame (present always writes something)
  const at = ui.fx.begin(OUT_WRITE, 0)
  ui.screen.present(ui.fx.buf, ui.transcript.commit, live, row, col)
  ui.fx.end(at)
  ui.transcript.commit.reset()
  echoHint(ui)
}

/**
 * Tells the host how many typed ASCII characters it may echo itself before this ui's next
 * frame arrives: a worker's answer reaches the page a frame later, while a local echo shows in
 * the same frame. Only when typing simply appends to the draft's last row; the next frame
 * redraws the row either way, so a wrong guess lasts one frame.
 */
function echoHint(ui: Ui): void {
  const c = ui.composer
  let columns = 0
  if (!ui.exited && !ui.view.open && !ui.auth.modal && ui.loop.pendingApproval == null && c.cursor == c.text.length && ui.cursorOnLastDraftRow && !c.hasSelection) {
    columns = max(0, ui.screen.cols - 1 - ui.screen.cursorCol)
  }
  const at = ui.fx.begin(OUT_ECHO_HINT, 0)
  ui.fx.buf.writeU32(<u32>columns)
  ui.fx.end(at)
}

/** What the last activity row was drawn from: the same values draw the same row. */
class ActivityDrawn {
  frame: i32 = -1
  what: string = ''
  seconds: i64 = -1
  input: f64 = -1
  output: f64 = -1
  approval: bool = false
  cols: i32 = -1
  row: ByteBuf | null = null
  width: i32 = 0
}
const activityDrawn = new ActivityDrawn()

/** The activity row: what the turn is doing, or the retry countdown. */
function activity(ui: Ui, live: Rows, cols: i32): void {
  const loop = ui.loop
  if (loop.retryAtMs > 0) {
    const wait = <i64>Math.ceil(max(0, loop.retryAtMs - ui.loop.nowMs) / 1000)
    retryRow(live, cols, loop.retryWhy + ' · retrying in ' + wait.toString() + 's · attempt ' + loop.attempt.toString() + '/' + MAX_ATTEMPTS.toString())
    return
  }
  const compacting = loop.compaction.running
  const since = compacting ? loop.compaction.startMs : loop.turnStartMs
  const seconds = <i64>((ui.loop.nowMs - since) / 1000)
  const approval = loop.pendingApproval != null
  const what = compacting ? 'Compacting…' : approval ? 'Waiting for you…' : loop.waitingForModel ? 'Thinking…' : loop.activityNote.length > 0 ? loop.activityNote : 'Running…'
  // the spinner's frame, as activityRow picks it
  const frame = <i32>(ui.loop.nowMs / SPINNER_INTERVAL_MS)
  const d = activityDrawn
  const last = d.row
  if (last != null && d.frame == frame && d.what == what && d.seconds == seconds && d.input == loop.inputTokens && d.output == loop.outputTokens && d.approval == approval && d.cols == cols) {
    live.add(last, d.width)
    return
  }
  let detail = ' (' + formatElapsed(seconds)
  if (loop.inputTokens > 0 || loop.outputTokens > 0) {
    detail += ' · ↑' + formatCount(loop.inputTokens) + ' ↓' + formatCount(loop.outputTokens)
  }
  detail += approval ? ' · esc to deny)' : ' · esc to interrupt)'
  const at = live.count
  activityRow(live, cols, ui.loop.nowMs, what, detail)
  d.row = unchecked(live.lines[at])
  d.width = unchecked(live.widths[at])
  d.frame = frame
  d.what = what
  d.seconds = seconds
  d.input = loop.inputTokens
  d.output = loop.outputTokens
  d.approval = approval
  d.cols = cols
}

/** What the last status row was drawn from: the same values draw the same row. */
class StatusDrawn {
  cols: i32 = -1
  ask: bool = false
  model: string = ''
  fast: bool = false
  showPct: bool = false
  pct: i64 = 0
  window: f64 = 0
  showLabel: bool = false
  label: string = ''
  where: string = '' // the cwd when tools are on
  withTools: bool = false
  valid: bool = false
}
const statusDrawn = new StatusDrawn()
const statusText = new ByteBuf(256)

/** mode · model · ⚡ · context used · provider · workspace · /help (or the exit hint). */
function statusRow(ui: Ui, live: Rows, cols: i32): void {
  if (ui.loop.nowMs < ui.exitHintUntil) {
    grayRow(live, cols, '  /exit ends the session', YELLOW)
    return
  }
  const loop = ui.loop
  const demo = ui.settings.providers.active.name == 'demo'
  const ask = ui.settings.modeAsk || ui.settings.permissionPrompt
  const showPct = !demo && loop.conv.messages.length > 0
  const pct = showPct ? <i64>Math.round((loop.estimateTokens() * 100) / loop.window) : 0
  const showLabel = ui.settings.providers.active.name != 'ai-gateway' && !(demo && loop.model == 'demo')
  const label = showLabel ? ui.settings.label : ''
  const where = loop.withTools ? loop.cwd : ''
  // drawn every frame, built only when something in it changed (grayRowOf keeps the row)
  const d = statusDrawn
  if (d.valid && d.cols == cols && d.ask == ask && d.model == loop.model && d.fast == loop.fast && d.showPct == showPct && d.pct == pct && d.window == loop.window && d.showLabel == showLabel && d.label == label && d.where == where && d.withTools == loop.withTools) {
    grayRowOf(live, cols, statusText)
    return
  }
  const text = statusText
  text.reset()
  text.str('  ')
  text.str(ask ? 'ask' : 'auto')
  text.str(' · ')
  text.str(loop.model.length > 0 ? shortModelName(loop.model) : 'no model')
  if (loop.fast) text.str(' · ⚡')
  if (showPct) {
    text.str(' · ')
    text.int(pct)
    text.str('% of ')
    text.str(formatWindow(loop.window))
  }
  if (showLabel) {
    text.str(' · ')
    text.str(label)
  }
  if (loop.withTools) {
    text.str(' · ')
    text.str(loop.cwd)
  } else text.str(' · chat only')
  text.str(' · /help')
  grayRowOf(live, cols, text)
  d.valid = true
  d.cols = cols
  d.ask = ask
  d.model = loop.model
  d.fast = loop.fast
  d.showPct = showPct
  d.pct = pct
  d.showLabel = showLabel
  d.window = loop.window
  d.label = label
  d.where = where
  d.withTools = loop.withTools
}
