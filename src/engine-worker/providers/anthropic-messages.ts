/**
 * The Anthropic Messages streaming adapter (`POST {baseUrl}/messages`). Anthropic does not
 * speak Chat Completions, and it answers a browser's preflight only when the request carries
 * `anthropic-dangerous-direct-browser-access: true` (the header its TypeScript SDK sends for
 * `dangerouslyAllowBrowser`). The key goes in `x-api-key`, to this base URL only, and every
 * failure becomes one `error` event, as with the OpenAI-compatible adapter.
 */
import { createParser } from 'eventsource-parser'
import { ErrorCode } from '../../shared/errors.ts'
import type { ModelEvent, ModelInfo, ModelProvider, ModelRequest } from '../../shared/protocol/model-events.ts'
import { createAnthropicEventDecoder } from './anthropic-event-decoder.ts'
import { toAnthropicBody } from './anthropic-wire.ts'
import { diagnoseNetworkFailure, serverErrorText } from './diagnose-failure.ts'
import { guardEmit } from './guarded-emit.ts'
import { anthropicMessageEvents, emitJsonReply, isJsonReply } from './json-completion.ts'
import { ModelCatalogError } from './list-models.ts'
import { quoteForMessage } from './mask-secrets.ts'
import { isRedirect, KEYED_REQUEST, redirectRefusal } from './keyed-request.ts'
import { readByteStream } from './read-byte-stream.ts'
import { sendModelRequest } from './send-model-request.ts'
import { createEventSizeGuard, eventTooLarge } from './sse-event-size.ts'

/** The API version every request names; the event shapes decoded here are this version's. */
export const ANTHROPIC_VERSION = '2023-06-01'

/** Options for {@link createAnthropicProvider}. */
export type AnthropicOptions = {
  /** The API root, e.g. `https://api.anthropic.com/v1`. */
  baseUrl: string
  name: string
  label: string
  /** The model used when a request names none. */
  model: string
  /** The key, read at each request (it may be saved or removed meanwhile) for the URL it goes to. */
  key: (url: string) => Promise<string | undefined>
  /** What to tell a person who has no key yet, e.g. `/key anthropic saves one`. */
  keyHint?: string
  fetch?: typeof fetch
  origin?: string
  now?: () => number
}

/** The headers of every request: the key, the version, and the browser opt-in. */
export function anthropicHeaders(key: string): Record<string, string> {
  return {
    'x-api-key': key,
    'anthropic-version': ANTHROPIC_VERSION,
    'anthropic-dangerous-direct-browser-access': 'true',
  }
}

