/**
 * The engine's model requests: each goes to the provider it names, its text deltas are joined
 * (delta-coalescer.ts) and every event is handed back in order. A request ends with finish or
 * error; a provider that returns without either, or throws, ends it with an error event, so a
 * turn never hangs.
 *
 * Nor does a stream that stalls: a request with no progress for `idleTimeoutMs` is aborted and
 * ends as a dropped connection (retryable, so the engine retries and continues the reply as for
 * a cut). Progress is an event from the provider, so bytes that carry none (SSE keep-alive
 * comments, Anthropic's `ping`s, a half-received event) do not count: a server that sends only
 * keep-alives forever is cut off too. It is watched here, not in each wire's adapter, so every
 * provider (an app's own included) gets it.
 */
import { ErrorCode } from '../../shared/errors.ts'
import type { ModelEvent, ModelProvider, ModelRequest } from '../../shared/protocol/model-events.ts'
import { createDeltaCoalescer } from './delta-coalescer.ts'

export type ModelRequestsOptions = {
  /** The providers a request can go to (asked for each request, so credentials stay fresh). */
  providers(): ModelProvider[]
  /** Where a request that names no provider (or an unknown one) goes; else the first provider. */
  defaultProvider?: string
  /** How long text deltas are held to be joined during a burst. */
  textIntervalMs: number
  /** Every event of request `id`, in order, joined; finish or error is the last. */
  deliver(id: number, event: ModelEvent): void
  /** How long a request may go without an event before it counts as dropped (default 60 s; 0: never). */
  idleTimeoutMs?: number
  /** The clock progress is measured with (default `Date.now`). */
  now?: () => number
}

/** The default of `idleTimeoutMs` (the `streamIdleTimeoutMs` option). */
export const STREAM_IDLE_TIMEOUT_MS = 60_000

export type ModelRequests = {
  start(id: number, request: ModelRequest): void
  cancel(id: number): void
  cancelAll(): void
}

export function createModelRequests(options: ModelRequestsOptions): ModelRequests {
  const requests = new Map<number, AbortController>()
  const idleMs = options.idleTimeoutMs ?? STREAM_IDLE_TIMEOUT_MS
  const now = options.now ?? Date.now

  const providerFor = (name: string | undefined) => {
    const providers = options.providers()
    return providers.find((p) => p.name === name) ?? providers.find((p) => p.name === options.defaultProvider) ?? providers[0]!
  }

  const start = (id: number, request: ModelRequest) => {
    const controller = new AbortController()
    requests.set(id, controller)
    // Read once per SSE event: a local, not the signal's `aborted` (a DOM getter in a browser).
    let open = true
    const coalescer = createDeltaCoalescer((event) => options.deliver(id, event), { intervalMs: options.textIntervalMs })
    controller.signal.addEventListener(
      'abort',
      () => {
        open = false
        coalescer.cancel()
      },
      { once: true },
    )
    const provider = providerFor(request.provider)
    const idle = watchIdle(idleMs, now, () => {
      const seconds = Number.isInteger(idleMs / 1000) ? idleMs / 1000 : (idleMs / 1000).toFixed(1)
      const message = `${provider.label} sent nothing for ${seconds} s (keep-alives do not count), so the connection was treated as dropped; try again`
      emit({ type: 'error', code: ErrorCode.FX_MODEL_STREAM_IDLE, message, retryable: true })
      controller.abort()
    })
    const emit = (event: ModelEvent) => {
      if (!open) return
      idle.progress()
      if (event.type === 'finish' || event.type === 'error') {
        open = false
        idle.stop()
        requests.delete(id)
      }
      coalescer.push(event)
    }
    controller.signal.addEventListener('abort', idle.stop, { once: true })
    provider.stream(request, emit, controller.signal).then(
      () => emit({ type: 'error', code: ErrorCode.FX_MODEL_STREAM_TRUNCATED, message: 'The model stream ended without finishing.' }),
      (error: unknown) => emit({ type: 'error', code: ErrorCode.FX_MODEL_PROVIDER_FAILED, message: `The model request failed: ${error instanceof Error ? error.message : String(error)}` }),
    )
  }

  return {
    start,
    cancel(id) {
      requests.get(id)?.abort()
      requests.delete(id)
    },
    cancelAll() {
      for (const c of requests.values()) c.abort()
      requests.clear()
    },
  }
}

/**
 * One timer per request, not one per event (a fast stream has an event per network read): each
 * event only notes the time, and the timer, when it fires early, waits out the rest.
 */
function watchIdle(limitMs: number, now: () => number, onIdle: () => void) {
  if (!(limitMs > 0 && Number.isFinite(limitMs))) return { progress() {}, stop() {} }
  let last = now()
  let timer: ReturnType<typeof setTimeout> | undefined
  const check = () => {
    const quiet = now() - last
    if (quiet >= limitMs) {
      timer = undefined
      onIdle()
    } else timer = setTimeout(check, limitMs - quiet)
  }
  timer = setTimeout(check, limitMs)
  return {
    progress() {
      last = now()
    },
    stop() {
      clearTimeout(timer)
      timer = undefined
    },
  }
}
