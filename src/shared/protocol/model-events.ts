/**
 * The provider-neutral shapes that cross from the engine to a provider adapter (a model request)
 * and back (normalized stream events). Every provider adapter (OpenAI-compatible, demo tape)
 * speaks exactly these, so the engine never sees a wire format.
 */

/** One message of the conversation, as the engine keeps it. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string; images?: ChatImage[] }
  // `refusal`: the reply was the model refusing (drawn as a refusal); wires send it as plain content.
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[]; refusal?: boolean }
  // `images`: a tool that returned images (agent API); each wire carries them its own way.
  | { role: 'tool'; toolCallId: string; content: string; images?: ChatImage[] }

/** An image of a prompt or a tool result (agent API), base64. */
export type ChatImage = { mimeType: string; data: string }

/** A tool call the model made; `arguments` is the raw JSON text the model produced. */
export type ToolCall = { id: string; name: string; arguments: string }

/** A function tool offered to the model (JSON Schema parameters). */
export type ToolSpec = { name: string; description: string; parameters: Record<string, unknown> }

/** What the engine asks for: the host's provider adapter adds credentials and the wire format. */
export type ModelRequest = {
  model: string
  messages: ChatMessage[]
  tools: ToolSpec[]
  /** The name of the provider the engine chose (`ModelProvider.name`); the host routes by it. */
  provider?: string
  /** Per-request model settings; an adapter sends only the ones that are set. */
  options?: ModelOptions
}

/**
 * Model settings as in the reference's `{ id, effort, fast }`. The engine checks them against
 * the catalog (`ModelInfo.efforts`, `ModelInfo.fast`) before asking; adapters map them to the wire.
 */
export type ModelOptions = {
  /** Reasoning effort, e.g. `low`, `medium`, `high`. */
  effort?: string
  /** Ask for the faster (and dearer) service tier where the provider has one. */
  fast?: boolean
  /** Ask for the fastest tier (OpenAI's `service_tier: "ultrafast"`), on models that offer it. */
  ultrafast?: boolean
}

/** What a provider's catalog says about one model; unknown fields are left out. */
export type ModelInfo = {
  id: string
  contextWindow?: number
  maxOutputTokens?: number
  supportsToolUse?: boolean
  supportsImages?: boolean
  /** The efforts the model accepts; `[]` means it takes none, absent means unknown. */
  efforts?: string[]
  /** Whether the model offers a fast tier; absent means unknown. */
  fast?: boolean
  /** Whether the model offers the ultrafast tier; absent means unknown. */
  ultrafast?: boolean
}

/** Normalized stream events fed back to the engine, in arrival order. */
export type ModelEvent =
  | { type: 'text_delta'; delta: string }
  | { type: 'reasoning_delta'; delta: string }
  /** A refusal (OpenAI's `delta.refusal`): the reply, kept in the history, drawn as a refusal. */
  | { type: 'refusal_delta'; delta: string }
  | { type: 'tool_call_start'; index: number; id: string; name: string }
  | { type: 'tool_call_delta'; index: number; delta: string }
  | { type: 'tool_call_end'; index: number }
  | { type: 'usage'; inputTokens: number; outputTokens: number }
  | { type: 'finish'; reason: FinishReason }
  | {
      type: 'error'
      code: string
      /** One sentence: what happened and what to do, with any credential masked. */
      message: string
      /** True when the same request may succeed if sent again (the engine decides and waits). */
      retryable?: boolean
      /** How long the server asked us to wait before retrying, capped at 30 s. */
      retryAfterMs?: number
      /** The HTTP status, when the server answered with an error status. */
      status?: number
    }

/** Why the model stopped: `tool_calls` means the engine runs them and asks again. */
export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'error'

/**
 * A provider adapter: streams one model request. It calls `emit` for each event and always
 * ends with exactly one `finish` or `error` event (never throws for a server's fault; a thrown
 * error is a bug). `signal` aborts the request; after an abort nothing more is emitted.
 * An `error` may follow a `tool_call_start` that never got its `tool_call_end` (the stream was
 * cut mid-call): such a call is incomplete and must not run.
 */
export type ModelProvider = {
  /**
   * Stable id, unique among the page's providers: `demo`, `ai-gateway`, `ollama`, `lmstudio`,
   * `llamacpp`, a custom provider's name, or the host of a configured base URL. Persisted by `/provider`.
   */
  readonly name: string
  /** Short label shown in the status line, e.g. `demo` or `ai-gateway`. */
  readonly label: string
  /** The model id used when the engine does not name one; empty when only the catalog can tell. */
  readonly defaultModel: string
  stream(request: ModelRequest, emit: (event: ModelEvent) => void, signal: AbortSignal): Promise<void>
  /**
   * The models this provider offers. Rejects with an `Error` whose `message` is one sentence
   * saying what failed and what to do, and whose `code` is a stable `FX_MODEL_*` code.
   */
  listModels?(signal: AbortSignal): Promise<ModelInfo[]>
}
