/**
 * A reply that was not streamed: a server that ignores `stream: true` answers one JSON object
 * (`application/json`) — Chat Completions' `chat.completion` or Anthropic's `message`. It is
 * accepted as a one-event reply: the same `ModelEvent`s its stream would have given, in order.
 * The body is read with the same cap as one stream event (MAX_EVENT_BYTES).
 */
import { ErrorCode } from '../../shared/errors.ts'
import type { FinishReason, ModelEvent } from '../../shared/protocol/model-events.ts'
import { quoteForMessage } from './mask-secrets.ts'
import { readByteStream } from './read-byte-stream.ts'
import { streamErrorRetryable } from './retry-hints.ts'
import { MAX_EVENT_BYTES } from './sse-event-size.ts'

/** Whether a 200 response is a whole JSON reply rather than an event stream. */
export function isJsonReply(response: Response): boolean {
  const type = response.headers.get('content-type')?.toLowerCase() ?? ''
  return /^application\/([\w.+-]*\+)?json\b/.test(type.trim())
}

/** The body as text; `too_large` past the cap (reading stops there), `dropped` when reading failed. */
export async function readJsonBody(body: ReadableStream<Uint8Array> | null, signal: AbortSignal): Promise<string | 'too_large' | 'dropped'> {
  if (body === null) return ''
  const decoder = new TextDecoder()
  let text = ''
  let size = 0
  try {
    const outcome = await readByteStream(body, signal, (bytes) => {
      size += bytes.length
      if (size > MAX_EVENT_BYTES) return true
      text += decoder.decode(bytes, { stream: true })
      return false
    })
    if (outcome === 'stopped') return 'too_large'
  } catch {
    return 'dropped'
  }
  return text + decoder.decode()
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
}

const string = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)
const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0)

const CHAT_FINISH: Record<string, FinishReason> = { stop: 'stop', tool_calls: 'tool_calls', function_call: 'tool_calls', length: 'length', content_filter: 'content_filter' }
const ANTHROPIC_STOP: Record<string, FinishReason> = { end_turn: 'stop', stop_sequence: 'stop', pause_turn: 'stop', tool_use: 'tool_calls', max_tokens: 'length', refusal: 'content_filter' }

type Label = { label: string; secret?: string }

function notAReply(text: string, { label, secret }: Label): ModelEvent[] {
  return [{ type: 'error', code: ErrorCode.FX_MODEL_STREAM_MALFORMED, message: `${label} answered with JSON that is not a reply: "${quoteForMessage(text, 80, secret)}"`, retryable: false }]
}

function serverError(error: unknown, { label, secret }: Label): ModelEvent[] {
  const text = string(error) ?? string(record(error)?.['message']) ?? JSON.stringify(error)
  const retryable = streamErrorRetryable(error)
  const advice = retryable ? 'try again' : 'change the request or the model before trying again'
  return [{ type: 'error', code: ErrorCode.FX_MODEL_STREAM_ERROR, message: `${label} answered with an error: ${quoteForMessage(text, 200, secret)}; ${advice}`, retryable }]
}

/** `text` as a JSON object, or undefined when it is not one. */
function parsedObject(text: string): Record<string, unknown> | undefined {
  try {
    return record(JSON.parse(text))
  } catch {
    return undefined
  }
}

