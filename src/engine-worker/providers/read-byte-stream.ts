/**
 * Reads a fetch body with `getReader()` (docs/ARCHITECTURE.md: the worker reads the body itself; no
 * ReadableStream crosses a thread). The bytes are passed on as they arrive: the consumer
 * decodes them (sse-byte-scanner.ts decodes only what it does not read as bytes).
 *
 * A body that is a byte stream (a fetch body in browsers) is read into one buffer again and
 * again (a BYOB reader): a megabyte reply in small deltas is ~45 MB, and a new buffer per read
 * was measured at ~20% of the worker's reading time, and garbage for its collector on top.
 */

/** The buffer a BYOB read fills: about what a default reader returns per read at full speed. */
const READ_BYTES = 1024 * 1024

/** How reading ended: the body closed, the consumer asked to stop, or the signal aborted. */
export type ReadByteOutcome = 'ended' | 'stopped' | 'aborted'

/**
 * Feeds `body` to `onBytes` piece by piece until it ends, `onBytes` returns `true` (stop), or
 * `signal` aborts. Cancels the body when stopping early so the connection is released.
 * Rejects only when the underlying read fails (e.g. the connection dropped). A piece is only
 * valid during its `onBytes` call: its buffer is read into again.
 */
export async function readByteStream(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  onBytes: (bytes: Uint8Array) => boolean | void,
): Promise<ReadByteOutcome> {
  const reader = byobReader(body)
  let buffer = new Uint8Array(reader === undefined ? 0 : READ_BYTES)
  const plain = reader === undefined ? body.getReader() : undefined
  const read = async (): Promise<ReadableStreamReadResult<Uint8Array>> => {
    if (plain !== undefined) return plain.read()
    const result = await reader!.read(buffer)
    // The filled view's buffer is the one passed in, moved (transferred): the next read reuses it.
    if (result.value !== undefined) buffer = new Uint8Array(result.value.buffer)
    return result as ReadableStreamReadResult<Uint8Array>
  }
  const cancel = (): void => {
    ;(plain ?? reader!).cancel().catch(() => undefined)
  }
  // A pending read() does not notice the signal on every platform (a test stream, or a body
  // not tied to the fetch), so cancelling the reader is what unblocks it.
  const onAbort = cancel
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    while (true) {
      if (signal.aborted) return 'aborted'
      let result: ReadableStreamReadResult<Uint8Array>
      try {
        result = await read()
      } catch (error) {
        if (signal.aborted) return 'aborted'
        throw error
      }
      if (signal.aborted) return 'aborted'
      if (result.done) return 'ended'
      if (onBytes(result.value) === true) {
        cancel()
        return 'stopped'
      }
    }
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}

/** A BYOB reader when `body` is a byte stream, else undefined (a default reader reads it). */
function byobReader(body: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | undefined {
  try {
    return body.getReader({ mode: 'byob' })
  } catch {
    return undefined
  }
}
