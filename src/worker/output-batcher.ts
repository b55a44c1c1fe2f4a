/**
 * Coalesces terminal writes so the worker posts at most one message per animation frame
 * (~16 ms). The first write after a quiet period goes out on the next microtask, so a keystroke's
 * echo is not delayed; writes during a burst (a streaming reply) are joined into one post.
 */
export type OutputBatcher = { push(bytes: Uint8Array): void; flush(): void }

const FRAME_MS = 16

export function createOutputBatcher(
  post: (bytes: Uint8Array) => void,
  clock: { now(): number; setTimeout(fn: () => void, ms: number): unknown } = {
    now: () => performance.now(),
    setTimeout: (fn, ms) => setTimeout(fn, ms),
  },
): OutputBatcher {
  let chunks: Uint8Array[] = []
  let size = 0
  let scheduled = false
  let lastPost = -Infinity

  const flush = () => {
    scheduled = false
    if (size === 0) return
    const joined = chunks.length === 1 ? chunks[0]! : concat(chunks, size)
    chunks = []
    size = 0
    lastPost = clock.now()
    post(joined)
  }

  return {
    push(bytes) {
      if (bytes.length === 0) return
      chunks.push(bytes)
      size += bytes.length
      if (scheduled) return
      scheduled = true
      const wait = lastPost + FRAME_MS - clock.now()
      if (wait <= 0) queueMicrotask(flush)
      else clock.setTimeout(flush, wait)
    },
    flush,
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
