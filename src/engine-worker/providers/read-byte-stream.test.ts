import { describe, expect, test } from 'vitest'
import { readByteStream } from './read-byte-stream.ts'
import { streamOf as plainStream } from '../../../test/support/providers.ts'

/** A byte stream (as a browser's fetch body is) with these chunks. */
function byteStream(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0
  return new ReadableStream({
    type: 'bytes',
    pull(controller) {
      const chunk = chunks[next++]
      if (chunk !== undefined) return controller.enqueue(chunk as Uint8Array<ArrayBuffer>)
      controller.close()
      // A read waiting with its buffer ends only once that buffer is given back, empty.
      controller.byobRequest?.respond(0)
    },
  }) as ReadableStream<Uint8Array>
}

const chunks = () => [Uint8Array.of(1, 2, 3), Uint8Array.of(4), new Uint8Array(3000).fill(7), Uint8Array.of(8, 9)]
const joined = (parts: Uint8Array[]) => parts.flatMap((part) => Array.from(part))

describe('reading a body as bytes', () => {
  test.each([
    ['a byte stream (read into one buffer)', byteStream],
    ['a default stream', plainStream],
  ])('%s gives every byte in order', async (_name, make) => {
    const seen: Uint8Array[] = []
    // Copied: a piece is only valid during its call.
    const outcome = await readByteStream(make(chunks()), new AbortController().signal, (bytes) => void seen.push(bytes.slice()))
    expect(outcome).toBe('ended')
    expect(joined(seen)).toEqual(joined(chunks()))
  })

  test.each([
    ['a byte stream', byteStream],
    ['a default stream', plainStream],
  ])('%s stops when the consumer says so, and after an abort', async (_name, make) => {
    const seen: number[] = []
    expect(await readByteStream(make(chunks()), new AbortController().signal, (bytes) => (seen.push(bytes.length), true))).toBe('stopped')
    expect(seen).toEqual([3])
    const controller = new AbortController()
    expect(await readByteStream(make(chunks()), controller.signal, () => controller.abort())).toBe('aborted')
  })
})
