/**
 * Shared fixtures for the provider tests: byte streams split at chosen boundaries, a recording
 * fake fetch, and a collector that runs one provider request to completion.
 */
import type { ModelEvent, ModelProvider, ModelRequest } from '../../src/shared/protocol/model-events.ts'

/** The SSE text of a stream whose `data:` payloads are these (objects become JSON). */
export function sseText(...payloads: (object | string)[]): string {
  return payloads.map((payload) => `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`).join('')
}

/** A body that yields these chunks, then closes. */
export function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[next++]
      if (chunk === undefined) controller.close()
      else controller.enqueue(chunk)
    },
  })
}

/** Every way to cut `text`'s UTF-8 bytes: one byte per chunk, and each single cut point. */
export function byteSplits(text: string): Uint8Array[][] {
  const bytes = new TextEncoder().encode(text)
  const splits: Uint8Array[][] = [Array.from(bytes, (byte) => Uint8Array.of(byte))]
  for (let cut = 1; cut < bytes.length; cut++) splits.push([bytes.slice(0, cut), bytes.slice(cut)])
  return splits
}

/** One recorded call to a fake fetch. */
export type FetchCall = { url: string; init: RequestInit | undefined }

/** A fetch that records its calls and answers with `respond`. */
export function fakeFetch(respond: (url: string, init: RequestInit | undefined) => Response | Promise<Response>) {
  const calls: FetchCall[] = []
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    calls.push({ url, init })
    return respond(url, init)
  }) as typeof globalThis.fetch
  return { fetch, calls }
}

/** An SSE response over the given chunks. */
export function sseResponse(chunks: Uint8Array[]): Response {
  return new Response(streamOf(chunks), { status: 200, headers: { 'content-type': 'text/event-stream' } })
}

/** A minimal request: one user message, no tools. */
export const HELLO_REQUEST: ModelRequest = { model: 'test-model', messages: [{ role: 'user', content: 'hi' }], tools: [] }

/** Runs one request and returns every event emitted, in order. */
export async function collect(
  provider: ModelProvider,
  request: ModelRequest = HELLO_REQUEST,
  options: { signal?: AbortSignal; onEvent?: (event: ModelEvent) => void } = {},
): Promise<ModelEvent[]> {
  const events: ModelEvent[] = []
  await provider.stream(
    request,
    (event) => {
      events.push(event)
      options.onEvent?.(event)
    },
    options.signal ?? new AbortController().signal,
  )
  return events
}

/**
 * Consecutive text deltas joined into one: a provider passes on the text of one network read as
 * one delta, so how the bytes were cut decides the pieces, never the text or its place.
 */
export function joinTextDeltas(events: ModelEvent[]): ModelEvent[] {
  const out: ModelEvent[] = []
  for (const event of events) {
    const last = out.at(-1)
    if (event.type === 'text_delta' && last?.type === 'text_delta') out[out.length - 1] = { type: 'text_delta', delta: last.delta + event.delta }
    else out.push(event)
  }
  return out
}
