/**
 * The provider-neutral shapes that cross from the engine to a provider adapter (a model request)
 * and back (normalized stream events). Every provider adapter (OpenAI-compatible, demo tape)
 * speaks exactly these, so the engine never sees a wire format.
 */

/** One message of the conversation, as the engine keeps it. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string }

/** A tool call the model made; `arguments` is the raw JSON text the model produced. */
export type ToolCall = { id: string; name: string; arguments: string }

/** A function tool offered to the model (JSON Schema parameters). */
export type ToolSpec = { name: string; description: string; parameters: Record<string, unknown> }

/** What the engine asks for: the host's provider adapter adds credentials and the wire format. */
export type ModelRequest = {
  model: string
  messages: ChatMessage[]
  tools: ToolSpec[]
}

/** Normalized stream events fed back to the engine, in arrival order. */
export type ModelEvent =
  | { type: 'text_delta'; delta: string }
  | { type: 'reasoning_delta'; delta: string }
  | { type: 'tool_call_start'; index: number; id: string; name: string }
  | { type: 'tool_call_delta'; index: number; delta: string }
  | { type: 'tool_call_end'; index: number }
  | { type: 'usage'; inputTokens: number; outputTokens: number }
  | { type: 'finish'; reason: FinishReason }
  | { type: 'error'; code: string; message: string }

/** Why the model stopped: `tool_calls` means the engine runs them and asks again. */
export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'error'

/**
 * A provider adapter: streams one model request. It calls `emit` for each event and always
 * ends with exactly one `finish` or `error` event (never throws for a server's fault; a thrown
 * error is a bug). `signal` aborts the request; after an abort nothing more is emitted.
 */
export type ModelProvider = {
  /** Short label shown in the status line, e.g. `demo` or `ai-gateway`. */
  readonly label: string
  /** The model id used when the engine does not name one. */
  readonly defaultModel: string
  stream(request: ModelRequest, emit: (event: ModelEvent) => void, signal: AbortSignal): Promise<void>
}
