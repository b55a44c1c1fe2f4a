/**
 * Buffers for session snapshots, recycled within one thread: the static page's engine worker both
 * copies each snapshot out of wasm memory and, serving the session store, lets the one before it
 * go once the next is stored. A fresh 4 MB buffer per commit cost 4-7 ms of page faults (more on
 * a busy machine); copying into memory already touched takes ~1 ms.
 *
 * Off until the thread that serves the store turns it on (`recycleSnapshotBuffers`): elsewhere
 * nothing would give buffers back, and an engine alone would only pay for the room to grow.
 */

/** Smaller snapshots are copied as they are: their page faults cost next to nothing. */
const MIN_BYTES = 256 * 1024
/** Two are enough: a commit's buffer and the one the store compared it with take turns. */
const MAX_SPARES = 2

let spares: ArrayBuffer[] | null = null

/** Turns recycling on for this thread (off: tests). */
export function recycleSnapshotBuffers(on = true): void {
  spares = on ? (spares ?? []) : null
}

/**
 * `bytes` copied into a spare buffer of this thread, or into a new one with room for the session
 * to grow by a few turns. The view starts at 0 but may end before its buffer does.
 */
export function copyIntoSpare(bytes: Uint8Array): Uint8Array {
  const size = bytes.byteLength
  if (spares === null || size < MIN_BYTES) return bytes.slice()
  // Not one much larger than needed: after /new it would hold megabytes for a small session.
  const at = spares.findIndex((buffer) => buffer.byteLength >= size && buffer.byteLength <= 2 * size)
  const buffer = at >= 0 ? spares.splice(at, 1)[0]! : new ArrayBuffer(size + (size >>> 3))
  const copy = new Uint8Array(buffer, 0, size)
  copy.set(bytes)
  return copy
}

/**
 * Makes the spares for snapshots of about `size` bytes now (while idle: after a resume), their
 * pages written once so that the first commits copy into memory already touched.
 */
export function reserveSpares(size: number): void {
  if (spares === null || size < MIN_BYTES) return
  while (spares.length < MAX_SPARES) {
    const buffer = new ArrayBuffer(size + (size >>> 3))
    new Uint8Array(buffer).fill(0)
    spares.push(buffer)
  }
}

/** Gives `bytes`' buffer back for a later copy: nothing may read or change it afterwards. */
export function letGoOf(bytes: Uint8Array): void {
  const buffer = bytes.buffer
  if (spares === null || !(buffer instanceof ArrayBuffer) || buffer.byteLength < MIN_BYTES || spares.includes(buffer)) return
  spares.push(buffer)
  if (spares.length > MAX_SPARES) spares.shift()
}

/**
 * Whether `bytes` may move to another thread with its whole buffer: it starts the buffer and the
 * rest is only room to grow (a spare's), not a large buffer shared with other data (wasm memory).
 */
export function movesWithItsBuffer(bytes: Uint8Array): boolean {
  return bytes.byteOffset === 0 && bytes.buffer instanceof ArrayBuffer && bytes.buffer.byteLength <= 2 * bytes.byteLength
}
