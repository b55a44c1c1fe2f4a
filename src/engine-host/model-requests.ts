/**
 * The engine's model requests: each goes to the provider it names, its text deltas are joined
 * (delta-coalescer.ts) and every event is handed back in order. A request ends with finish or
 * error; a provider that returns without either, or throws, ends it with an error event, so a
 * turn never hangs.
 */
import { ErrorCode } from '../errors.ts'
import type { ModelEvent, ModelProvider, ModelRequest } from '../protocol/model-events.ts'
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
}

export type ModelRequests = {
  start(id: number, request: ModelRequest): void
  cancel(id: number): void
  cancelAll(): void
}

export function createModelRequests(options: ModelRequestsOptions): ModelRequests {
  const requests = new Map<number, AbortController>()

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
    const emit = (event: ModelEvent) => {
      if (!open) return
      if (event.type === 'finish' || event.type === 'error') {
        open = false
        requests.delete(id)
      }
      coalescer.push(event)
    }
    providerFor(request.provider).stream(request, emit, controller.signal).then(
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
