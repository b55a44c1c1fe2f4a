// The agent loop: prompt → model request → streamed events → tool calls run one after another
// → their results go back to the model → next request, until the model ends the turn.
// Every effect carries a fresh id; an answer whose id is no longer current (after an interrupt)
// is ignored, so a late event can never leak into the next turn.

import { sentence } from '../util/format'
import { ByteBuf } from '../util/byte-buf'
import { parseJson, J_STR, writeJsonBuf, writeJsonString } from '../util/json'
import { Effects, OUT_EVENT, OUT_EXEC, OUT_EXEC_CANCEL, OUT_MODEL_CANCEL, OUT_MODEL_REQUEST, OUT_TOOL_CANCEL } from '../abi/frames'
import { emitToolCall, findHostTool } from './host-tools'
import { AFTER_ERROR, AFTER_NOTE, AFTER_WARNING, Conversation, Message, RequestSpec, ToolCallRec, ROLE_ASSISTANT, ROLE_TOOL, ROLE_USER } from './conversation'
import { Transcript } from '../screen/transcript'
import { GRAY, YELLOW } from '../screen/ansi'
import { MAX_ATTEMPTS, ModelFailure, retryDelayMs, retryReason } from './retry'
import { plainResultText, shownOutput, toolResultText } from './tool-results'
import { INTERRUPTED_NOTE, shellNote, undoNote } from './fxterm-notes'
import { announce, announceCommand } from './announce'
import { CUT_CALL_RESULT, callProblem, commandOf, cutByLimit, emitExec, sizeProblem } from './tool-calls'
import { changesFiles, emitFileOp, emitWorkspaceOp, fileToolVerb, isFileTool } from './file-tools'
import { FileChange } from '../screen/file-rows'
import { Compaction, CompactionLoop } from './compaction-run'
import { DEFAULT_CONTEXT_WINDOW } from './catalog'

export { COMMAND_MAX_BYTES, OUTPUT_LIMIT_BYTES, COMMAND_TIMEOUT_MS } from './tool-calls'
export const DEFAULT_MAX_STEPS = 100
export const RETRY_TIMER_ID: u32 = 0xffff0003
export { INTERRUPTED_NOTE, isInterruptedNote } from './fxterm-notes'

export class AgentLoop implements CompactionLoop {
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
  private requestId: u32 = 0
  private execId: u32 = 0
  /** The exec of a `!command` the person runs (0: none); it is not a tool call and has no turn. */
  private personExecId: u32 = 0
  /** The host tool call running now (0: none). */
  private hostCallId: u32 = 0
  /** Screen-reader mode (/a11y): finished replies and command results are announced. */
  announce: bool = false
  /** When the reply being streamed was asked for (its elapsedMs). */
  private replyStartMs: f64 = 0
  private requests: i32 = 0
  private reply: Message = new Message(ROLE_ASSISTANT)
  private callIndexes: Array<i32> = []
  private nextCall: i32 = 0
  private runningCommand: ByteBuf | null = null
  /** Retries of the current request: the attempt number, and when the next one starts (0: none). */
  attempt: i32 = 1
  retryAtMs: f64 = 0
  retryWhy: string = ''
  /** The host's word on what the running command is doing (e.g. loading Python), shown instead of 'Running…' until it ends. */
  activityNote: string = ''
  compaction!: Compaction
  /** Ask before each command (workspace permission 'prompt', or /mode ask). */
  askFirst: bool = false
  /** Commands the person allowed with "Yes, always" for this session (exact text). */
  private alwaysAllowed: Array<string> = []
  /** Prompts typed during the turn, delivered at its next model request (steering). */
  steers: Array<ByteBuf> = []
  /** The command waiting for the person's answer, or null. */
  pendingApproval: ByteBuf | null = null
  /** The file tool call the host runs now (0: none), and whether it applies or only previews. */
  private fileOpId: u32 = 0
  private fileOpApply: bool = false
  /** The change waiting for the person's answer in ask mode (with pendingApproval set), or null. */
  pendingFile: FileChange | null = null
  /** "Yes, and allow file changes for this session". */
  private fileChangesAllowed: bool = false
  /**
   * A resumed turn stopped while this command ran: the person is asked whether to continue
   * (session/interrupted-turn.ts) and nothing runs until they answer. The command as shown, or null.
   */
  resumeCommand: ByteBuf | null = null
  /** The call of `resumeCommand`. */
  resumeCallId: string = ''
  /** A commit point passed (prompt accepted, tool step, turn end): the session is saved. */
  commitDue: bool = false
  /** The reply whose calls run now stopped at the output limit, so its last call may be cut. */
  private stoppedAtLimit: bool = false

