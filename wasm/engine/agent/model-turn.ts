// The agent loop's first layer (loop.ts): a prompt (and any steers) opens a turn, one model
// request goes out, its text, reasoning and tool calls stream in, and a failure is retried or ends
// the turn. An answer whose id is no longer current (after an interrupt) is ignored, so a late
// event never leaks into the next turn. What the reply's tool calls do next is tool-turn.ts's.

import { sentence } from '../util/format'
import { ByteBuf } from '../util/byte-buf'
import { parseJson } from '../util/json'
import { Effects, OUT_EVENT, OUT_MODEL_REQUEST } from '../abi/frames'
import { AFTER_ERROR, AFTER_WARNING, Conversation, Message, RequestSpec, ToolCallRec, ROLE_ASSISTANT, ROLE_USER } from './conversation'
import { Transcript } from '../screen/transcript'
import { GRAY, YELLOW } from '../screen/ansi'
import { MAX_ATTEMPTS, ModelFailure, retryDelayMs, retryReason } from './retry'
import { INTERRUPTED_NOTE } from './fxterm-notes'
import { announce } from './announce'
import { emitWorkspaceOp } from './file-tools'
import { Compaction, CompactionLoop } from './compaction-run'
import { DEFAULT_CONTEXT_WINDOW } from './catalog'

export const DEFAULT_MAX_STEPS = 100
export const RETRY_TIMER_ID: u32 = 0xffff0003

export class ModelTurn implements CompactionLoop {
  conv: Conversation = new Conversation()
  busy: bool = false
  model: string = ''
  /** The provider the engine asks for (its name, not its label). */
  provider: string = ''
  fast: bool = false
  effort: string = ''
  cwd: string = '/workspace'
  root: string = '/workspace'
  withTools: bool = false
  nowMs: f64 = 0
  turnStartMs: f64 = 0
  inputTokens: f64 = 0
  outputTokens: f64 = 0
  /** Model requests allowed per turn. */
  maxSteps: i32 = DEFAULT_MAX_STEPS
  /** The active model's context window (0 when unknown: 32k is assumed). */
  contextWindow: f64 = 0
  /** The last request's input tokens as the server counted them, and its size when sent. */
  private contextTokens: f64 = 0
  private bytesAtUsage: i32 = 0
  private bytesAtSend: i32 = 0
  nextId: u32 = 1
  protected requestId: u32 = 0
  /** Screen-reader mode (/a11y): finished replies and command results are announced. */
  announce: bool = false
  /** When the reply being streamed was asked for (its elapsedMs). */
  protected replyStartMs: f64 = 0
  protected requests: i32 = 0
  protected reply: Message = new Message(ROLE_ASSISTANT)
  private callIndexes: Array<i32> = []
  protected nextCall: i32 = 0
  /** Retries of the current request: the attempt number, and when the next one starts (0: none). */
  attempt: i32 = 1
  retryAtMs: f64 = 0
  retryWhy: string = ''
  /** The host's word on what the running command is doing (e.g. loading Python), shown instead of 'Running…' until it ends. */
  activityNote: string = ''
  compaction!: Compaction
  /** Prompts typed during the turn, delivered at its next model request (steering). */
  steers: Array<ByteBuf> = []
  /** A commit point passed (prompt accepted, tool step, turn end): the session is saved. */
  commitDue: bool = false
  /** The reply whose calls run now stopped at the output limit, so its last call may be cut. */
  protected stoppedAtLimit: bool = false

  constructor(public fx: Effects, public transcript: Transcript) {
    this.compaction = new Compaction(this)
  }

  get waitingForModel(): bool {
    return this.requestId != 0
  }

  submit(text: ByteBuf, nowMs: f64): void {
    this.addUser(text)
    this.beginTurn(nowMs)
  }

  /** Text typed while the turn runs: shown as queued, sent with the next model request. */
  steer(text: ByteBuf): void {
    this.steers.push(text)
  }

  /** The turn ended before a steer could be delivered: the steers become the next turn. */
  submitSteers(nowMs: f64): void {
    this.deliverSteers()
    this.beginTurn(nowMs)
  }

