/**
 * A `fetch` for the worker that runs the app's own `fetch` option on the main thread. The
 * response body comes back chunk by chunk through a callback, because a ReadableStream cannot
 * be transferred everywhere (Safari), and is rebuilt here as a streaming Response.
 */
import * as Comlink from 'comlink'
import type { HostCallbacks } from '../../shared/messages/worker-api.ts'

let nextRequestId = 1

export function createHostFetch(host: Comlink.Remote<HostCallbacks>): typeof fetch {
  return async (input, init) => {
    const requestId = nextRequestId++
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const headers = [...new Headers(init?.headers ?? {}).entries()]
    const body = typeof init?.body === 'string' ? init.body : undefined
    let controller!: ReadableStreamDefaultController<Uint8Array>
    const stream = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c
      },
      cancel: () => host.abortFetch(requestId),
    })
    const onChunk = Comlink.proxy((chunk: Uint8Array | null) => {
      try {
        if (chunk) controller.enqueue(chunk)
        else controller.close()
      } catch {
        // the reader went away (aborted); later chunks have nowhere to go
      }
    })
    init?.signal?.addEventListener('abort', () => host.abortFetch(requestId))
    const head = await host.fetch(url, { method: init?.method ?? 'GET', headers, ...(body !== undefined ? { body } : {}) }, onChunk, requestId)
    if (!head.ok) throw new TypeError(head.message)
    return new Response(stream, { status: head.status, statusText: head.statusText, headers: head.headers })
  }
}
