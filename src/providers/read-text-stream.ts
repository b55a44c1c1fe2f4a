/**
 * Reads a fetch body as text with `getReader()` (DESIGN.md: the worker reads the body itself;
 * no ReadableStream crosses a thread). Decodes UTF-8 with `stream: true` so a character split
 * across two network chunks is not turned into two replacement characters.
 */

/** How reading ended: the body closed, the consumer asked to stop, or the signal aborted. */
export type ReadTextOutcome = 'ended' | 'stopped' | 'aborted'

/**
 * Feeds `body` to `onText` piece by piece until it ends, `onText` returns `true` (stop), or
 * `signal` aborts. Cancels the body when stopping early so the connection is released.
 * Rejects only when the underlying read fails (e.g. the connection dropped).
 */
export async function readTextStream(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  onText: (text: string) => boolean | void,
): Promise<ReadTextOutcome> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  // A pending read() does not notice the signal on every platform (a test stream, or a body
  // not tied to the fetch), so cancelling the reader is what unblocks it.
  const onAbort = (): void => {
    reader.cancel().catch(() => undefined)
  }
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    while (true) {
      if (signal.aborted) return 'aborted'
      let result: ReadableStreamReadResult<Uint8Array>
      try {
        result = await reader.read()
      } catch (error) {
        if (signal.aborted) return 'aborted'
        throw error
      }
      if (signal.aborted) return 'aborted'
      if (result.done) {
        const rest = decoder.decode()
        if (rest !== '') onText(rest)
        return 'ended'
      }
      if (onText(decoder.decode(result.value, { stream: true })) === true) {
        reader.cancel().catch(() => undefined)
        return 'stopped'
      }
    }
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}
