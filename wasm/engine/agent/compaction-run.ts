// Runs a compaction for the agent loop: asks the model for a summary (its events are routed
// here by request id), then swaps the summary in. Esc cancels it and leaves history unchanged;
// offline, or when the model fails, a local summary is used and the person is told so.

import { ByteBuf } from '../util/byte-buf'
import { Effects, OUT_MODEL_CANCEL, OUT_MODEL_REQUEST } from '../abi/frames'
import { YELLOW } from '../screen/ansi'
import { Transcript } from '../screen/transcript'
import { formatWindow } from './catalog'
import { applySummary, COMPACT_AT, latestTurnStart, localSummary, writeSummaryRequest } from './compaction'
import { Conversation } from './conversation'

/**
 * What a compaction reads and drives of the turn it runs in: the agent loop (agent/loop.ts)
 * implements it. A compaction takes the turn over (asks for the summary with a fresh request
 * id), and hands it back by asking for the turn's next model request or ending it.
 */
export interface CompactionLoop {
  conv: Conversation
  fx: Effects
  transcript: Transcript
  model: string
  provider: string
  nowMs: f64
  busy: bool
  turnStartMs: f64
  nextId: u32
  readonly window: f64
  estimateTokens(): f64
  forgetContextCount(): void
  notice(text: string): void
  event(json: string): void
  endTurn(reason: string): void
  requestModel(): void
}

export class Compaction {
  running: bool = false
  requestId: u32 = 0
  /** Compacting in the middle of a turn: the turn's request follows when it is done. */
  private auto: bool = false
  private upto: i32 = 0
  private summary: ByteBuf = new ByteBuf(0)
  startMs: f64 = 0
  /** No model to ask (the offline demo): summaries are local. */
  offline: bool = false
  /** Set after an automatic compaction, so the request it precedes cannot trigger another. */
  private justDone: bool = false

  constructor(private loop: CompactionLoop) {}

  /** Before a model request: compacts first when it would pass ~85% of the context window. */
  startIfNeeded(): bool {
    const loop = this.loop
    if (this.justDone) {
      this.justDone = false
      return false
    }
    if (this.running || loop.estimateTokens() <= COMPACT_AT * loop.window) return false
    const upto = latestTurnStart(loop.conv)
    if (upto <= 0) return false // only the current turn is left: nothing older to fold away
    this.start(upto, true)
    return true
  }

  /** /compact: everything but the latest turn (or everything, when there is one turn). */
  startByRequest(): void {
    const loop = this.loop
    const n = loop.conv.messages.length
    if (n == 0) {
      loop.notice('There is nothing to compact yet.')
      return
    }
    let upto = latestTurnStart(loop.conv)
    if (upto <= 0) upto = n
    loop.busy = true
    loop.turnStartMs = loop.nowMs
    this.start(upto, false)
  }

  private start(upto: i32, auto: bool): void {
    const loop = this.loop
    this.running = true
    this.auto = auto
    this.upto = upto
    this.summary = new ByteBuf(1024)
    this.startMs = loop.nowMs
    loop.event('{"type":"compaction_start","auto":' + (auto ? 'true' : 'false') + '}')
    if (this.offline) {
      this.done(localSummary(loop.conv, upto), 'offline, so a local summary was used')
      return
    }
    this.requestId = loop.nextId++
    const at = loop.fx.begin(OUT_MODEL_REQUEST, this.requestId)
    writeSummaryRequest(loop.fx.buf, loop.conv, upto, loop.model, loop.provider)
    loop.fx.end(at)
  }

  text(bytes: Uint8Array, start: i32, end: i32): void {
    this.summary.slice(bytes, start, end)
  }

  finished(): void {
    this.requestId = 0
    if (this.summary.length == 0) this.done(localSummary(this.loop.conv, this.upto), 'the model sent an empty summary, so a local one was used')
    else this.done(this.summary, '')
  }

  failed(message: string): void {
    this.requestId = 0
    this.done(localSummary(this.loop.conv, this.upto), 'the model could not summarise (' + message + '), so a local summary was used')
  }

  /** Esc during compaction: the request stops and the conversation stays as it was. */
  cancel(): void {
    const loop = this.loop
    if (this.requestId != 0) loop.fx.emit(OUT_MODEL_CANCEL, this.requestId, null)
    this.requestId = 0
    this.running = false
    loop.transcript.notice('Compaction cancelled; the conversation is unchanged.', YELLOW)
    loop.endTurn('cancelled')
  }

  private done(summary: ByteBuf, why: string): void {
    const loop = this.loop
    const before = loop.estimateTokens()
    const count = this.upto
    applySummary(loop.conv, this.upto, summary)
    loop.forgetContextCount()
    this.running = false
    const after = loop.estimateTokens()
    let text = 'Compacted ' + count.toString() + ' messages into a summary (about ' + formatWindow(before) + ' → ' + formatWindow(after) + ' tokens).'
    if (why.length > 0) text += ' Note: ' + why + '.'
    if (why.length > 0) loop.transcript.notice(text, YELLOW)
    else loop.notice(text)
    loop.event('{"type":"compaction_end"}')
    if (this.auto) {
      this.justDone = true
      loop.requestModel()
    }
    else loop.busy = false
  }
}
