/**
 * The state machine behind an OpenAI Chat Completions stream: it takes the `data:` payloads of
 * the SSE stream one at a time (already split by the SSE parser) and emits normalized
 * `ModelEvent`s. Sans-IO: no fetch, no timers, so every edge case is a plain unit test.
 */
import { ErrorCode, type FxErrorCode } from '../../shared/errors.ts'
import type { FinishReason, ModelEvent } from '../../shared/protocol/model-events.ts'
import { quoteForMessage } from './mask-secrets.ts'
import { streamErrorRetryable } from './retry-hints.ts'
import { plainTextDelta } from './text-delta-fast-path.ts'

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
  /**
   * One SSE `data:` payload (a JSON chunk or `[DONE]`); `event` is the SSE event name if any.
   * `notPlain`: the caller already knows it is no plain text delta (the fast path was tried).
   */
  payload(data: string, event?: string, notPlain?: boolean): void
  /** The text of a plain text delta the caller read itself: as its payload would add it. */
  text(delta: string): void
  /** Passes on the text deltas joined since the last flush (the end of a network read). */
  flush(): void
  /**
   * The body ended, or (`dropped`) reading it failed: finishes when the model had finished,
   * otherwise reports a retryable truncation.
   */
  end(dropped?: boolean): void
  /** True once `finish` or `error` was emitted. */
  readonly done: boolean
}

/**
 * One tool call being assembled. `index` is ours (0, 1, 2… in order of first appearance), not
 * the wire's: servers number calls inconsistently (missing `index`, or `index: 0` for every
 * parallel call), and the engine needs one distinct index per call.
 */
type OpenCall = { index: number; id?: string; name?: string; started: boolean; pendingArgs: string; args: string }

const FINISH_REASONS: Record<string, FinishReason> = {
  stop: 'stop',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  length: 'length',
  content_filter: 'content_filter',
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}

function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/** True when `text` is already a whole JSON value, i.e. no further fragment can belong to it. */
function isCompleteJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/**
 * The reasoning text of a delta, whichever field the server uses: `reasoning_content` (DeepSeek,
 * Moonshot, vLLM, LM Studio), `reasoning` (Groq, OpenRouter, Ollama), or only
 * `reasoning_details` (OpenRouter; its `reasoning.text` and `reasoning.summary` parts). OpenRouter
 * sends `reasoning` and `reasoning_details` with the same text, so the details count only alone.
 */
function reasoningOf(delta: Record<string, unknown>): string | undefined {
  const direct = asString(delta['reasoning_content']) || asString(delta['reasoning'])
  if (direct) return direct
  const details = delta['reasoning_details']
  if (!Array.isArray(details)) return undefined
  let text = ''
  for (const item of details) {
    const detail = asRecord(item)
    if (detail?.['type'] === 'reasoning.text') text += asString(detail['text']) ?? ''
    else if (detail?.['type'] === 'reasoning.summary') text += asString(detail['summary']) ?? ''
  }
  return text || undefined
}

