/**
 * Coalesces terminal writes so the worker posts at most one message per animation frame
 * (~16 ms). The first write after a quiet period goes out on the next microtask, so a keystroke's
 * echo is not delayed; writes during a burst (a streaming reply) are joined into one post.
 */
import { createFramePacer, realClock, type FrameClock } from './frame-pacer.ts'

export type OutputBatcher = { push(bytes: Uint8Array): void; flush(): void }

export function createOutputBatcher(post: (bytes: Uint8Array) => void, clock: FrameClock = realClock): OutputBatcher {
  let chunks: Uint8Array[] = []
  let size = 0

  const pacer = createFramePacer(() => {
    if (size === 0) return false
    const joined = chunks.length === 1 ? chunks[0]! : concat(chunks, size)
    chunks = []
    size = 0
    post(joined)
    return true
  }, clock)

  return {
    push(bytes) {
      if (bytes.length === 0) return
      chunks.push(bytes)
      size += bytes.length
      pacer.request()
    },
    flush: pacer.flushNow,
  }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size)
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.length
  }
  return out
}
