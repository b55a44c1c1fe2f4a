/**
 * Turns what the engine runner reports into stream lines: the engine's events (turn start and
 * end, commands), the model events of the turn's own requests (text and reasoning deltas,
 * usage, the final error), steers delivered with a request, and host tool calls, which run here.
 * It keeps the running turn's usage and error for its result, and says when a turn ends.
 */
import type { ChatImage, ModelEvent, ModelRequest } from '../../shared/protocol/model-events.ts'
import { imageMarker } from '../../engine-worker/agent/prompt-input.ts'
import type { HostToolCall } from '../../shared/messages/engine-frames.ts'
import type { EngineRunner, RunnerHooks } from '../../engine-worker/agent/engine-runner.ts'
import type { StreamLog } from './stream-log.ts'
import { executionIdOf, runToolCall } from './tools-bridge.ts'
import type { FxAgentEvent, FxStopReason, FxTool, FxTurnResult, FxUsage } from '../../shared/agent-api/types.ts'

/** The turn the engine runs now, as the session knows it. */
export type ActiveTurn = {
  messageId: string
  /** The engine's turn_start continues a saved turn (a `turn_resume` line). */
  resumed: boolean
  /** The prompt's text for the user_message line (absent when resumed). */
  text?: string
  images?: number
  context: unknown
  usage: FxUsage
  error?: { code: string; message: string }
  requestStartedAt?: number
  steps: number
  /** The engine said turn_start for it. */
  started?: boolean
}

export type RecorderOptions = {
  sessionId: string
  log: StreamLog
  tools: FxTool[]
  onEvent: (event: FxAgentEvent) => void
  /** The active turn (null: the engine started one on its own, from steers). */
  active: () => ActiveTurn | null
  /** The engine started a turn from steers that arrived as it ended. */
  adoptSteerTurn: (text: string) => ActiveTurn
  onCommit: (bytes: Uint8Array) => void
  onTurnEnd: (turn: ActiveTurn, result: FxTurnResult) => void
  onTrap: (message: string) => void
  /** Keeps the images a tool returned with the session; the key their markers name. */
  keepToolImages: (images: ChatImage[]) => string
  /** A host tool call started (its step is saved with the commit that follows) or ended (null). */
  onToolRunning: (call: { callId: string; name: string; input: unknown; executionId: string } | null) => void
  runner: () => EngineRunner | null
}

export type TurnRecorder = RunnerHooks & {
  /** A steer was sent: it is reported when the engine delivers it with its next request. */
  steered(text: string): void
}

