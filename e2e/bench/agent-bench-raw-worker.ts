// The agent bench's second baseline: the same raw read (raw-sse-read.ts) inside a worker, where
// the agent's engine makes its requests.
import { readRawSse } from './raw-sse-read.ts'

self.onmessage = async (event: MessageEvent<{ url: string }>) => {
  const { ms, chars } = await readRawSse(event.data.url)
  // Timed in the worker, plus the answer's trip to the page (as the agent's lines make it).
  self.postMessage({ ms, chars })
}
