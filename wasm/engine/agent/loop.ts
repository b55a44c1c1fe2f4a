// The agent loop: prompt → model request → streamed events → tool calls run one after another
// → their results go back to the model → next request, until the model ends the turn.
// Every effect carries a fresh id; an answer whose id is no longer current (after an interrupt)
// is ignored, so a late event can never leak into the next turn.

import { ByteBuf } from '../util/byte-buf'
import { parseJson, J_STR, writeJsonBuf, writeJsonString } from '../util/json'
import { Effects, OUT_EVENT, OUT_EXEC, OUT_EXEC_CANCEL, OUT_MODEL_CANCEL, OUT_MODEL_REQUEST } from '../abi/frames'
import { Conversation, Message, ToolCallRec, ROLE_ASSISTANT, ROLE_TOOL, ROLE_USER } from './conversation'
import { Transcript } from '../terminal/transcript'
import { YELLOW } from '../terminal/ansi'

export const COMMAND_MAX_BYTES = 64 * 1024
export const OUTPUT_LIMIT_BYTES = 64 * 1024
export const COMMAND_TIMEOUT_MS = 30000
const MAX_MODEL_REQUESTS_PER_TURN = 40

export class AgentLoop {
  conv: Conversation = new Conversation()
  busy: bool = false
  model: string = ''
  cwd: string = '/workspace'
  withTools: bool = false
  turnStartMs: f64 = 0
  inputTokens: f64 = 0
  outputTokens: f64 = 0
  private nextId: u32 = 1
  private requestId: u32 = 0
  private execId: u32 = 0
  private requests: i32 = 0
  private reply: Message = new Message(ROLE_ASSISTANT)
  private callIndexes: Array<i32> = []
  private nextCall: i32 = 0
  private runningCommand: ByteBuf | null = null
  /** Ask before each command (workspace permission 'prompt', or /mode ask). */
  askFirst: bool = false
  /** Commands the person allowed with "Yes, always" for this session (exact text). */
  private alwaysAllowed: Array<string> = []
  /** Prompts typed during the turn, delivered at its next model request (steering). */
  steers: Array<ByteBuf> = []
  /** The command waiting for the person's answer, or null. */
  pendingApproval: ByteBuf | null = null