export function createAnthropicProvider(options: AnthropicOptions): ModelProvider {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const { label, name } = options
  const fetchFn = (): typeof fetch => options.fetch ?? globalThis.fetch.bind(globalThis)
  const keyHint = options.keyHint ?? `/key ${name} saves one`

  async function stream(request: ModelRequest, rawEmit: (event: ModelEvent) => void, signal: AbortSignal) {
    const { emit } = guardEmit(rawEmit, signal)
    const body = toAnthropicBody(request, options.model)
    if (body.model === '') {
      emit({ type: 'error', code: ErrorCode.FX_MODEL_NOT_CHOSEN, message: `no model is chosen for ${label}; pick one with /model`, retryable: false })
      return
    }
    if (request.options?.fast === true) {
      emit({ type: 'error', code: ErrorCode.FX_MODEL_UNSUPPORTED_FAST, message: `${label} has no fast tier; turn fast mode off with /fast`, retryable: false })
      return
    }
    if (request.options?.ultrafast === true) {
      emit({ type: 'error', code: ErrorCode.FX_MODEL_UNSUPPORTED_ULTRAFAST, message: `${label} has no ultrafast tier; leave ultrafast off`, retryable: false })
      return
    }
    const url = `${baseUrl}/messages`
    const key = await options.key(url).catch(() => undefined)
    if (signal.aborted) return
    if (!key) {
      emit({ type: 'error', code: ErrorCode.FX_MODEL_UNAUTHORIZED, message: `${label} needs an API key: ${keyHint}`, retryable: false })
      return
    }
    const headers = { 'content-type': 'application/json', accept: 'text/event-stream', ...anthropicHeaders(key) }
    try {
      const now = () => options.now?.() ?? Date.now()
      const sent = { url, headers, body, key, signal, label, baseUrl, model: body.model, fetch: fetchFn(), now, diagnose: { origin: options.origin } }
      const response = await sendModelRequest(sent, emit)
      if (!response) return
      if (isJsonReply(response)) {
        await emitJsonReply(response, signal, emit, (text) => anthropicMessageEvents(text, { label, secret: key }), label)
        return
      }
      const decoder = createAnthropicEventDecoder({ emit, label, secret: key })
      // A body that ends inside an event is a cut (see sse-chat-stream.ts): its fragment is not read.
      let endingCut = false
      let cut = false
      const parser = createParser({
        onEvent: (message) => {
          if (endingCut && !isJson(message.data)) cut = true
          else decoder.event(message.data)
        },
      })
      const text = new TextDecoder()
      if (response.body === null) {
        decoder.end()
        return
      }
      const sizes = createEventSizeGuard()
      let tooLarge = false
      let lineOpen = false
      let dropped = false
      try {
        await readByteStream(response.body, signal, (bytes) => {
          if (bytes.length === 0) return decoder.done
          if (!sizes.add(bytes)) return (tooLarge = true)
          lineOpen = bytes[bytes.length - 1] !== 0x0a && bytes[bytes.length - 1] !== 0x0d
          parser.feed(text.decode(bytes, { stream: true }))
          return decoder.done
        })
      } catch {
        dropped = true
      }
      if (tooLarge) {
        emit(eventTooLarge(label))
        return
      }
      endingCut = lineOpen
      if (!decoder.done) parser.feed(text.decode() + '\n\n')
      decoder.end(dropped || cut)
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      emit({ type: 'error', code: ErrorCode.FX_MODEL_PROVIDER_FAILED, message: `the ${label} adapter failed: ${quoteForMessage(message, 200, key)}`, retryable: false })
    }
  }

  /** `GET {baseUrl}/models`: Anthropic lists `{ data: [{ type: "model", id }] }`, up to 1000 a page. */
  async function listModels(signal: AbortSignal): Promise<ModelInfo[]> {
    const url = `${baseUrl}/models?limit=1000`
    const key = await options.key(url).catch(() => undefined)
    if (!key) throw new ModelCatalogError(ErrorCode.FX_MODEL_UNAUTHORIZED, `${label} needs an API key to list its models: ${keyHint}`, false)
    let response: Response
    try {
      response = await fetchFn()(url, { headers: { accept: 'application/json', ...anthropicHeaders(key) }, signal, ...KEYED_REQUEST })
    } catch {
      if (signal.aborted) throw new ModelCatalogError(ErrorCode.FX_MODEL_CATALOG_CANCELLED, `listing the models of ${label} was cancelled`, false)
      const diagnosis = await diagnoseNetworkFailure({ baseUrl, origin: options.origin, fetch: fetchFn(), signal, sentKey: true })
      throw new ModelCatalogError(diagnosis.code, diagnosis.message, diagnosis.retryable)
    }
    if (isRedirect(response)) {
      const refused = redirectRefusal(label, url)
      throw new ModelCatalogError(refused.code, refused.message, false)
    }
    if (!response.ok) {
      const detail = quoteForMessage(serverErrorText(await response.text().catch(() => '')), 200, key)
      const code = response.status === 401 || response.status === 403 ? ErrorCode.FX_MODEL_UNAUTHORIZED : ErrorCode.FX_MODEL_CATALOG_UNAVAILABLE
      throw new ModelCatalogError(code, `${label} could not list its models (HTTP ${response.status}${detail ? `: ${detail}` : ''})`, response.status >= 500, response.status)
    }
    const data = (await response.json().catch(() => undefined) as { data?: unknown } | undefined)?.data
    if (!Array.isArray(data)) throw new ModelCatalogError(ErrorCode.FX_MODEL_CATALOG_MALFORMED, `${label} answered ${baseUrl}/models with something other than a model list`, false)
    return data.flatMap((item) => {
      const id = (item as { id?: unknown } | null)?.id
      return typeof id === 'string' && id !== '' ? [{ id, supportsToolUse: true, supportsImages: true, fast: false }] : []
    })
  }

  return { name, label, defaultModel: options.model, stream, listModels }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}
