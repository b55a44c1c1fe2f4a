/**
 * Reads a fetch body with `getReader()` (DESIGN.md: the worker reads the body itself; no
 * ReadableStream crosses a thread). The bytes are passed on as they arrive: the consumer
 * decodes them (sse-byte-scanner.ts decodes only what it does not read as bytes).
 */

/** How reading ended: the body closed, the consumer asked to stop, or the signal aborted. */
export type ReadByteOutcome = 'ended' | 'stopped' | 'aborted'

/**
 * Feeds `body` to `onBytes` piece by piece until it ends, `onBytes` returns `true` (stop), or
 * `signal` aborts. Cancels the body when stopping early so the connection is released.
 * Rejects only when the underlying read fails (e.g. the connection dropped).
 */
export async function readByteStream(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  onBytes: (bytes: Uint8Array) => boolean | void,
): Promise<ReadByteOutcome> {
  const reader = body.getReader()
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
      if (result.done) return 'ended'
      if (onBytes(result.value) === true) {
        reader.cancel().catch(() => undefined)
        return 'stopped'
      }
    }
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}
