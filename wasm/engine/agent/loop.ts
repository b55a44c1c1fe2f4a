// The agent loop: prompt → model request → streamed events → tool calls run one after another
// → their results go back to the model → next request, until the model ends the turn. In three
// layers, in reading order: model-turn.ts (a request and its stream), tool-turn.ts (the reply's
// tool calls, approvals included) and this one (the person's own `!commands`, Esc and Ctrl+C,
// the workspace's news), the class the engine drives.

import { ByteBuf } from '../util/byte-buf'
import { OUT_EXEC_CANCEL, OUT_MODEL_CANCEL, OUT_TOOL_CANCEL } from '../abi/frames'
import { Message, ROLE_USER } from './conversation'
import { YELLOW } from '../screen/ansi'
import { plainResultText, shownOutput } from './tool-results'
import { shellNote, undoNote } from './fxterm-notes'
import { emitExec } from './tool-calls'
import { emitWorkspaceOp } from './file-tools'
import { ToolTurn } from './tool-turn'
import { RETRY_TIMER_ID } from './model-turn'

export { COMMAND_MAX_BYTES, OUTPUT_LIMIT_BYTES, COMMAND_TIMEOUT_MS } from './tool-calls'
export { INTERRUPTED_NOTE, isInterruptedNote } from './fxterm-notes'
export { DEFAULT_MAX_STEPS, RETRY_TIMER_ID } from './model-turn'

export class AgentLoop extends ToolTurn {
  /** The exec of a `!command` the person runs (0: none); it is not a tool call and has no turn. */
  private personExecId: u32 = 0
  /**
   * A resumed turn stopped while this command ran: the person is asked whether to continue
   * (session/interrupted-turn.ts) and nothing runs until they answer. The command as shown, or null.
   */
  resumeCommand: ByteBuf | null = null
  /** The call of `resumeCommand`. */
  resumeCallId: string = ''

  get runningCommandText(): ByteBuf | null {
    return this.runningCommand
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
    this.commandRan(command, exitCode, stdout, stderr)
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
}
