/**
 * The headless agent API's public types: the reference's `createFxAgent` surface, the part
 * that runs in a browser (see docs/library.md "Headless agent API").
 */
import type { ModelInfo } from '../protocol/model-events.ts'
import type { WorkspaceAdapter } from '../protocol/workspace.ts'
import type { CustomProviderConfig, ModelCatalog } from '../provider-types.ts'
import type { ConfigStore, SessionStore } from '../stores/types.ts'

/**
 * A model id, or an id with settings: `fast` asks for the provider's faster tier, `ultrafast` for
 * the fastest (OpenAI's `service_tier: "ultrafast"`) on models that offer it.
 */
export type FxModel = string | { id: string; fast?: boolean; effort?: string; ultrafast?: boolean }

/** What a tool's `execute` receives besides the model's input. */
export type FxToolContext = {
  /** Aborts when the turn is cancelled. */
  signal: AbortSignal
  /** The call's id; the same when the call runs again after an interruption. */
  executionId: string
  sessionId: string
  /** The JSON passed as `context` to `agent.session()`. */
  context: unknown
}

/** A tool the model may call; `execute` runs in the page. */
export type FxTool = {
  name: string
  description?: string
  /** JSON Schema of the input (default: any object). */
  inputSchema?: Record<string, unknown>
  execute(input: unknown, context: FxToolContext): unknown
  /** Safe to run twice: after an interruption the call runs again with the same `executionId`. */
  idempotent?: boolean
  /** Kept for the reference's shape; calls run one after another here anyway. */
  writes?: boolean
}

/** The credential for a provider, asked for before each turn. */
export type FxCredentials = (request: { provider: string; sessionId: string }) => { apiKey?: string } | null | undefined | Promise<{ apiKey?: string } | null | undefined>

/**
 * A diagnostic for `onEvent`, apart from the model's output (that is in the turn's lines):
 * never a credential, a header or a prompt's text. A union, so `event.type` narrows the rest.
 */
export type FxAgentEvent =
  /** A model request is sent (`step` of the turn, `attempt` ≥ 2 on a retry, `messages` in it). */
  | { type: 'model.request'; sessionId: string; provider: string; model: string; step: number; attempt: number; messages: number }
  /** A response ended (`finishReason` as the engine names it). */
  | { type: 'model.response'; sessionId: string; finishReason: string; elapsedMs?: number }
  /** A request failed (`code` from the error table). */
  | { type: 'model.error'; sessionId: string; code: string; message: string; status?: number; retryable: boolean; elapsedMs?: number }
  /** A failed request is tried again after `delayMs`. */
  | { type: 'model.retry'; sessionId: string; attempt: number; delayMs: number }
  /** The session's store failed: queued prompts cannot run. */
  | { type: 'session.error'; sessionId: string; message: string }
  /** A step could not be saved (the turn goes on in memory). */
  | { type: 'session.save_error'; sessionId: string; message: string }
  /** The engine trapped; the turn ended with an error. */
  | { type: 'engine.trap'; sessionId: string; message: string }
  /** `createFxEngine` with `persistence`: another writer took the conversation over. */
  | { type: 'persistence.fenced'; message: string }
  /** A session's turn runs under another model, tool set or fxterm version than its last (`changed` names which); it goes on. */
  | { type: 'checkpoint.mismatch'; sessionId: string; changed: Array<'model' | 'tools' | 'version'>; was: { model: string; tools: string[]; version?: string }; now: { model: string; tools: string[]; version: string } }
  /** The engine's own notes: a session restored, a saved session or setting it could not read. */
  | { type: 'session.resumed' | 'session.load_error' | 'config.restore_error'; sessionId: string; message?: string }