  constructor(public fx: Effects, public transcript: Transcript) {
    this.compaction = new Compaction(this)
  }

  get runningCommandText(): ByteBuf | null {
    return this.runningCommand
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

  /**
   * The tool call that runs now ('' when none). One waiting for approval has not run: a session
   * saved then reopens with it "not run", and without asking whether it crashed the tab.
   */
  get runningCallId(): string {
    if (this.personExecId != 0) return ''
    if (this.execId == 0 && this.hostCallId == 0 && this.fileOpId == 0) return ''
    return this.nextCall < this.reply.toolCalls.length ? this.reply.toolCalls[this.nextCall].id : ''
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
  private forCompaction(id: u32): bool {
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

  finish(id: u32, reason: string): void {
    if (this.forCompaction(id)) {
      this.compaction.finished()
      return
    }
    if (id != this.requestId) return
    this.requestId = 0
    this.reply.elapsedMs = <i32>max(0, this.nowMs - this.replyStartMs)
    this.transcript.endAssistant()
    if (this.announce && this.reply.content.length > 0) announce(this.fx, '', this.reply.content.data, 0, this.reply.content.length)
    this.conv.add(this.reply)
    this.stoppedAtLimit = reason == 'length'
    if (this.reply.toolCalls.length > 0) {
      this.runNextTool()
      return
    }
    if (reason == 'length') {
      this.endNotice("The reply reached the model's output limit; ask it to continue.", AFTER_WARNING)
      this.endTurn('max_output_tokens')
    } else if (reason == 'content_filter') {
      this.endNotice("The model's content filter stopped the reply. Rephrase the request.", AFTER_WARNING)
      this.endTurn('refused')
    } else {
      // A reply with nothing in it must not look like a turn that never drew: a stream shape not
      // understood yet, or a model that said nothing, is at least told.
      if (this.reply.content.length == 0) this.endNotice('The model finished without a reply.', AFTER_NOTE)
      this.endTurn('end_turn')
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
  private endNotice(text: string, level: i32): void {
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

  private runNextTool(): void {
    while (this.nextCall < this.reply.toolCalls.length) {
      const call = this.reply.toolCalls[this.nextCall]
      if (cutByLimit(this.reply.toolCalls, this.nextCall, this.stoppedAtLimit)) {
        this.transcript.notice("The model's output limit cut a tool call short; it did not run.", YELLOW)
        this.toolResult(call.id, CUT_CALL_RESULT)
        this.nextCall++
        continue
      }
      const tooLarge = sizeProblem(call, this.withTools && this.conv.fileTools)
      if (tooLarge.length > 0) {
        this.transcript.error(Uint8Array.wrap(String.UTF8.encode(tooLarge)))
        this.toolResult(call.id, tooLarge)
        this.nextCall++
        continue
      }
      if (findHostTool(this.conv.hostTools, call.name) != null) {
        this.startHostTool(call, false)
        return
      }
      if (this.withTools && this.conv.fileTools && isFileTool(call.name)) {
        this.startFileOp(call, !(this.askFirst && changesFiles(call.name) && !this.fileChangesAllowed))
        return
      }
      const problem = callProblem(call, this.withTools)
      if (problem.length > 0) {
        // A run_command that cannot run is a failed tool call: the host sees it start and end.
        const isCommand = call.name == 'run_command'
        if (isCommand) this.eventWith('tool_start', commandOf(call))
        this.transcript.error(Uint8Array.wrap(String.UTF8.encode(problem)))
        this.toolResult(call.id, problem)
        if (isCommand) this.toolFailed(problem)
        this.nextCall++
        continue
      }
      const command = commandOf(call)
      if (this.askFirst && !this.isAlwaysAllowed(command)) {
        this.pendingApproval = command
        return
      }
      this.startExec(command)
      return
    }
    this.requestModel()
  }

  private isAlwaysAllowed(command: ByteBuf): bool {
    const text = command.toString()
    for (let i = 0; i < this.alwaysAllowed.length; i++) if (this.alwaysAllowed[i] == text) return true
    return false
  }

  /** The person's answer to the approval row: 1 yes, 2 yes always, 3 no. */
  answerApproval(choice: i32): void {
    const command = this.pendingApproval
    if (command == null) return
    this.pendingApproval = null
    if (this.pendingFile != null) {
      this.answerFileApproval(command, choice)
      return
    }
    if (choice == 3) {
      const call = this.reply.toolCalls[this.nextCall]
      this.transcript.toolDenied(command)
      this.toolResult(call.id, 'Denied by the user: the command was not run.')
      this.nextCall++
      this.runNextTool()
      return
    }
    if (choice == 2) this.alwaysAllowed.push(command.toString())
    this.startExec(command)
  }

  private answerFileApproval(what: ByteBuf, choice: i32): void {
    this.pendingFile = null
    const call = this.reply.toolCalls[this.nextCall]
    if (choice == 3) {
      this.transcript.toolDenied(what)
      // What the row named (the workspace's verb: Create or Write) is kept for a resume's replay.
      this.toolResult(call.id, 'Denied by the user: the change was not made.').shownOnly = what
      this.nextCall++
      this.runNextTool()
      return
    }
    if (choice == 2) this.fileChangesAllowed = true
    this.startFileOp(call, true)
  }

  /** Asks the workspace to run a file tool call; `apply` false asks only for its diff (ask mode). */
  private startFileOp(call: ToolCallRec, apply: bool): void {
    this.fileOpId = this.nextId++
    this.fileOpApply = apply
    emitFileOp(this.fx, this.fileOpId, call.name, call.args, this.cwd, apply)
    if (apply) this.commitDue = true // a crash from here on reports this call as "may have partly run"
  }

  /**
   * The workspace's answer to a file tool call (JSON {ok, result, verb?, path?, added?, removed?,
   * diff?}): a preview waits for the person; otherwise the row is drawn, the model gets `result`.
   * False when `id` is not the call running now.
   */
  fileOpAnswer(id: u32, bytes: Uint8Array, start: i32, end: i32): bool {
    if (id == 0 || id != this.fileOpId) return false
    this.fileOpId = 0
    const call = this.reply.toolCalls[this.nextCall]
    const v = parseJson(bytes, start, end)
    const ok = v != null && v.getBool('ok', false)
    const result = v != null ? v.getString('result', '') : 'The workspace gave no answer.'
    let diff: ByteBuf | null = null
    if (ok && v != null) {
      const change = new FileChange()
      change.verb = v.getString('verb', fileToolVerb(call.name))
      change.path.str(v.getString('path', ''))
      change.added = <i32>v.getNumber('added', 0)
      change.removed = <i32>v.getNumber('removed', 0)
      change.diff.str(v.getString('diff', ''))
      if (!this.fileOpApply) {
        this.pendingFile = change
        const what = new ByteBuf(change.path.length + 8)
        what.str(change.verb + ' ')
        what.append(change.path)
        this.pendingApproval = what
        return true
      }
      this.transcript.fileChanged(change)
      diff = change.diff
    } else this.transcript.error(Uint8Array.wrap(String.UTF8.encode(result)))
    // The diff is drawn, not sent: kept with the result so a resume draws the row whole.
    this.toolResult(call.id, result.length > 0 ? result : '(no output)').shownOnly = diff
    this.event('{"type":"tool_end","exitCode":' + (ok ? '0' : '1') + '}')
    this.commitDue = true
    this.nextCall++
    this.runNextTool()
    return true
  }

  /** Another conversation begins (/new, a resume): the workspace's change history starts over. */
  sessionChanged(): void {
    if (this.withTools && this.conv.fileTools) emitWorkspaceOp(this.fx, 0, 'session')
  }

  /** /undo restored files (`message`: what the person was shown): the model hears it before the next prompt. */
  filesReverted(message: string, paths: string): void {
    const m = new Message(ROLE_USER)
    m.content.str(undoNote(message, paths))
    this.conv.add(m)
    this.commitDue = true
  }

  /**
   * `!command`: the person runs a command in the workspace shell, with no model request. It is
   * drawn as the model's commands are, and the model reads it (a note) with the next prompt.
   */
  runPersonCommand(command: ByteBuf, nowMs: f64): void {
    this.busy = true
    this.turnStartMs = nowMs
    this.execId = this.nextId++
    this.personExecId = this.execId
    this.runningCommand = command
    emitExec(this.fx, this.execId, command, this.cwd, true)
  }

  /** Drawn with its colours (it ran on the person's terminal); the model reads it plain. */
  private personCommandEnded(command: ByteBuf, stdout: Uint8Array, stderr: Uint8Array, exitCode: i32, cancelled: bool): void {
    this.personExecId = 0
    this.transcript.toolRan(command, stdout, stderr, exitCode, cancelled, true)
    const m = new Message(ROLE_USER)
    m.content = shellNote(command, plainResultText(stdout, stderr, exitCode, this.cwd))
    m.shownOnly = shownOutput(stdout, stderr)
    this.conv.add(m)
    this.busy = false
    this.activityNote = ''
    this.commitDue = true
  }

  private startExec(command: ByteBuf): void {
    this.execId = this.nextId++
    this.runningCommand = command
    emitExec(this.fx, this.execId, command, this.cwd)
    this.eventWith('tool_start', command)
    this.commitDue = true // a crash from here on reports this command as "may have partly run"
  }

  private startHostTool(call: ToolCallRec, rerun: bool): void {
    this.hostCallId = this.nextId++
    emitToolCall(this.fx, this.hostCallId, call.id, call.name, call.args, rerun)
    this.commitDue = true // a crash from here on reruns it (idempotent) or reports "may have partly run"
  }

  /** The host's answer to a tool call: its text goes to the model, and the next call runs. */
  hostToolResult(id: u32, bytes: Uint8Array, start: i32, end: i32): void {
    if (id == 0 || id != this.hostCallId) return
    this.hostCallId = 0
    const call = this.reply.toolCalls[this.nextCall]
    const m = new Message(ROLE_TOOL)
    m.toolCallId = call.id
    m.content.slice(bytes, start, end)
    if (m.content.length == 0) m.content.str('(no output)')
    this.conv.add(m)
    this.commitDue = true
    this.nextCall++
    this.runNextTool()
  }

  /**
   * A saved turn stopped while an idempotent host tool ran: it runs again (same call id), the
   * calls after it run as usual, and the model hears about the interruption with the results.
   */
  resumeAtCall(reply: Message, index: i32, note: ByteBuf, nowMs: f64): void {
    this.busy = true
    this.turnStartMs = nowMs
    this.requests = 0
    this.reply = reply
    this.nextCall = index
    this.stoppedAtLimit = false
    this.steers.push(note)
    this.event('{"type":"turn_start"}')
    this.startHostTool(reply.toolCalls[index], true)
  }

  /** A turn with the model runs now (a `!command` of the person's is not one). */
  get inTurn(): bool {
    return this.busy && this.personExecId == 0
  }

  /** Whether a command is running in the workspace now. */
  execRunning(): bool {
    return this.execId != 0
  }

  execResult(id: u32, exitCode: i32, stdout: Uint8Array, stderr: Uint8Array, cwd: string): void {
    if (id != this.execId) return
    if (cwd.length > 0) this.cwd = cwd
    this.execId = 0
    this.activityNote = ''
    const command = this.runningCommand as ByteBuf
    this.runningCommand = null
    if (this.personExecId != 0) {
      this.personCommandEnded(command, stdout, stderr, exitCode, false)
      return
    }
    const call = this.reply.toolCalls[this.nextCall]
    this.transcript.toolRan(command, stdout, stderr, exitCode, false)
    if (this.announce) announceCommand(this.fx, command, exitCode, stdout, stderr)
    const m = new Message(ROLE_TOOL)
    m.toolCallId = call.id
    m.content = toolResultText(stdout, stderr, exitCode, this.cwd)
    this.conv.add(m)
    this.event('{"type":"tool_end","exitCode":' + exitCode.toString() + '}')
    this.commitDue = true
    this.nextCall++
    this.runNextTool()
  }

  private toolResult(callId: string, text: string): Message {
    const m = new Message(ROLE_TOOL)
    m.toolCallId = callId
    m.content.str(text)
    this.conv.add(m)
    return m
  }

  /** Esc / Ctrl+C during a turn: stop what runs and answer every open tool call. */
  interrupt(): void {
    if (!this.busy) return
    if (this.personExecId != 0) {
      this.fx.emit(OUT_EXEC_CANCEL, this.execId, null)
      this.execId = 0
      const command = this.runningCommand as ByteBuf
      this.runningCommand = null
      this.personCommandEnded(command, new Uint8Array(0), new Uint8Array(0), 130, true)
      return
    }
    if (this.compaction.running) {
      this.compaction.cancel()
      return
    }
    const waiting = this.requestId != 0 || this.retryAtMs != 0
    if (this.requestId != 0) this.fx.emit(OUT_MODEL_CANCEL, this.requestId, null)
    if (this.retryAtMs != 0) this.fx.cancelTimer(RETRY_TIMER_ID)
    if (waiting) {
      this.requestId = 0
      this.retryAtMs = 0
      this.transcript.endAssistant()
      if (this.reply.content.length > 0) {
        this.reply.toolCalls = []
        this.conv.add(this.reply)
      }
    }
    if (this.pendingApproval != null) {
      this.transcript.toolDenied(this.pendingApproval as ByteBuf)
      this.pendingApproval = null
      this.answerOpenCalls('Not run: the user interrupted.')
    }
    this.pendingFile = null
    if (this.fileOpId != 0) {
      this.fileOpId = 0 // a late answer is ignored; a write already under way may still land
      this.answerOpenCalls('Cancelled by the user.')
    }
    if (this.hostCallId != 0) {
      this.fx.emit(OUT_TOOL_CANCEL, this.hostCallId, null)
      this.hostCallId = 0
      this.answerOpenCalls('Cancelled by the user.')
    }
    if (this.execId != 0) {
      this.fx.emit(OUT_EXEC_CANCEL, this.execId, null)
      this.execId = 0
      const command = this.runningCommand as ByteBuf
      this.runningCommand = null
      this.transcript.toolRan(command, new Uint8Array(0), new Uint8Array(0), 130, true)
      this.answerOpenCalls('Cancelled by the user.')
    }
    this.transcript.notice('Interrupted · tell fxterm what to do instead', YELLOW)
    this.endTurn('cancelled')
  }

  /** Answers the current call with `current` and every later one with "not run" (an interrupt). */
  private answerOpenCalls(current: string): void {
    for (let i = this.nextCall; i < this.reply.toolCalls.length; i++) {
      this.toolResult(this.reply.toolCalls[i].id, i == this.nextCall ? current : 'Not run: the user interrupted.')
    }
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

  /** tool_end for a command that never ran: `error` is what the model was told. */
  private toolFailed(problem: string): void {
    const at = this.fx.begin(OUT_EVENT, 0)
    this.fx.buf.str('{"type":"tool_end","error":')
    writeJsonString(this.fx.buf, problem)
    this.fx.buf.str('}')
    this.fx.end(at)
  }

  private eventWith(type: string, command: ByteBuf): void {
    const at = this.fx.begin(OUT_EVENT, 0)
    this.fx.buf.str('{"type":"' + type + '","command":')
    writeJsonBuf(this.fx.buf, command)
    this.fx.buf.str('}')
    this.fx.end(at)
  }

  notice(text: string): void {
    this.transcript.notice(text, GRAY)
  }
}