export function createTurnRecorder(o: RecorderOptions): TurnRecorder {
  const line = (value: { type: string } & Record<string, unknown>) => o.log.append(value)
  let steers: string[] = []
  /** The attempt the next request is, when it retries the last one (0: a new step). */
  let retrying = 0
  const toolControllers = new Map<number, { controller: AbortController; call: HostToolCall }>()

  const runTool = async (id: number, call: HostToolCall) => {
    const turn = o.active()
    const controller = new AbortController()
    const running = { controller, call }
    toolControllers.set(id, running)
    const executionId = executionIdOf(o.sessionId, call.callId)
    let input: unknown = call.arguments
    try {
      input = JSON.parse(call.arguments)
    } catch {
      // reported by runToolCall as a failed result
    }
    line({ type: 'tool_start', toolCallId: call.callId, name: call.name, input, executionId, ...(call.rerun ? { rerun: true } : {}) })
    o.onToolRunning({ callId: call.callId, name: call.name, input, executionId })
    const outcome = await runToolCall(o.tools, call, { signal: controller.signal, sessionId: o.sessionId, context: turn?.context })
    if (toolControllers.get(id) !== running) return // cancelled: the engine has moved on
    toolControllers.delete(id)
    o.onToolRunning(null)
    const images = outcome.images ?? []
    line({ type: 'tool_end', toolCallId: call.callId, name: call.name, output: outcome.output, isError: outcome.isError, ...(images.length > 0 ? { images: images.length } : {}) })
    // The engine keeps text: a returned image is a marker in the result, swapped back as it is sent.
    const key = images.length > 0 ? o.keepToolImages(images) : ''
    o.runner()?.toolResult(id, outcome.output + images.map((_, i) => imageMarker(key, i)).join(''))
  }

  return {
    steered(text) {
      steers.push(text)
    },
    onRequest(request: ModelRequest) {
      const turn = o.active()
      for (const text of steers) line({ type: 'user_message', text, steer: true })
      steers = []
      if (!turn) return
      if (retrying === 0) turn.steps++
      turn.requestStartedAt = Date.now()
      o.onEvent({ type: 'model.request', sessionId: o.sessionId, provider: request.provider ?? '', model: request.model, step: turn.steps, attempt: Math.max(1, retrying), messages: request.messages.length })
      retrying = 0
    },
    onModelEvent(event: ModelEvent) {
      const turn = o.active()
      switch (event.type) {
        case 'text_delta':
        case 'reasoning_delta':
          line({ type: event.type, delta: event.delta })
          return
        case 'refusal_delta':
          // The refusal is the reply's text for the agent API, as it is in the history.
          line({ type: 'text_delta', delta: event.delta })
          return
        case 'usage':
          if (turn) {
            turn.usage.inputTokens += event.inputTokens
            turn.usage.outputTokens += event.outputTokens
          }
          return
        case 'finish':
        case 'error': {
          const elapsedMs = turn?.requestStartedAt !== undefined ? Date.now() - turn.requestStartedAt : undefined
          if (event.type === 'error') {
            if (turn) turn.error = { code: event.code, message: event.message }
            o.onEvent({ type: 'model.error', sessionId: o.sessionId, code: event.code, message: event.message, ...(event.status ? { status: event.status } : {}), retryable: event.retryable === true, ...(elapsedMs !== undefined ? { elapsedMs } : {}) })
          } else o.onEvent({ type: 'model.response', sessionId: o.sessionId, finishReason: event.reason, ...(elapsedMs !== undefined ? { elapsedMs } : {}) })
          return
        }
        default:
          return // tool call events: the engine asks for the calls once the reply is complete
      }
    },
    onEngineEvent(event) {
      switch (event.type) {
        case 'turn_start': {
          let turn = o.active()
          if (!turn) {
            const text = steers.join('\n')
            steers = []
            turn = o.adoptSteerTurn(text)
          }
          turn.started = true
          if (turn.resumed) line({ type: 'turn_resume', sessionId: o.sessionId, messageId: turn.messageId })
          else {
            line({ type: 'turn_start', sessionId: o.sessionId, messageId: turn.messageId })
            line({ type: 'user_message', text: turn.text ?? '', ...(turn.images ? { images: turn.images } : {}) })
          }
          return
        }
        case 'turn_end': {
          const turn = o.active()
          if (!turn) return
          const stopReason = String(event['stopReason'] ?? 'unknown') as FxStopReason
          const result: FxTurnResult = { messageId: turn.messageId, stopReason, usage: { ...turn.usage }, ...(stopReason === 'error' && turn.error ? { error: turn.error } : {}) }
          line({ type: 'turn_end', ...result })
          o.onTurnEnd(turn, result)
          return
        }
        case 'tool_start':
          line({ type: 'tool_start', name: 'run_command', input: { command: event['command'] } })
          return
        case 'tool_end':
          // A command that could not run (no workspace, bad arguments) ends as a failed tool.
          if (typeof event['error'] === 'string') line({ type: 'tool_end', name: 'run_command', output: event['error'], isError: true })
          else line({ type: 'tool_end', name: 'run_command', exitCode: event['exitCode'] })
          return
        case 'model_retry':
          retrying = Number(event['attempt'] ?? 2)
          o.onEvent({ type: 'model.retry', sessionId: o.sessionId, attempt: Number(event['attempt'] ?? 2), delayMs: Number(event['delayMs'] ?? 0) })
          return
        case 'compaction_start':
        case 'compaction_end':
          line({ type: event.type })
          return
        case 'session.resumed':
        case 'session.load_error':
        case 'config.restore_error':
          o.onEvent({ ...event, type: event.type, sessionId: o.sessionId })
          return
        default:
          // The engine's screen-only notes (`announce` with /a11y on) are not the app's business.
      }
    },
    onCommit: (bytes) => o.onCommit(bytes),
    onToolCall: (id, call) => void runTool(id, call),
    onToolCancel(id) {
      const running = toolControllers.get(id)
      if (!running) return
      toolControllers.delete(id)
      running.controller.abort()
      o.onToolRunning(null)
      line({ type: 'tool_end', toolCallId: running.call.callId, name: running.call.name, output: 'Cancelled by the user.', isError: true })
    },
    onTrap: (error) => o.onTrap(error.message),
  }
}
