// The benches' baseline read of a model stream, shared by the agent bench (page and worker) and
// the stream-overhead bench: fetch, getReader, TextDecoder and eventsource-parser until [DONE],
// keeping each event's data (or, with `json`, JSON-parsing it and adding up its text, as a plain
// client would next). Also the mock server's /__script call that sets up each run.
import { createParser } from 'eventsource-parser'

export type RawRead = { ms: number; events: number; chars: number; firstMs?: number }

/** Scripts the mock server's next response (untimed setup for a run). */
export async function scriptMock(mockUrl: string, text: string, deltaChars: number): Promise<void> {
  const response = await fetch(`${mockUrl}/__script`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify([{ text, deltaChars }]) })
  if (!response.ok) throw new Error(`mock /__script: HTTP ${response.status}`)
}

/** Asks the mock model for its stream; the body's reader. */
async function requestBody(url: string, fetchFn: typeof fetch = fetch): Promise<ReadableStreamDefaultReader<Uint8Array>> {
  const response = await fetchFn(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify({ model: 'mock-model', stream: true, messages: [{ role: 'user', content: 'go' }] }),
  })
  if (!response.ok || response.body === null) throw new Error(`raw fetch: HTTP ${response.status}`)
  return response.body.getReader()
}

/**
 * The wire alone: the same request, its body read to the end and nothing decoded or parsed. A
 * floor for any client, shown next to the baseline (the mock server ends the body after [DONE]).
 */
export async function readRawBytes(url: string): Promise<RawRead> {
  const started = performance.now()
  const reader = await requestBody(url)
  let chars = 0
  for (let step = await reader.read(); !step.done; step = await reader.read()) chars += step.value.length
  return { ms: performance.now() - started, events: 0, chars }
}

/** Reads the chat completions stream at `url`; `ms` from the request to [DONE], `firstMs` to the first body bytes. */
export async function readRawSse(url: string, { fetchFn = fetch, json = false }: { fetchFn?: typeof fetch; json?: boolean } = {}): Promise<RawRead> {
  const started = performance.now()
  const reader = await requestBody(url, fetchFn)
  const decoder = new TextDecoder()
  let events = 0
  let chars = 0
  let done = false
  let firstMs: number | undefined
  const parser = createParser({
    onEvent: (event) => {
      events++
      if (event.data === '[DONE]') {
        done = true
      } else if (json) {
        const chunk = JSON.parse(event.data) as { choices?: Array<{ delta?: { content?: string } }> }
        chars += chunk.choices?.[0]?.delta?.content?.length ?? 0
      } else {
        chars += event.data.length
      }
    },
  })
  while (!done) {
    const step = await reader.read()
    if (step.done) break
    firstMs ??= performance.now() - started
    parser.feed(decoder.decode(step.value, { stream: true }))
  }
  const ms = performance.now() - started
  await reader.cancel().catch(() => undefined)
  return { ms, events, chars, ...(firstMs !== undefined ? { firstMs } : {}) }
}