  /** Takes back the last queued steer (↑ to edit it). */
  takeLastSteer(): ByteBuf | null {
    return this.steers.length > 0 ? this.steers.pop() : null
  }

  private deliverSteers(): void {
    for (let i = 0; i < this.steers.length; i++) this.addUser(this.steers[i])
    this.steers = []
  }

  private addUser(text: ByteBuf): void {
    const m = new Message(ROLE_USER)
    m.content.append(text)
    this.conv.add(m)
    this.transcript.promptCard(text)
    this.commitDue = true
  }

  /** A restored session was saved mid-turn: the model is told, and the turn goes on. */
  resumeTurn(nowMs: f64): void {
    const m = new Message(ROLE_USER)
    m.content.str(INTERRUPTED_NOTE)
    this.conv.add(m)
    this.beginTurn(nowMs)
  }

  private beginTurn(nowMs: f64): void {
    // The workspace starts a new entry of its change history (/undo, /diff last); no answer.
    if (this.withTools && this.conv.fileTools) emitWorkspaceOp(this.fx, 0, 'turn')
    this.busy = true
    this.turnStartMs = nowMs
    this.requests = 0
    this.event('{"type":"turn_start"}')
    this.requestModel()
  }

  /** Tokens the next request would hold: the server's last count plus what was added since. */
  estimateTokens(): f64 {
    const bytes = this.conv.byteSize()
    if (this.contextTokens > 0) return this.contextTokens + <f64>max(0, bytes - this.bytesAtUsage) / 4
    return <f64>bytes / 4
  }

  get window(): f64 {
    return this.contextWindow > 0 ? this.contextWindow : DEFAULT_CONTEXT_WINDOW
  }

  /** After a compaction the server's count no longer applies. */
  forgetContextCount(): void {
    this.contextTokens = 0
  }

  requestModel(): void {
    if (this.requests >= this.maxSteps) {
      this.transcript.notice('Stopped after ' + this.requests.toString() + ' model requests in one turn (the step limit). Send a message to continue.', YELLOW)
      this.endTurn('max_model_turns')
      return
    }
    // Steers join after the tool results, so the conversation stays valid for every API.
    if (this.steers.length > 0) this.deliverSteers()
    if (this.compaction.startIfNeeded()) return
    this.requests++
    this.attempt = 1
    this.reply = new Message(ROLE_ASSISTANT)
    this.send()
  }

  /** Sends the current request; on a retry, text already shown is continued, not repeated. */
  private send(): void {
    if (this.reply.content.length == 0) this.replyStartMs = this.nowMs
    this.requestId = this.nextId++
    this.reply.toolCalls = []
    this.callIndexes = []
    this.nextCall = 0
    const spec = new RequestSpec()
    spec.model = this.model
    spec.provider = this.provider
    spec.withTools = this.withTools
    spec.fast = this.fast
    spec.effort = this.effort
    spec.nowMs = this.nowMs
    spec.root = this.root
    if (this.reply.content.length > 0) spec.continuation = this.reply.content
    this.bytesAtSend = this.conv.byteSize()
    const at = this.fx.begin(OUT_MODEL_REQUEST, this.requestId)
    this.conv.writeRequest(this.fx.buf, spec)
    this.fx.end(at)
  }

  /** Whether `id` is the compaction's request (its events are routed there). */
  protected forCompaction(id: u32): bool {
    return id != 0 && id == this.compaction.requestId
  }

  text(id: u32, bytes: Uint8Array, start: i32, end: i32): void {
    if (this.forCompaction(id)) this.compaction.text(bytes, start, end)
    if (id != this.requestId) return
    this.reply.content.slice(bytes, start, end)
    this.transcript.assistantDelta(bytes, start, end)
  }

  /** A refusal is the reply: kept in the history as its text, drawn as a refusal. */
  refusal(id: u32, bytes: Uint8Array, start: i32, end: i32): void {
    if (id != this.requestId) return
    this.reply.refusal = true
    this.reply.content.slice(bytes, start, end)
    this.transcript.refusalDelta(bytes, start, end)
  }

