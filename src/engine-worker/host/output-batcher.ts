/**
 * Coalesces terminal writes so the worker posts at most one message per animation frame
 * (~16 ms). The first write after a quiet period goes out on the next microtask, so a keystroke's
 * echo is not delayed; writes during a burst (a streaming reply) are joined into one post.
 *
 * A flood (a post of FLOOD_BYTES or more: a fast model pouring out text, far more than a screen
 * per frame) is posted every FLOOD_MS instead. xterm.js redraws the whole viewport on every
 * frame in which it parsed something, and with a flood those redraws, not the parsing, took most
 * of the page's main thread (a 1 MB reply: ~395 → ~290 ms of it). Three frames of scrolling text
 * at once are not visibly different from one.
 */
import { createFramePacer, FRAME_MS, realClock, type FrameClock } from './frame-pacer.ts'
import { concatBytes } from '../../shared/protocol/bytes.ts'

const FLOOD_BYTES = 16 * 1024
const FLOOD_MS = 48

export type OutputBatcher = { push(bytes: Uint8Array): void; flush(): void }

export function createOutputBatcher(post: (bytes: Uint8Array) => void, clock: FrameClock = realClock): OutputBatcher {
  let chunks: Uint8Array[] = []
  let size = 0
  let lastPost = 0

  const pacer = createFramePacer(
    () => {
      if (size === 0) return false
      const joined = chunks.length === 1 ? chunks[0]! : concatBytes(chunks)
      chunks = []
      size = 0
      lastPost = joined.length
      post(joined)
      return true
    },
    clock,
    () => (lastPost >= FLOOD_BYTES ? FLOOD_MS : FRAME_MS),
  )

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