export type FxAgentOptions = {
  model?: FxModel
  instructions?: string
  tools?: FxTool[] | Record<string, Omit<FxTool, 'name'> & { name?: string }>
  /** `ai-gateway` (default), `demo` (the offline demo), a preset (`ollama`, `lmstudio`, `llamacpp`), or a custom provider. */
  provider?: string | CustomProviderConfig
  /** AI Gateway's key; without it, `AI_GATEWAY_API_KEY` from `env`, then `credentials`. */
  apiKey?: string
  /** Where `AI_GATEWAY_API_KEY` is read: default `process.env` in Node, nothing in a page. */
  env?: Record<string, string | undefined>
  credentials?: FxCredentials
  fetch?: typeof fetch
  /** Its `model` setting is the model when the options name none. */
  configStore?: ConfigStore
  /** A reference session store to keep sessions in, when no `durability` is given. */
  sessionStore?: SessionStore
  /** `memory()` (default) or `indexedDb({ namespace })`. */
  durability?: FxDurability
  onEvent?: (event: FxAgentEvent) => void
  /** The provider's catalog (context windows), so it is never fetched. */
  modelCatalog?: ModelCatalog
  /** Model requests per turn (default 100). */
  maxSteps?: number
  /** A model stream with no progress for this long is dropped and retried (default 60000 ms; keep-alive comments do not count; 0: no limit). */
  streamIdleTimeoutMs?: number
  /** A workspace adapter: the model gets `run_command`. */
  workspace?: WorkspaceAdapter
  /**
   * Where the engines run: in a worker (default in a page; a function makes the Worker, e.g. for
   * a custom bundler) or, with `false`, in the calling thread (default where there is no Worker).
   */
  worker?: boolean | (() => Worker)
  /** The offline demo's tape (`provider: 'demo'`): default: the tour shipped with the module. */
  demoTapeUrl?: string
  /**
   * Makes a prompt image that breaks a limit (3.75 MiB, 6 MiB together, or not PNG, JPEG, GIF or
   * WebP) fit instead of refusing it: a function, or `true` for the browser's canvas (JPEG).
   */
  resizeImage?: boolean | FxResizeImage
  /** engine.wasm: a URL (default: the file shipped with the module), its bytes, or a compiled module. */
  wasm?: string | URL | ArrayBuffer | Uint8Array | WebAssembly.Module
}

export type FxSessionOptions = { model?: FxModel; instructions?: string; context?: unknown }

/**
 * A prompt: text, or text and image blocks. An image's `data` is base64 (with its `mimeType`), or
 * its bytes, a `Blob` or a `File` (the type is read from the bytes when `mimeType` is left out).
 */
export type FxPromptBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; mimeType: string; data: string }
  | { type: 'image'; mimeType?: string; data: Uint8Array | ArrayBuffer | Blob }
export type FxPromptInput = string | FxPromptBlock[]

export type FxUsage = { inputTokens: number; outputTokens: number }
export type FxStopReason = 'end_turn' | 'max_output_tokens' | 'max_model_turns' | 'refused' | 'cancelled' | 'error' | 'unknown'

export type FxTurnResult = {
  messageId: string
  stopReason: FxStopReason
  usage: FxUsage
  error?: { code: string; message: string }
  /** This prompt's messageId was seen before: nothing new ran. */
  repeated?: boolean
}

/** A tool call that was running when the turn was interrupted (not `idempotent`). */
export type FxAmbiguousCall = { name: string; input: unknown; executionId: string }

export type FxResumeOptions = {
  /** `'rerun'` runs the call again under the same executionId; anything else reports "may have partly run". */
  onAmbiguous?: (call: FxAmbiguousCall) => 'rerun' | 'report' | Promise<'rerun' | 'report'>
}

/** What a line of a session's stream says; `FxStreamLine` adds its `cursor`. */
export type FxStreamEvent =
  /** A turn begins (`messageId` is its prompt's). */
  | { type: 'turn_start'; sessionId: string; messageId: string }
  /** A turn a closed page left open goes on (the model is told it was interrupted). */
  | { type: 'turn_resume'; sessionId: string; messageId: string }
  /** The prompt (`images`: how many it carried), or a steer joining the turn (`steer: true`). */
  | { type: 'user_message'; text: string; steer?: true; images?: number }
  | { type: 'text_delta'; delta: string }
  | { type: 'reasoning_delta'; delta: string }
  /** A JS tool call (`toolCallId`, `executionId`; `rerun` after an interruption) or `run_command` (`input.command`). */
  | { type: 'tool_start'; name: string; input: unknown; toolCallId?: string; executionId?: string; rerun?: true }
  /** A JS tool's result (`output`, `isError`, and how many `images` it returned) or a command's `exitCode`. */
  | { type: 'tool_end'; name: string; toolCallId?: string; output?: string; isError?: boolean; images?: number; exitCode?: number }
  | { type: 'compaction_start' }
  | { type: 'compaction_end' }
  /** The turn's result. */
  | ({ type: 'turn_end' } & FxTurnResult)

