/**
 * The main-thread side of the `fetch` option: runs the app's fetch and pumps the response body
 * to the worker chunk by chunk (see src/engine-worker/host/host-fetch.ts).
 */
import type { HostFetchHead } from '../../shared/messages/worker-api.ts'

export function createFetchBridge(appFetch: typeof fetch) {
  const controllers = new Map<number, AbortController>()
  return {
    async fetch(
      url: string,
      init: { method: string; headers: [string, string][]; body?: string },
      onChunk: (chunk: Uint8Array | null) => void,
      requestId: number,
    ): Promise<HostFetchHead> {
      const controller = new AbortController()
      controllers.set(requestId, controller)
      let response: Response
      try {
        response = await appFetch(url, { method: init.method, headers: init.headers, body: init.body ?? null, signal: controller.signal })
      } catch (error) {
        controllers.delete(requestId)
        return { ok: false, message: error instanceof Error ? error.message : String(error) }
      }
      void pump(response, onChunk).finally(() => controllers.delete(requestId))
      return { ok: true, status: response.status, statusText: response.statusText, headers: [...response.headers.entries()] }
    },
    abort(requestId: number): void {
      controllers.get(requestId)?.abort()
      controllers.delete(requestId)
    },
  }
}

async function pump(response: Response, onChunk: (chunk: Uint8Array | null) => void): Promise<void> {
  const reader = response.body?.getReader()
  try {
    while (reader) {
      const { done, value } = await reader.read()
      if (done) break
      await onChunk(value)
    }
  } catch {
    // aborted or the connection dropped: the worker's reader sees the stream end
  }
  await onChunk(null)
}
