/**
 * The OpenAI Chat Completions streaming adapter (`POST {baseUrl}/chat/completions`). It serves
 * AI Gateway, local servers (Ollama, LM Studio, llama.cpp) and routers. It runs in the engine
 * worker: it adds the key (which never enters the engine), reads the SSE body itself and turns
 * every failure into one `error` event with a code and a message that says what to try.
 */
import { ErrorCode } from '../../shared/errors.ts'
import type { ModelEvent, ModelInfo, ModelProvider, ModelRequest } from '../../shared/protocol/model-events.ts'
import type { PermissionsLike } from './diagnose-failure.ts'
import { guardEmit } from './guarded-emit.ts'
import { chatCompletionEvents, emitJsonReply, isJsonReply } from './json-completion.ts'
import { listServerModels, ModelCatalogError } from './list-models.ts'
import { quoteForMessage } from './mask-secrets.ts'
import { catalogToModelInfo, type ModelCatalog } from './model-list.ts'
import { toChatCompletionsBody } from './openai-wire.ts'
import { readByteStream } from './read-byte-stream.ts'
import { sendModelRequest } from './send-model-request.ts'
import type { LocalServerKind } from './server-advice.ts'
import { createSseChatStream } from './sse-chat-stream.ts'

/** Options for {@link createOpenAiCompatibleProvider}. */
export type OpenAiCompatibleOptions = {
  /** The API root, e.g. `https://ai-gateway.vercel.sh/v1` (a trailing slash is ignored). */
  baseUrl: string
  /** Sent as `Authorization: Bearer <key>`; no header at all when absent (local servers). */
  apiKey?: string
  /**
   * The key read at each request (a key saved with /key may change between requests), given
   * the URL the request goes to (a saved key is bound to its origin); used when `apiKey` is absent.
   */
  key?: (url: string) => Promise<string | undefined>
  /**
   * Set for a provider that always needs a key (a hosted API): without one it sends nothing and
   * says this, e.g. `/key openai saves one`.
   */
  keyHint?: string
  /** The model used when a request names none. */
  model: string
  /** Shown in the status line and in messages, e.g. `ai-gateway` or `localhost:11434`. */
  label: string
  /** The provider's stable id (`ModelProvider.name`); defaults to `label`. */
  name?: string
  /** Which local server this is (a preset), so a CORS or start-up failure gets its exact fix. */
  server?: LocalServerKind
  /** Answers `listModels` without a request (for a proxy that forwards only chat requests). */
  modelCatalog?: ModelCatalog
  /**
   * The `service_tier` sent for `options.fast` (AI Gateway: `priority`, its faster and dearer
   * tier for the models that have one). Without it the provider has no fast tier: a request with
   * `fast: true` fails with `FX_MODEL_UNSUPPORTED_FAST`, and `listModels` reports `fast: false`.
   */
  fastServiceTier?: string
  /** The clock for `Retry-After` dates (ms since the epoch); defaults to `Date.now`. */
  now?: () => number
  /** The Permissions API for the Local Network Access check; defaults to `navigator.permissions`. */
  permissions?: PermissionsLike | null
  /** Defaults to the global fetch; the app's `fetch` option goes here. */
  fetch?: typeof fetch
  /** The page's origin, for CORS advice; defaults to `location.origin` when there is one. */
  origin?: string
}

/** How to give a local server its first model. */
function pullHint(server: LocalServerKind): string {
  if (server === 'ollama') return 'pull one with ollama pull <model>'
  if (server === 'lmstudio') return "load one in LM Studio's Developer tab"
  return 'start llama-server with -m <model.gguf>'
}

function defaultOrigin(): string | undefined {
  const location = (globalThis as { location?: { origin?: string } }).location
  return typeof location?.origin === 'string' && location.origin !== 'null' ? location.origin : undefined
}