/** One line of a session's stream (`turn.readable`, `session.stream()`, a turn's events). */
export type FxStreamLine = FxStreamEvent & { cursor: number }

/** A stream line as the log keeps it (any type; the stream's lines are FxStreamLine). */
export type FxLogLine = { type: string; cursor: number } & Record<string, unknown>

export type FxTurn = AsyncIterable<FxStreamLine> & {
  messageId: string
  /** Resolves once the prompt is stored. */
  accepted: Promise<{ messageId: string; sessionId: string }>
  result: Promise<FxTurnResult>
  /** The turn as NDJSON, one line per event, each with its `cursor`. */
  readable: ReadableStream<Uint8Array>
}

export type FxSession = {
  readonly id: string
  prompt(input: FxPromptInput, options?: { messageId?: string; signal?: AbortSignal }): FxTurn
  /** Every line after `cursor`, then new ones as they come (until `signal` aborts). */
  stream(cursor?: number, options?: { signal?: AbortSignal }): ReadableStream<Uint8Array>
  steer(text: string): void
  cancel(): void
  /** Continues a turn a closed page left open; resolves with its result (null: none was open). */
  resume(options?: FxResumeOptions): Promise<FxTurnResult | null>
  /** The conversation as opaque bytes (for `createFxEngine({ checkpoint })`). */
  checkpoint(): Promise<Uint8Array>
}

export type FxAgent = {
  session(id?: string, options?: FxSessionOptions): FxSession
  newSessionId(): Promise<string>
  /** Waits for running turns, then stops every engine. */
  close(): Promise<void>
}

export type { ModelInfo }

/** Everything a session stores besides its stream lines. */
export type SessionRecord = {
  /** The engine's snapshot at the last commit point. */
  snapshot?: Uint8Array
  turns: StoredTurn[]
  /** The host tool call running at the last step, if any (asked about on resume). */
  running?: { callId: string; name: string; input: unknown; executionId: string }
  /** Images tools returned, by the key their markers in the conversation name. */
  toolImages?: Record<string, Array<{ mimeType: string; data: string }>>
  /** The model, tool set and version the last turn ran with (`checkpoint.mismatch` when the next differs). */
  madeWith?: MadeWith
  /** Line chunks stored so far, and the cursor of the last stored line. */
  chunks: number
  lineCount: number
}

/** Where an agent's sessions live: `memory()`, `indexedDb()`, or a reference `sessionStore`. */
export type FxDurability = {
  readonly kind: 'memory' | 'indexedDb' | 'sessionStore'
  load(sessionId: string): Promise<{ record: SessionRecord | null; lines: FxLogLine[] }>
  /**
   * Writes the record and appends `lines` (the ones since the last save) in one go; with lines,
   * the caller has already counted their chunk in `record.chunks`.
   */
  save(sessionId: string, record: SessionRecord, lines: FxLogLine[]): Promise<void>
  /** Runs `fn` while holding the session's lock; a second tab waits for it. */
  withLock<T>(sessionId: string, fn: () => Promise<T>): Promise<T>
  /** Why nothing more may be written (another writer took over), or null. */
  halted?(): Error | null
}

/** What an image must fit: at most `maxBytes`, as one of `mimeTypes`. */
export type FxImageLimits = { maxBytes: number; mimeTypes: readonly string[] }

/** Makes one image fit `limits`: its bytes (and type, else read from the bytes) back. */
export type FxResizeImage = (
  image: { mimeType: string; data: Uint8Array },
  limits: FxImageLimits,
) => Promise<{ mimeType?: string; data: Uint8Array | ArrayBuffer | Blob }> | { mimeType?: string; data: Uint8Array | ArrayBuffer | Blob }

/** A prompt as its session stores it, and how its turn went. */
export type StoredTurn = {
  messageId: string
  input: FxPromptInput
  status: 'queued' | 'running' | 'done'
  result?: FxTurnResult
}

/** What a session's turns ran with: the model, the tools' names, and fxterm's version (absent in older records). */
export type MadeWith = { model: string; tools: string[]; version?: string }
