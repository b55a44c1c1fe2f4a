/**
 * The state machine behind an Anthropic Messages stream: it takes the SSE events one at a time
 * (`message_start`, `content_block_start` / `_delta` / `_stop`, `message_delta`, `message_stop`,
 * `ping`, `error`) and emits the same normalized `ModelEvent`s as the Chat Completions decoder,
 * so the engine cannot tell the two wires apart. Sans-IO: every edge case is a unit test.
 */
import { ErrorCode } from '../../shared/errors.ts'
import type { FinishReason, ModelEvent } from '../../shared/protocol/model-events.ts'
import { quoteForMessage } from './mask-secrets.ts'

/** Options for {@link createAnthropicEventDecoder}. */
export type AnthropicEventDecoderOptions = {
  emit: (event: ModelEvent) => void
  label: string
  /** The API key, masked wherever a server message would echo it. */
  secret?: string
}

export type AnthropicEventDecoder = {
  /** One SSE event's data (JSON); the event's own `type` field decides, the SSE name is a fallback. */
  event(data: string): void
  /** The body ended (`dropped`: reading it failed): finishes if the message was complete, else fails. */
  end(dropped?: boolean): void
  readonly done: boolean
}

/** Anthropic's `stop_reason` → ours; `refusal` is the model declining, shown as a filtered stop. */
const STOP_REASONS: Record<string, FinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  refusal: 'content_filter',
}

/** Error types Anthropic documents as worth a retry (overloaded 529, api_error 500, rate limit). */
const RETRYABLE_ERRORS = new Set(['overloaded_error', 'api_error', 'rate_limit_error', 'timeout_error'])

type Block = { kind: 'text' | 'thinking' | 'tool' | 'other'; callIndex: number; sentArgs: boolean }

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0
}

export function createAnthropicEventDecoder(options: AnthropicEventDecoderOptions): AnthropicEventDecoder {
  const { emit, label, secret } = options
  // Keyed by the wire's block index; tool calls get our own 0, 1, 2… in order of appearance.
  const blocks = new Map<number, Block>()
  let calls = 0
  let inputTokens = 0
  let outputTokens = 0
  let stopReason: FinishReason | undefined
  let done = false

  const fail = (code: typeof ErrorCode.FX_MODEL_STREAM_ERROR | typeof ErrorCode.FX_MODEL_STREAM_MALFORMED | typeof ErrorCode.FX_MODEL_STREAM_TRUNCATED, message: string, retryable: boolean) => {
    if (done) return
    done = true
    emit({ type: 'error', code, message, retryable })
  }
  const closeCall = (block: Block) => {
    // A call without arguments still hands the engine a JSON object to run it with.
    if (!block.sentArgs) emit({ type: 'tool_call_delta', index: block.callIndex, delta: '{}' })
    emit({ type: 'tool_call_end', index: block.callIndex })
    block.kind = 'other'
  }
  const finish = () => {
    if (done) return
    for (const block of blocks.values()) if (block.kind === 'tool') closeCall(block)
    done = true
    emit({ type: 'usage', inputTokens, outputTokens })
    emit({ type: 'finish', reason: stopReason ?? 'stop' })
  }

  const handle = (event: Record<string, unknown>) => {
    const type = text(event['type'])
    const index = count(event['index'])
    switch (type) {
      case 'message_start': {
        const usage = record(record(event['message'])?.['usage'])
        // Cached input is input too: the context the model read is what the status line shows.
        inputTokens = count(usage?.['input_tokens']) + count(usage?.['cache_read_input_tokens']) + count(usage?.['cache_creation_input_tokens'])
        outputTokens = count(usage?.['output_tokens'])
        return
      }
      case 'content_block_start': {
        const block = record(event['content_block'])
        const kind = text(block?.['type'])
        if (kind === 'tool_use') {
          const entry: Block = { kind: 'tool', callIndex: calls++, sentArgs: false }
          blocks.set(index, entry)
          emit({ type: 'tool_call_start', index: entry.callIndex, id: text(block?.['id']) ?? '', name: text(block?.['name']) ?? '' })
        } else {
          blocks.set(index, { kind: kind === 'text' ? 'text' : kind === 'thinking' ? 'thinking' : 'other', callIndex: -1, sentArgs: false })
          // A block may arrive with its first text already in it.
          const first = kind === 'text' ? text(block?.['text']) : undefined
          if (first) emit({ type: 'text_delta', delta: first })
        }
        return
      }
      case 'content_block_delta': {
        const delta = record(event['delta'])
        const kind = text(delta?.['type'])
        const block = blocks.get(index)
        if (kind === 'text_delta') {
          const value = text(delta?.['text'])
          if (value) emit({ type: 'text_delta', delta: value })
        } else if (kind === 'thinking_delta') {
          const value = text(delta?.['thinking'])
          if (value) emit({ type: 'reasoning_delta', delta: value })
        } else if (kind === 'input_json_delta' && block?.kind === 'tool') {
          const value = text(delta?.['partial_json'])
          if (value) {
            block.sentArgs = true
            emit({ type: 'tool_call_delta', index: block.callIndex, delta: value })
          }
        }
        // signature_delta and citations_delta carry nothing the engine shows.
        return
      }
      case 'content_block_stop': {
        const block = blocks.get(index)
        if (block?.kind === 'tool') closeCall(block)
        return
      }
      case 'message_delta': {
        const reason = text(record(event['delta'])?.['stop_reason'])
        if (reason !== undefined) stopReason = STOP_REASONS[reason] ?? 'stop'
        const usage = record(event['usage'])
        if (usage?.['output_tokens'] !== undefined) outputTokens = count(usage['output_tokens'])
        return
      }
      case 'message_stop':
        finish()
        return
      case 'error': {
        const error = record(event['error'])
        const kind = text(error?.['type']) ?? 'error'
        const message = quoteForMessage(text(error?.['message']) ?? kind, 200, secret)
        fail(ErrorCode.FX_MODEL_STREAM_ERROR, `${label} reported ${kind} during the reply: ${message}`, RETRYABLE_ERRORS.has(kind))
        return
      }
      default:
        // `ping` and event types added later are ignored, as Anthropic's versioning policy asks.
        return
    }
  }

  return {
    event(data) {
      if (done) return
      let parsed: unknown
      try {
        parsed = JSON.parse(data)
      } catch {
        fail(ErrorCode.FX_MODEL_STREAM_MALFORMED, `${label} sent an event that is not JSON: "${quoteForMessage(data, 80, secret)}"`, false)
        return
      }
      const event = record(parsed)
      if (event) handle(event)
    },
    end(dropped = false) {
      if (done) return
      // Without message_stop nothing says the reply is whole; a stop reason alone is enough.
      if (stopReason !== undefined) finish()
      else if (dropped) fail(ErrorCode.FX_MODEL_STREAM_TRUNCATED, `the connection to ${label} dropped before the model finished; try again`, true)
      else fail(ErrorCode.FX_MODEL_STREAM_TRUNCATED, `${label} closed the stream before the model finished; try again`, true)
    },
    get done() {
      return done
    },
  }
}
