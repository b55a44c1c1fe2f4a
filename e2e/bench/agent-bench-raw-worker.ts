// The agent bench's second baseline: the same raw read (fetch + getReader + TextDecoder +
// eventsource-parser until [DONE]) inside a worker, where the agent's engine makes its requests.
import { createParser } from 'eventsource-parser'

self.onmessage = async (event: MessageEvent<{ url: string }>) => {
  const started = performance.now()
  const response = await fetch(event.data.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify({ model: 'mock-model', stream: true, messages: [{ role: 'user', content: 'go' }] }),
  })
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let chars = 0
  let done = false
  const parser = createParser({
    onEvent: (e) => {
      if (e.data === '[DONE]') done = true
      else chars += e.data.length
    },
  })
  while (!done) {
    const step = await reader.read()
    if (step.done) break
    parser.feed(decoder.decode(step.value, { stream: true }))
  }
  await reader.cancel().catch(() => {})
  // Timed in the worker, plus the answer's trip to the page (as the agent's lines make it).
  self.postMessage({ ms: performance.now() - started, chars })
}
