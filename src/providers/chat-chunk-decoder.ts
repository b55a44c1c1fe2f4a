/**
 * The state machine behind an OpenAI Chat Completions stream: it takes the `data:` payloads of
 * the SSE stream one at a time (already split by the SSE parser) and emits normalized
 * `ModelEvent`s. Sans-IO: no fetch, no timers, so every edge case is a plain unit test.
 */
import type { FinishReason, ModelEvent } from '../protocol/model-events.ts'
import { quoteForMessage } from './mask-secrets.ts'

/** Options for {@link createChatChunkDecoder}. */
export type ChatChunkDecoderOptions = {
  emit: (event: ModelEvent) => void
  /** Names the server in messages, e.g. `ai-gateway` or `localhost:11434`. */
  label: string
  /** The API key, so an echo of it in a server message is masked. */
  secret?: string
}

/** Feeds payloads in; `end()` when the byte stream closes. Both ignore input after the terminal event. */
export type ChatChunkDecoder = {
  /** One SSE `data:` payload (a JSON chunk or `[DONE]`); `event` is the SSE event name if any. */
  payload(data: string, event?: string): void
  /** The body ended (or the connection dropped): finishes, or reports truncation. */
  end(): void
  /** True once `finish` or `error` was emitted. */
  readonly done: boolean
}

type OpenCall = { id?: string; name?: string; started: boolean; pendingArgs: string }

const FINISH_REASONS: Record<string, FinishReason> = {
  stop: 'stop',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  length: 'length',
  content_filter: 'content_filter',
  error: 'error',
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}

function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/** Creates a decoder for one streamed chat completion. */
export function createChatChunkDecoder(options: ChatChunkDecoderOptions): ChatChunkDecoder {
  const { emit, label, secret } = options
  const calls = new Map<number, OpenCall>()
  let finishReason: FinishReason | undefined
  let usage: { inputTokens: number; outputTokens: number } | undefined
  let done = false

  const fail = (code: string, message: string): void => {
    done = true
    emit({ type: 'error', code, message })
  }

  const startIfReady = (index: number, call: OpenCall): void => {
    if (call.started || call.id === undefined || call.name === undefined) return
    call.started = true
    emit({ type: 'tool_call_start', index, id: call.id, name: call.name })
    if (call.pendingArgs !== '') emit({ type: 'tool_call_delta', index, delta: call.pendingArgs })
    call.pendingArgs = ''
  }

  const closeCalls = (): void => {
    for (const [index, call] of calls) {
      // Some local servers never send a call id; the engine still needs one to pair the result.
      if (!call.started && call.name !== undefined) {
        call.id ??= `call_${index}`
        startIfReady(index, call)
      }
      if (call.started) emit({ type: 'tool_call_end', index })
    }
    calls.clear()
  }

  const finish = (reason: FinishReason): void => {
    closeCalls()
    if (usage !== undefined) emit({ type: 'usage', ...usage })
    done = true
    emit({ type: 'finish', reason })
  }

  const toolCallIndex = (delta: Record<string, unknown>): number => {
    if (typeof delta['index'] === 'number') return delta['index']
    // Servers that omit `index` (some Gemini-compatible proxies) send one call per id.
    const id = asString(delta['id'])
    for (const [index, call] of calls) if (id !== undefined && call.id === id) return index
    if (id !== undefined || calls.size === 0) return calls.size
    return [...calls.keys()].pop() ?? 0
  }

  const toolCallDelta = (delta: Record<string, unknown>): void => {
    const index = toolCallIndex(delta)
    let call = calls.get(index)
    if (call === undefined) {
      call = { started: false, pendingArgs: '' }
      calls.set(index, call)
    }
    const fn = asRecord(delta['function'])
    call.id ??= asString(delta['id']) || undefined
    call.name ??= asString(fn?.['name']) || undefined
    const args = asString(fn?.['arguments']) ?? ''
    startIfReady(index, call)
    if (args === '') return
    if (call.started) emit({ type: 'tool_call_delta', index, delta: args })
    else call.pendingArgs += args
  }

  const choice = (value: unknown): void => {
    const choice = asRecord(value)
    // We never ask for n > 1; a server sending other choices must not interleave them into ours.
    if (choice === undefined || (choice['index'] !== undefined && choice['index'] !== 0)) return
    if (finishReason !== undefined) return
    const delta = asRecord(choice['delta']) ?? {}
    const reasoning = asString(delta['reasoning_content']) ?? asString(delta['reasoning'])
    if (reasoning) emit({ type: 'reasoning_delta', delta: reasoning })
    const content = asString(delta['content'])
    if (content) emit({ type: 'text_delta', delta: content })
    const toolCalls = delta['tool_calls']
    if (Array.isArray(toolCalls)) {
      for (const item of toolCalls) {
        const record = asRecord(item)
        if (record !== undefined) toolCallDelta(record)
      }
    }
    const reason = asString(choice['finish_reason'])
    if (reason) {
      // Older Ollama builds say `stop` even when they called tools; the engine must still run them.
      const mapped = FINISH_REASONS[reason] ?? 'stop'
      finishReason = mapped === 'stop' && calls.size > 0 ? 'tool_calls' : mapped
      // Close calls now: no argument fragment can follow a finish_reason.
      closeCalls()
    }
  }

  const serverError = (error: unknown): void => {
    const record = asRecord(error)
    const text = asString(error) ?? asString(record?.['message']) ?? JSON.stringify(error)
    fail('FX_MODEL_STREAM_ERROR', `${label} reported an error mid-answer: ${quoteForMessage(text, 200, secret)}; try again`)
  }

  const payload = (data: string, event?: string): void => {
    if (done) return
    if (data.trim() === '[DONE]') {
      finish(finishReason ?? (calls.size > 0 ? 'tool_calls' : 'stop'))
      return
    }
    let chunk: Record<string, unknown> | undefined
    try {
      chunk = asRecord(JSON.parse(data))
    } catch {
      chunk = undefined
    }
    if (chunk === undefined) {
      fail('FX_MODEL_STREAM_MALFORMED', `${label} sent a stream line that is not a JSON object: "${quoteForMessage(data, 80, secret)}"`)
      return
    }
    if (chunk['error'] !== undefined && chunk['error'] !== null) return serverError(chunk['error'])
    if (event === 'error') return serverError(chunk)
    const choices = chunk['choices']
    if (Array.isArray(choices)) for (const item of choices) choice(item)
    const reported = asRecord(chunk['usage'])
    if (reported !== undefined) {
      const input = reported['prompt_tokens']
      const output = reported['completion_tokens']
      if (typeof input === 'number' && typeof output === 'number') usage = { inputTokens: input, outputTokens: output }
    }
  }

  const end = (): void => {
    if (done) return
    // A finish_reason is a complete answer even if the server forgot [DONE] or the usage chunk.
    if (finishReason !== undefined) finish(finishReason)
    else fail('FX_MODEL_STREAM_TRUNCATED', 'the model server closed the stream before finishing; try again')
  }

  return {
    payload,
    end,
    get done() {
      return done
    },
  }
}
