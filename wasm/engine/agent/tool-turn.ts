// The reply's tool calls, the second layer of the agent loop (loop.ts): each call runs in turn
// (a command, a file tool, a host tool), after the person's approval in ask mode, its result
// goes back into the conversation, and when none is left the next model request goes out.

import { ByteBuf } from '../util/byte-buf'
import { parseJson, writeJsonBuf, writeJsonString } from '../util/json'
import { OUT_EVENT } from '../abi/frames'
import { emitToolCall, findHostTool } from './host-tools'
import { AFTER_NOTE, AFTER_WARNING, Message, ToolCallRec, ROLE_TOOL } from './conversation'
import { YELLOW } from '../screen/ansi'
import { toolResultText } from './tool-results'
import { announce, announceCommand } from './announce'
import { CUT_CALL_RESULT, callProblem, commandOf, cutByLimit, emitExec, sizeProblem } from './tool-calls'
import { changesFiles, emitFileOp, fileToolVerb, isFileTool } from './file-tools'
import { FileChange } from '../screen/file-rows'
import { ModelTurn } from './model-turn'

export class ToolTurn extends ModelTurn {
  protected execId: u32 = 0
  /** The host tool call running now (0: none). */
  protected hostCallId: u32 = 0
  protected runningCommand: ByteBuf | null = null
  /** Ask before each command (workspace permission 'prompt', or /mode ask). */
  askFirst: bool = false
  /** Commands the person allowed with "Yes, always" for this session (exact text). */
  private alwaysAllowed: Array<string> = []
  /** The command waiting for the person's answer, or null. */
  pendingApproval: ByteBuf | null = null
  /** The file tool call the host runs now (0: none), and whether it applies or only previews. */
  protected fileOpId: u32 = 0
  private fileOpApply: bool = false
  /** The change waiting for the person's answer in ask mode (with pendingApproval set), or null. */
  pendingFile: FileChange | null = null
  /** "Yes, and allow file changes for this session". */
  private fileChangesAllowed: bool = false

  /** The reply is in: its tool calls run one after another, or the turn ends. */
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

  private toolResult(callId: string, text: string): Message {
    const m = new Message(ROLE_TOOL)
    m.toolCallId = callId
    m.content.str(text)
    this.conv.add(m)
    return m
  }

  /** Answers the current call with `current` and every later one with "not run" (an interrupt). */
  protected answerOpenCalls(current: string): void {
    for (let i = this.nextCall; i < this.reply.toolCalls.length; i++) {
      this.toolResult(this.reply.toolCalls[i].id, i == this.nextCall ? current : 'Not run: the user interrupted.')
    }
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

  /** A tool call's command ended: its result goes to the model, and the next call runs. */
  protected commandRan(command: ByteBuf, exitCode: i32, stdout: Uint8Array, stderr: Uint8Array): void {
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
}
