/**
 * Revisions: a new one after every write. A counter alone would repeat after a record is removed
 * and created again (a tab holding the old revision 1 would then overwrite the new record 1), so
 * each revision also carries a random suffix: `3-9f2c41d07be6a815`.
 */

/** The revision written after a record whose counter was `previousSeq` (none for a new record). */
export function nextRevision(previousSeq: number | undefined): { seq: number; revision: string } {
  const seq = (previousSeq ?? 0) + 1
  const random = crypto.getRandomValues(new Uint8Array(8))
  const suffix = Array.from(random, (byte) => byte.toString(16).padStart(2, '0')).join('')
  return { seq, revision: `${seq}-${suffix}` }
}

/**
 * A copy of exactly the bytes `bytes` views. Storing the view itself would keep (and structured
 * clone would store) its whole underlying buffer, and a caller that reuses the buffer would
 * change what is stored.
 */
export function copyBytes(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('store bytes must be a Uint8Array')
  return bytes.slice()
}
