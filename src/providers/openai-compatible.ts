/**
 * The OpenAI Chat Completions streaming adapter (`POST {baseUrl}/chat/completions`). It serves
 * AI Gateway, local servers (Ollama, LM Studio, llama.cpp) and routers. It runs in the engine
 * worker: it adds the key (which never enters the engine), reads the SSE body itself and turns
 * every failure into one `error` event with a code and a message that says what to try.
 */
import type { ModelEvent, ModelProvider, ModelRequest } from '../protocol/model-events.ts'
import { diagnoseHttpFailure, diagnoseNetworkFailure } from './diagnose-failure.ts'
import { guardEmit } from './guarded-emit.ts'
import { quoteForMessage } from './mask-secrets.ts'
import { toChatCompletionsBody } from './openai-wire.ts'
import { readTextStream } from './read-text-stream.ts'
import { createSseChatStream } from './sse-chat-stream.ts'

/** Options for {@link createOpenAiCompatibleProvider}. */
export type OpenAiCompatibleOptions = {
  /** The API root, e.g. `https://ai-gateway.vercel.sh/v1` (a trailing slash is ignored). */
  baseUrl: string
  /** Sent as `Authorization: Bearer <key>`; no header at all when absent (local servers). */
  apiKey?: string
  /** The model used when a request names none. */
  model: string
  /** Shown in the status line and in messages, e.g. `ai-gateway` or `localhost:11434`. */
  label: string
  /** Defaults to the global fetch; the app's `fetch` option goes here. */
  fetch?: typeof fetch
  /** The page's origin, for CORS advice; defaults to `location.origin` when there is one. */
  origin?: string
}

function defaultOrigin(): string | undefined {
  const location = (globalThis as { location?: { origin?: string } }).location
  return typeof location?.origin === 'string' && location.origin !== 'null' ? location.origin : undefined
}

/** Creates a provider that streams from an OpenAI-compatible `/chat/completions` endpoint. */
export function createOpenAiCompatibleProvider(options: OpenAiCompatibleOptions): ModelProvider {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const { apiKey, label } = options
  // Resolved per call, not captured, so a test or app can swap globalThis.fetch later.
  const fetchFn = (): typeof fetch => options.fetch ?? globalThis.fetch.bind(globalThis)

  async function stream(request: ModelRequest, rawEmit: (event: ModelEvent) => void, signal: AbortSignal) {
    const guard = guardEmit(rawEmit, signal)
    const emit = guard.emit
    const body = toChatCompletionsBody(request, options.model)
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'text/event-stream' }
    if (apiKey) headers['Authorization'] = `Bearer ${apiKey}`
    try {
      let response: Response
      try {
        response = await fetchFn()(`${baseUrl}/chat/completions`, {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
          signal,
        })
      } catch {
        if (signal.aborted) return
        const origin = options.origin ?? defaultOrigin()
        emit({ type: 'error', ...(await diagnoseNetworkFailure({ baseUrl, origin, fetch: fetchFn(), signal })) })
        return
      }
      if (!response.ok) {
        const bodyText = await response.text().catch(() => '')
        const failure = {
          status: response.status,
          bodyText,
          retryAfter: response.headers.get('retry-after'),
          baseUrl,
          model: body.model,
          label,
          fetch: fetchFn(),
          signal,
          ...(apiKey ? { apiKey } : {}),
        }
        emit({ type: 'error', ...(await diagnoseHttpFailure(failure)) })
        return
      }
      const sse = createSseChatStream({ emit, label, ...(apiKey ? { secret: apiKey } : {}) })
      if (response.body === null) {
        sse.end()
        return
      }
      try {
        await readTextStream(response.body, signal, (text) => {
          sse.feed(text)
          return sse.done
        })
      } catch {
        // The connection dropped mid-body: a complete answer still finishes, otherwise truncated.
      }
      sse.end()
    } catch (error) {
      // Only a bug lands here; the contract still owes the engine a terminal event.
      const text = error instanceof Error ? error.message : String(error)
      emit({ type: 'error', code: 'FX_MODEL_PROVIDER_FAILED', message: `the ${label} adapter failed: ${quoteForMessage(text, 200, apiKey)}` })
    }
  }

  return { label, defaultModel: options.model, stream }
}