/** The events of a Chat Completions `chat.completion` (`choices[0].message`). */
export function chatCompletionEvents(text: string, who: Label): ModelEvent[] {
  const body = parsedObject(text)
  if (body === undefined) return notAReply(text, who)
  if (body['error'] !== undefined && body['error'] !== null) return serverError(body['error'], who)
  const choice = record(Array.isArray(body['choices']) ? body['choices'][0] : undefined)
  const message = record(choice?.['message'])
  if (message === undefined) return notAReply(text, who)
  const events: ModelEvent[] = []
  const reasoning = string(message['reasoning_content']) || string(message['reasoning'])
  if (reasoning) events.push({ type: 'reasoning_delta', delta: reasoning })
  const content = string(message['content'])
  if (content) events.push({ type: 'text_delta', delta: content })
  const refusal = string(message['refusal'])
  if (refusal) events.push({ type: 'refusal_delta', delta: refusal })
  const calls = Array.isArray(message['tool_calls']) ? message['tool_calls'] : []
  calls.forEach((item, index) => {
    const call = record(item)
    const fn = record(call?.['function'])
    const name = string(fn?.['name'])
    if (name === undefined) return
    events.push({ type: 'tool_call_start', index, id: string(call?.['id']) || `call_${index}`, name })
    const args = fn?.['arguments']
    // Some servers give the arguments as an object rather than the JSON text of one.
    const json = typeof args === 'string' ? args : JSON.stringify(args ?? {})
    if (json !== '') events.push({ type: 'tool_call_delta', index, delta: json })
    events.push({ type: 'tool_call_end', index })
  })
  const usage = record(body['usage'])
  if (typeof usage?.['prompt_tokens'] === 'number' && typeof usage['completion_tokens'] === 'number') {
    events.push({ type: 'usage', inputTokens: usage['prompt_tokens'], outputTokens: usage['completion_tokens'] })
  }
  const reason = CHAT_FINISH[string(choice?.['finish_reason']) ?? ''] ?? 'stop'
  events.push({ type: 'finish', reason: reason === 'stop' && calls.length > 0 ? 'tool_calls' : reason })
  return events
}

/** The events of an Anthropic Messages `message` (its `content` blocks). */
export function anthropicMessageEvents(text: string, who: Label): ModelEvent[] {
  const body = parsedObject(text)
  if (body === undefined) return notAReply(text, who)
  if (body['type'] === 'error') return serverError(body['error'], who)
  if (!Array.isArray(body['content'])) return notAReply(text, who)
  const events: ModelEvent[] = []
  let calls = 0
  for (const item of body['content']) {
    const block = record(item)
    if (block?.['type'] === 'text' && string(block['text'])) events.push({ type: 'text_delta', delta: block['text'] as string })
    else if (block?.['type'] === 'thinking' && string(block['thinking'])) events.push({ type: 'reasoning_delta', delta: block['thinking'] as string })
    else if (block?.['type'] === 'tool_use') {
      const index = calls++
      events.push({ type: 'tool_call_start', index, id: string(block['id']) ?? '', name: string(block['name']) ?? '' })
      events.push({ type: 'tool_call_delta', index, delta: JSON.stringify(block['input'] ?? {}) })
      events.push({ type: 'tool_call_end', index })
    }
  }
  const usage = record(body['usage'])
  const input = count(usage?.['input_tokens']) + count(usage?.['cache_read_input_tokens']) + count(usage?.['cache_creation_input_tokens'])
  events.push({ type: 'usage', inputTokens: input, outputTokens: count(usage?.['output_tokens']) })
  events.push({ type: 'finish', reason: ANTHROPIC_STOP[string(body['stop_reason']) ?? ''] ?? 'stop' })
  return events
}

/** The error for a JSON reply over the cap. */
export function jsonReplyTooLarge(label: string): ModelEvent {
  return {
    type: 'error',
    code: ErrorCode.FX_MODEL_EVENT_TOO_LARGE,
    message: `${label} answered with a reply larger than ${MAX_EVENT_BYTES / 1024 / 1024} MB in one piece, so it was refused without reading the rest; ask for the work in smaller steps (write a large file in parts)`,
    retryable: false,
  }
}

/** Reads a JSON reply and emits its events: one `error` when it is too large or was cut. */
export async function emitJsonReply(
  response: Response,
  signal: AbortSignal,
  emit: (event: ModelEvent) => void,
  eventsOf: (text: string) => ModelEvent[],
  label: string,
): Promise<void> {
  const text = await readJsonBody(response.body, signal)
  if (signal.aborted) return
  if (text === 'too_large') return emit(jsonReplyTooLarge(label))
  if (text === 'dropped') {
    return emit({ type: 'error', code: ErrorCode.FX_MODEL_STREAM_TRUNCATED, message: `the connection to ${label} dropped before the model finished; try again`, retryable: true })
  }
  for (const event of eventsOf(text)) emit(event)
}