/** Creates a provider that streams from an OpenAI-compatible `/chat/completions` endpoint. */
export function createOpenAiCompatibleProvider(options: OpenAiCompatibleOptions): ModelProvider {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const { label, fastServiceTier } = options
  const currentKey = async (url: string): Promise<string | undefined> => options.apiKey ?? (await options.key?.(url).catch(() => undefined))
  const name = options.name ?? label
  // Resolved per call, not captured, so a test or app can swap globalThis.fetch later.
  const fetchFn = (): typeof fetch => options.fetch ?? globalThis.fetch.bind(globalThis)
  const now = (): number => options.now?.() ?? Date.now()
  const probeOptions = {
    ...(options.server ? { server: options.server } : {}),
    ...(options.permissions !== undefined ? { permissions: options.permissions } : {}),
  }

  /** A request this provider cannot send at all, as one error event; undefined when it can. */
  function refusal(request: ModelRequest, model: string): ModelEvent | undefined {
    if (model === '') {
      return { type: 'error', code: ErrorCode.FX_MODEL_NOT_CHOSEN, message: `no model is chosen for ${label}; pick one with /model <id> (/models lists them)`, retryable: false }
    }
    if (request.options?.fast === true && fastServiceTier === undefined) {
      return { type: 'error', code: ErrorCode.FX_MODEL_UNSUPPORTED_FAST, message: `${label} has no fast tier; turn fast mode off with /fast`, retryable: false }
    }
    return undefined
  }

  async function stream(request: ModelRequest, rawEmit: (event: ModelEvent) => void, signal: AbortSignal) {
    const guard = guardEmit(rawEmit, signal)
    const emit = guard.emit
    const body = toChatCompletionsBody(request, options.model, fastServiceTier === undefined ? {} : { fastServiceTier })
    // A local server with no model named yet: ask it which it has and use the first (the engine
    // picks the same one from the catalog), or say why it cannot answer, instead of a dead end.
    if (body.model === '' && options.server !== undefined) {
      try {
        const first = (await listModels(signal))[0]?.id
        if (first !== undefined) body.model = first
        else {
          emit({ type: 'error', code: ErrorCode.FX_MODEL_NOT_CHOSEN, message: `${label} has no models yet; ${pullHint(options.server)}, then try again`, retryable: false })
          return
        }
      } catch (error) {
        if (signal.aborted) return
        const failure = error as { code?: string; message?: string; retryable?: boolean }
        emit({ type: 'error', code: (failure.code as typeof ErrorCode.FX_MODEL_UNREACHABLE | undefined) ?? ErrorCode.FX_MODEL_UNREACHABLE, message: failure.message ?? String(error), retryable: false })
        return
      }
    }
    const refused = refusal(request, body.model)
    if (refused !== undefined) {
      emit(refused)
      return
    }
    const url = `${baseUrl}/chat/completions`
    const apiKey = await currentKey(url)
    if (signal.aborted) return
    if (!apiKey && options.keyHint !== undefined) {
      emit({ type: 'error', code: ErrorCode.FX_MODEL_UNAUTHORIZED, message: `${label} needs an API key: ${options.keyHint}`, retryable: false })
      return
    }
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'text/event-stream' }
    if (apiKey) headers['Authorization'] = `Bearer ${apiKey}`
    try {
      const diagnose = { origin: options.origin ?? defaultOrigin(), ...probeOptions }
      const sent = { url, headers, body, key: apiKey, signal, label, baseUrl, model: body.model, fetch: fetchFn(), now, diagnose }
      const response = await sendModelRequest(sent, emit)
      if (!response) return
      if (isJsonReply(response)) {
        await emitJsonReply(response, signal, emit, (text) => chatCompletionEvents(text, { label, ...(apiKey ? { secret: apiKey } : {}) }), label)
        return
      }
      const sse = createSseChatStream({ emit, label, ...(apiKey ? { secret: apiKey } : {}) })
      if (response.body === null) {
        sse.end()
        return
      }
      let dropped = false
      try {
        await readByteStream(response.body, signal, (bytes) => {
          sse.feed(bytes)
          return sse.done
        })
      } catch {
        // The connection dropped mid-body: a complete answer still finishes, otherwise truncated.
        dropped = true
      }
      sse.end(dropped)
    } catch (error) {
      // Only a bug lands here; the contract still owes the engine a terminal event.
      const text = error instanceof Error ? error.message : String(error)
      emit({
        type: 'error',
        code: ErrorCode.FX_MODEL_PROVIDER_FAILED,
        message: `the ${label} adapter failed: ${quoteForMessage(text, 200, apiKey)}`,
        retryable: false,
      })
    }
  }

  /** Without a fast tier, every model is known not to have one. */
  const withFast = (models: ModelInfo[]): ModelInfo[] =>
    fastServiceTier === undefined ? models.map((model) => ({ ...model, fast: model.fast ?? false })) : models

  async function listModels(signal: AbortSignal): Promise<ModelInfo[]> {
    if (options.modelCatalog !== undefined) return withFast(catalogToModelInfo(options.modelCatalog))
    const origin = options.origin ?? defaultOrigin()
    const apiKey = await currentKey(`${baseUrl}/models`)
    if (!apiKey && options.keyHint !== undefined) throw new ModelCatalogError(ErrorCode.FX_MODEL_UNAUTHORIZED, `${label} needs an API key to list its models: ${options.keyHint}`, false)
    const listed = await listServerModels({
      baseUrl,
      label,
      fetch: fetchFn(),
      signal,
      now,
      ...(apiKey ? { apiKey } : {}),
      ...(origin ? { origin } : {}),
      ...probeOptions,
    })
    return withFast(listed)
  }

  return { name, label, defaultModel: options.model, stream, listModels }
}