  /** Reasoning is shown as it streams and kept for a resume's replay; it is never sent back to the model. */
  reasoning(id: u32, bytes: Uint8Array, start: i32, end: i32): void {
    if (id != this.requestId) return
    let kept = this.reply.shownOnly
    if (kept == null) this.reply.shownOnly = kept = new ByteBuf(64)
    kept.slice(bytes, start, end)
    this.transcript.reasoningDelta(bytes, start, end)
  }

  toolStart(id: u32, json: Uint8Array, start: i32, end: i32): void {
    if (id != this.requestId) return
    const v = parseJson(json, start, end)
    if (v == null) return
    const callId = v.getString('id', 'call_' + this.reply.toolCalls.length.toString())
    this.reply.toolCalls.push(new ToolCallRec(callId, v.getString('name', '')))
    this.callIndexes.push(<i32>v.getNumber('index', <f64>this.callIndexes.length))
  }

  toolDelta(id: u32, index: i32, bytes: Uint8Array, start: i32, end: i32): void {
    if (id != this.requestId) return
    for (let i = 0; i < this.callIndexes.length; i++) {
      if (unchecked(this.callIndexes[i]) == index) {
        this.reply.toolCalls[i].args.slice(bytes, start, end)
        return
      }
    }
  }

  usage(id: u32, inputTokens: f64, outputTokens: f64): void {
    if (id != this.requestId && !this.forCompaction(id)) return
    this.inputTokens += inputTokens
    this.outputTokens += outputTokens
    if (id == this.requestId && inputTokens > 0) {
      this.contextTokens = inputTokens
      this.bytesAtUsage = this.bytesAtSend
    }
  }

  fail(id: u32, failure: ModelFailure): void {
    if (this.forCompaction(id)) {
      this.compaction.failed(failure.message)
      return
    }
    if (id != this.requestId) return
    this.requestId = 0
    if (failure.retryable && this.attempt < MAX_ATTEMPTS) {
      this.attempt++
      const delay = retryDelayMs(this.attempt, failure.retryAfterMs)
      this.retryAtMs = this.nowMs + delay
      this.retryWhy = retryReason(failure.code, failure.status)
      this.fx.timer(RETRY_TIMER_ID, delay)
      this.event('{"type":"model_retry","attempt":' + this.attempt.toString() + ',"delayMs":' + (<i64>delay).toString() + '}')
      return
    }
    this.transcript.endAssistant()
    if (this.reply.content.length > 0) {
      this.reply.toolCalls = []
      this.conv.add(this.reply)
    }
    let message = failure.message
    if (this.attempt > 1) {
      if (message.endsWith('.')) message = message.substring(0, message.length - 1)
      message += ' (gave up after ' + this.attempt.toString() + ' attempts)'
    }
    // Every line a person reads is a sentence (issue 32): providers' messages are clauses.
    this.endNotice(sentence(message), AFTER_ERROR)
    this.endTurn('error')
  }

  /** A turn's last line, drawn and kept with the last message so a resume draws it again. */
  protected endNotice(text: string, level: i32): void {
    if (level == AFTER_ERROR) this.transcript.error(Uint8Array.wrap(String.UTF8.encode(text)))
    else this.transcript.notice(text, level == AFTER_WARNING ? YELLOW : GRAY)
    const messages = this.conv.messages
    if (messages.length == 0) return
    const last = messages[messages.length - 1]
    last.afterLine = text
    last.afterLevel = level
  }

  /** The retry timer fired: ask again. */
  retryNow(): void {
    if (this.retryAtMs == 0) return
    this.retryAtMs = 0
    this.send()
  }

  endTurn(reason: string): void {
    this.busy = false
    this.activityNote = ''
    this.commitDue = true
    this.event('{"type":"turn_end","stopReason":"' + reason + '"}')
  }

  /** Emits an onEvent event (JSON text the caller built). */
  event(json: string): void {
    const at = this.fx.begin(OUT_EVENT, 0)
    this.fx.buf.str(json)
    this.fx.end(at)
  }

  notice(text: string): void {
    this.transcript.notice(text, GRAY)
  }
}