  constructor(private fx: Effects, private transcript: Transcript) {}

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
  }

  private beginTurn(nowMs: f64): void {
    this.busy = true
    this.turnStartMs = nowMs
    this.requests = 0
    this.event('{"type":"turn_start"}')
    this.requestModel()
  }

  private requestModel(): void {
    if (this.requests >= MAX_MODEL_REQUESTS_PER_TURN) {
      this.transcript.notice('Stopped after ' + this.requests.toString() + ' model requests in one turn.', YELLOW)
      this.endTurn('max_model_turns')
      return
    }
    this.requests++
    // Steers join after the tool results, so the conversation stays valid for every API.
    if (this.steers.length > 0) this.deliverSteers()
    this.requestId = this.nextId++
    this.reply = new Message(ROLE_ASSISTANT)
    this.callIndexes = []
    this.nextCall = 0
    const at = this.fx.begin(OUT_MODEL_REQUEST, this.requestId)
    this.conv.writeRequest(this.fx.buf, this.model, this.withTools)
    this.fx.end(at)
  }

  text(id: u32, bytes: Uint8Array, start: i32, end: i32): void {
    if (id != this.requestId) return
    this.reply.content.slice(bytes, start, end)
    this.transcript.assistantDelta(bytes, start, end)
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
    if (id != this.requestId) return
    this.inputTokens += inputTokens
    this.outputTokens += outputTokens
  }

  finish(id: u32, reason: string): void {
    if (id != this.requestId) return
    this.requestId = 0
    this.transcript.endAssistant()
    this.conv.add(this.reply)
    if (this.reply.toolCalls.length > 0) {
      this.runNextTool()
      return
    }
    if (reason == 'length') this.transcript.notice("The reply reached the model's output limit.", YELLOW)
    this.endTurn(reason == 'length' ? 'max_output_tokens' : 'end_turn')
  }

  fail(id: u32, message: Uint8Array): void {
    if (id != this.requestId) return
    this.requestId = 0
    this.transcript.endAssistant()
    if (this.reply.content.length > 0) {
      this.reply.toolCalls = []
      this.conv.add(this.reply)
    }
    this.transcript.error(message)
    this.endTurn('error')
  }

  private runNextTool(): void {
    while (this.nextCall < this.reply.toolCalls.length) {
      const call = this.reply.toolCalls[this.nextCall]
      const problem = this.checkCall(call)
      if (problem.length > 0) {
        this.transcript.error(Uint8Array.wrap(String.UTF8.encode(problem)))
        this.toolResult(call.id, problem)
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

  private startExec(command: ByteBuf): void {
    this.execId = this.nextId++
    this.runningCommand = command
    const at = this.fx.begin(OUT_EXEC, this.execId)
    const b = this.fx.buf
    b.str('{"command":')
    writeJsonBuf(b, command)
    b.str(',"cwd":')
    writeJsonString(b, this.cwd)
    b.str(',"timeoutMs":' + COMMAND_TIMEOUT_MS.toString() + ',"outputLimitBytes":' + OUTPUT_LIMIT_BYTES.toString() + '}')
    this.fx.end(at)
    this.eventWith('tool_start', command)
  }

  /** Why a tool call cannot run, or '' when it can. */
  private checkCall(call: ToolCallRec): string {
    if (call.name != 'run_command') return 'The model asked for an unknown tool "' + call.name + '"; only run_command exists.'
    if (!this.withTools) return 'No workspace is available, so commands cannot run.'
    const command = commandOf(call)
    if (command.length == 0) return 'run_command needs arguments {"command": "<bash command>"}.'
    if (command.length > COMMAND_MAX_BYTES) return 'The command is longer than 64 KiB and was not run.'
    return ''
  }

  execResult(id: u32, exitCode: i32, stdout: Uint8Array, stderr: Uint8Array, cwd: string): void {
    if (id != this.execId) return
    if (cwd.length > 0) this.cwd = cwd
    this.execId = 0
    const call = this.reply.toolCalls[this.nextCall]
    const command = this.runningCommand as ByteBuf
    this.runningCommand = null
    this.transcript.toolRan(command, stdout, stderr, exitCode, false)
    const content = new ByteBuf(stdout.length + stderr.length + 32)
    content.bytes(stdout)
    if (stderr.length > 0) {
      if (content.length > 0 && content.u8At(content.length - 1) != 0x0a) content.byte(0x0a)
      content.bytes(stderr)
    }
    if (exitCode != 0) {
      if (content.length > 0 && content.u8At(content.length - 1) != 0x0a) content.byte(0x0a)
      content.str('[exit code ' + exitCode.toString() + ']')
    }
    if (content.length == 0) content.str('(no output)')
    // The model is told where the shell is after every command (cd carries over).
    content.str('\n[cwd: ' + this.cwd + ']')
    const m = new Message(ROLE_TOOL)
    m.toolCallId = call.id
    m.content = content
    this.conv.add(m)
    this.event('{"type":"tool_end","exitCode":' + exitCode.toString() + '}')
    this.nextCall++
    this.runNextTool()
  }

  private toolResult(callId: string, text: string): void {
    const m = new Message(ROLE_TOOL)
    m.toolCallId = callId
    m.content.str(text)
    this.conv.add(m)
  }

  /** Esc / Ctrl+C during a turn: stop what runs and answer every open tool call. */
  interrupt(): void {
    if (!this.busy) return
    if (this.requestId != 0) {
      this.fx.emit(OUT_MODEL_CANCEL, this.requestId, null)
      this.requestId = 0
      this.transcript.endAssistant()
      if (this.reply.content.length > 0) {
        this.reply.toolCalls = []
        this.conv.add(this.reply)
      }
    }
    if (this.pendingApproval != null) {
      this.transcript.toolDenied(this.pendingApproval as ByteBuf)
      this.pendingApproval = null
      for (let i = this.nextCall; i < this.reply.toolCalls.length; i++) {
        this.toolResult(this.reply.toolCalls[i].id, 'Not run: the user interrupted.')
      }
    }
    if (this.execId != 0) {
      this.fx.emit(OUT_EXEC_CANCEL, this.execId, null)
      this.execId = 0
      const command = this.runningCommand as ByteBuf
      this.runningCommand = null
      this.transcript.toolRan(command, new Uint8Array(0), new Uint8Array(0), 130, true)
      for (let i = this.nextCall; i < this.reply.toolCalls.length; i++) {
        this.toolResult(this.reply.toolCalls[i].id, i == this.nextCall ? 'Cancelled by the user.' : 'Not run: the user interrupted.')
      }
    }
    this.transcript.notice('Interrupted · tell fxterm what to do instead', YELLOW)
    this.endTurn('cancelled')
  }

  private endTurn(reason: string): void {
    this.busy = false
    this.event('{"type":"turn_end","stopReason":"' + reason + '"}')
  }

  private event(json: string): void {
    const at = this.fx.begin(OUT_EVENT, 0)
    this.fx.buf.str(json)
    this.fx.end(at)
  }

  private eventWith(type: string, command: ByteBuf): void {
    const at = this.fx.begin(OUT_EVENT, 0)
    this.fx.buf.str('{"type":"' + type + '","command":')
    writeJsonBuf(this.fx.buf, command)
    this.fx.buf.str('}')
    this.fx.end(at)
  }
}

function commandOf(call: ToolCallRec): ByteBuf {
  const out = new ByteBuf(call.args.length)
  const v = parseJson(call.args.data, 0, call.args.length)
  if (v == null) return out
  const c = v.get('command')
  if (c != null && c.kind == J_STR) out.str(c.str)
  return out
}