/** Creates a decoder for one streamed chat completion. */
export function createChatChunkDecoder(options: ChatChunkDecoderOptions): ChatChunkDecoder {
  const { emit, label, secret } = options
  const calls: OpenCall[] = []
  // The call each wire `index` currently feeds; a call with a new id on a used index replaces it.
  const byWireIndex = new Map<number, OpenCall>()
  let finishReason: FinishReason | undefined
  let usage: { inputTokens: number; outputTokens: number } | undefined
  let done = false
  /**
   * Plain text deltas of one network read, joined: a fast stream has one event per few
   * characters, and passing each one on through the host was a large part of its cost. Flushed
   * at the end of each read (`flush`) and before any other event, so order is kept.
   */
  let pendingText = ''
  const flushText = (): void => {
    if (pendingText === '') return
    const delta = pendingText
    pendingText = ''
    emit({ type: 'text_delta', delta })
  }

  const fail = (code: FxErrorCode, message: string, retryable: boolean): void => {
    flushText()
    done = true
    emit({ type: 'error', code, message, retryable })
  }

  const startIfReady = (call: OpenCall): void => {
    if (call.started || call.id === undefined || call.name === undefined) return
    call.started = true
    emit({ type: 'tool_call_start', index: call.index, id: call.id, name: call.name })
    if (call.pendingArgs !== '') emit({ type: 'tool_call_delta', index: call.index, delta: call.pendingArgs })
    call.pendingArgs = ''
  }

  /** No fragment can reach `call` any more: start it even if the server never sent an id. */
  const seal = (call: OpenCall): void => {
    // Some local servers never send a call id; the engine still needs one to pair the result.
    if (!call.started && call.name !== undefined) {
      call.id ??= `call_${call.index}`
      startIfReady(call)
    }
  }

  const closeCalls = (): void => {
    for (const call of calls) {
      seal(call)
      if (call.started) emit({ type: 'tool_call_end', index: call.index })
    }
    calls.length = 0
    byWireIndex.clear()
  }

  const finish = (reason: FinishReason): void => {
    flushText()
    closeCalls()
    if (usage !== undefined) emit({ type: 'usage', ...usage })
    done = true
    emit({ type: 'finish', reason })
  }

  /**
   * Whether a fragment naming `id`/`name` begins a call other than `current`: a different id
   * (parallel calls that all say `index: 0`), or a function name after `current`'s arguments
   * already form a whole JSON value (servers that send neither index nor id).
   */
  const beginsAnotherCall = (current: OpenCall, id: string | undefined, name: string | undefined): boolean => {
    if (id !== undefined && current.id !== undefined) return id !== current.id
    // Otherwise an id is current's own, arriving late, unless a new function name says otherwise.
    if (name === undefined || current.name === undefined || current.args === '') return false
    return name !== current.name || isCompleteJson(current.args)
  }

  const callFor = (delta: Record<string, unknown>, id: string | undefined, name: string | undefined): OpenCall => {
    const wireIndex = typeof delta['index'] === 'number' ? delta['index'] : undefined
    let current = wireIndex === undefined ? calls.at(-1) : byWireIndex.get(wireIndex)
    // Without an index, an id seen before picks its call even if others came in between.
    if (wireIndex === undefined && id !== undefined) current = calls.find((call) => call.id === id) ?? current
    if (current !== undefined && !beginsAnotherCall(current, id, name)) return current
    if (current !== undefined) seal(current)
    const call: OpenCall = { index: calls.length, started: false, pendingArgs: '', args: '' }
    calls.push(call)
    if (wireIndex !== undefined) byWireIndex.set(wireIndex, call)
    return call
  }

  const toolCallDelta = (delta: Record<string, unknown>): void => {
    const fn = asRecord(delta['function'])
    const id = asString(delta['id']) || undefined
    const name = asString(fn?.['name']) || undefined
    const call = callFor(delta, id, name)
    call.id ??= id
    call.name ??= name
    // Arguments pass through as raw text: invalid JSON is the engine's to answer as a tool error.
    const args = asString(fn?.['arguments']) ?? ''
    call.args += args
    startIfReady(call)
    if (args === '') return
    if (call.started) emit({ type: 'tool_call_delta', index: call.index, delta: args })
    else call.pendingArgs += args
  }

  /**
   * `content` as an array of parts (Mistral's Magistral: `[{type: "thinking", thinking: [{type:
   * "text", text}]}, {type: "text", text}]`): text parts are the reply, thinking parts reasoning.
   */
  const contentParts = (parts: unknown[]): void => {
    for (const item of parts) {
      const part = asRecord(item)
      if (part === undefined) continue
      if (part['type'] === 'text') {
        const text = asString(part['text'])
        if (text) emit({ type: 'text_delta', delta: text })
      } else if (part['type'] === 'thinking') {
        const thinking = part['thinking']
        const text = Array.isArray(thinking) ? thinking.map((inner) => asString(asRecord(inner)?.['text']) ?? '').join('') : asString(thinking)
        if (text) emit({ type: 'reasoning_delta', delta: text })
      }
    }
  }

  const choice = (value: unknown): void => {
    const choice = asRecord(value)
    // We never ask for n > 1; a server sending other choices must not interleave them into ours.
    if (choice === undefined || (choice['index'] !== undefined && choice['index'] !== 0)) return
    if (finishReason !== undefined || done) return
    const delta = asRecord(choice['delta']) ?? {}
    const reasoning = reasoningOf(delta)
    if (reasoning) emit({ type: 'reasoning_delta', delta: reasoning })
    const content = delta['content']
    if (typeof content === 'string') {
      if (content) emit({ type: 'text_delta', delta: content })
    } else if (Array.isArray(content)) contentParts(content)
    // OpenAI's refusal comes instead of content: it is the reply (kept in the history), drawn as a refusal.
    const refusal = asString(delta['refusal'])
    if (refusal) emit({ type: 'refusal_delta', delta: refusal })
    const toolCalls = delta['tool_calls']
    if (Array.isArray(toolCalls)) {
      for (const item of toolCalls) {
        const record = asRecord(item)
        if (record !== undefined) toolCallDelta(record)
      }
    }
    const reason = asString(choice['finish_reason'])
    if (reason === 'error') {
      fail(ErrorCode.FX_MODEL_STREAM_ERROR, `${label} stopped the answer with an error; try again`, true)
      return
    }
    if (reason) {
      // Older Ollama builds say `stop` even when they called tools; the engine must still run them.
      const mapped = FINISH_REASONS[reason] ?? 'stop'
      finishReason = mapped === 'stop' && calls.length > 0 ? 'tool_calls' : mapped
      // Close calls now: no argument fragment can follow a finish_reason.
      closeCalls()
    }
  }

  const serverError = (error: unknown): void => {
    const record = asRecord(error)
    const text = asString(error) ?? asString(record?.['message']) ?? JSON.stringify(error)
    const retryable = streamErrorRetryable(error)
    const advice = retryable ? 'try again' : 'change the request or the model before trying again'
    fail(ErrorCode.FX_MODEL_STREAM_ERROR, `${label} reported an error mid-answer: ${quoteForMessage(text, 200, secret)}; ${advice}`, retryable)
  }

  const payload = (data: string, event?: string, notPlain = false): void => {
    if (done) return
    if (data.trim() === '[DONE]') {
      // Without a finish_reason nothing says the model finished: a proxy that lost the upstream
      // mid-answer still ends its own stream with [DONE]. So this is a cut, not a success.
      if (finishReason !== undefined) finish(finishReason)
      else fail(ErrorCode.FX_MODEL_STREAM_TRUNCATED, `${label} ended the stream without saying why the model stopped, so the answer may be cut short; try again`, true)
      return
    }
    const text = !notPlain && (event === undefined || event === 'message') ? plainTextDelta(data) : undefined
    if (text !== undefined) {
      if (finishReason === undefined) pendingText += text
      return
    }
    flushText()
    let chunk: Record<string, unknown> | undefined
    try {
      chunk = asRecord(JSON.parse(data))
    } catch {
      chunk = undefined
    }
    if (chunk === undefined) {
      fail(ErrorCode.FX_MODEL_STREAM_MALFORMED, `${label} sent a stream line that is not a JSON object: "${quoteForMessage(data, 80, secret)}"`, false)
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

  const end = (dropped = false): void => {
    flushText()
    if (done) return
    // A finish_reason is a complete answer even if the server forgot [DONE] or the usage chunk.
    if (finishReason !== undefined) finish(finishReason)
    else if (dropped) fail(ErrorCode.FX_MODEL_STREAM_TRUNCATED, `the connection to ${label} dropped before the model finished; try again`, true)
    else fail(ErrorCode.FX_MODEL_STREAM_TRUNCATED, 'the model server closed the stream before finishing; try again', true)
  }

  return {
    payload,
    text(delta) {
      if (!done && finishReason === undefined) pendingText += delta
    },
    flush: flushText,
    end,
    get done() {
      return done
    },
  }
}
