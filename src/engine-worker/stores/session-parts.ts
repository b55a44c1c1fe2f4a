/**
 * A session's bytes are stored in parts (records of up to PART_BYTES), so a commit writes only
 * the parts that changed. The engine commits the whole conversation every time (4 MB for 1,000
 * turns), but between two commits little moves: a rename changes the header, a tool step adds a
 * message at the end. Writing all of it again was most of a commit (IndexedDB serializes a
 * value inside put(), about 10-20 ms for 4 MB, and then writes it).
 *
 * `planParts` compares the new bytes with the last ones this store wrote: the parts wholly inside
 * the common prefix and the common suffix are kept (a suffix part keeps its record although its
 * offset moved), and only the range between them is written, as new parts.
 */

/** One stored part: its record's number and how many bytes it holds. */
export type Part = { key: number; length: number }

/** What a commit writes: the parts in order, the new records (ranges of the new bytes), the records it drops. */
export type PartsPlan = {
  parts: Part[]
  writes: Array<{ key: number; from: number; to: number }>
  removes: number[]
  nextKey: number
}

/** 128 KiB: a rename rewrites one part; a 4 MB session loads in about 32 records. */
export const PART_BYTES = 128 * 1024

/**
 * The parts for `bytes`. `previous` is what the store last wrote for this session (its bytes and
 * parts), when it still holds them; without it every part is written.
 */
export function planParts(bytes: Uint8Array, previous: { bytes: Uint8Array; parts: readonly Part[] } | null, nextKey: number, partBytes = PART_BYTES): PartsPlan {
  const old = previous && sum(previous.parts) === previous.bytes.byteLength ? previous : null
  if (old === null || tooFragmented(old.parts.length, bytes.byteLength, partBytes)) {
    const plan = split(0, bytes.byteLength, nextKey, partBytes)
    return { ...plan, removes: previous ? previous.parts.map((p) => p.key) : [] }
  }
  const oldLength = old.bytes.byteLength
  const prefix = commonPrefix(old.bytes, bytes)
  const suffix = commonSuffix(old.bytes, bytes, Math.min(oldLength, bytes.byteLength) - prefix)

  // Parts wholly in the unchanged head, then wholly in the unchanged tail.
  const head: Part[] = []
  let headEnd = 0
  for (const part of old.parts) {
    if (headEnd + part.length > prefix || part.length === 0) break
    head.push(part)
    headEnd += part.length
  }
  const tail: Part[] = []
  let tailStart = oldLength
  for (let i = old.parts.length - 1; i >= head.length; i--) {
    const part = old.parts[i]!
    if (tailStart - part.length < oldLength - suffix || part.length === 0) break
    tail.unshift(part)
    tailStart -= part.length
  }
  const middle = split(headEnd, bytes.byteLength - (oldLength - tailStart), nextKey, partBytes)
  const kept = new Set([...head, ...tail].map((p) => p.key))
  return {
    parts: [...head, ...middle.parts, ...tail],
    writes: middle.writes,
    removes: old.parts.filter((p) => !kept.has(p.key)).map((p) => p.key),
    nextKey: middle.nextKey,
  }
}

/** The bytes of `parts` (in order) as one array; null when one is missing or not its length. */
export function joinParts(parts: readonly Part[], records: ReadonlyMap<number, unknown>): Uint8Array | null {
  const out = new Uint8Array(sum(parts))
  let at = 0
  for (const part of parts) {
    const bytes = records.get(part.key)
    if (!(bytes instanceof Uint8Array) || bytes.byteLength !== part.length) return null
    out.set(bytes, at)
    at += part.length
  }
  return out
}

/** True for a list of parts the store wrote: whole numbers, each with a length. */
export function isPartList(value: unknown): value is Part[] {
  return Array.isArray(value) && value.every((p: Partial<Part> | null) => typeof p === 'object' && p !== null && Number.isInteger(p.key) && Number.isInteger(p.length) && p.length! >= 0)
}

/** `[from, to)` as new parts of at most `partBytes`. */
function split(from: number, to: number, nextKey: number, partBytes: number): Omit<PartsPlan, 'removes'> {
  const parts: Part[] = []
  const writes: PartsPlan['writes'] = []
  // Even pieces: 130 KiB becomes two of 65, not 128 and 2 (a sliver that would be rewritten again).
  const count = Math.ceil((to - from) / partBytes)
  for (let i = 0; i < count; i++) {
    const start = from + Math.floor(((to - from) * i) / count)
    const end = from + Math.floor(((to - from) * (i + 1)) / count)
    parts.push({ key: nextKey, length: end - start })
    writes.push({ key: nextKey, from: start, to: end })
    nextKey++
  }
  return { parts, writes, nextKey }
}

/** Edits leave small parts behind; past twice the parts a fresh split needs, write it whole again. */
function tooFragmented(parts: number, length: number, partBytes: number): boolean {
  return parts > 2 * Math.ceil(length / partBytes) + 4
}

function sum(parts: readonly Part[]): number {
  let total = 0
  for (const part of parts) total += part.length
  return total
}

/** How many leading bytes `a` and `b` share (4 at a time where both views are aligned). */
export function commonPrefix(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.byteLength, b.byteLength)
  let i = 0
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const wa = new Int32Array(a.buffer, a.byteOffset, n >>> 2)
    const wb = new Int32Array(b.buffer, b.byteOffset, n >>> 2)
    let w = 0
    while (w < wa.length && wa[w] === wb[w]) w++
    i = w * 4
  }
  while (i < n && a[i] === b[i]) i++
  return i
}

/**
 * How many trailing bytes `a` and `b` share, at most `limit`, compared 4 at a time. A rename
 * moves the tail by any number of bytes, so the two ends rarely sit alike in their words; then each
 * of `b`'s words is put together from the two aligned words it straddles (shifts, no copy: a
 * fresh 4 MB copy to line them up cost ~5 ms of page faults, and unaligned DataView reads 8-16 ms).
 */
export function commonSuffix(a: Uint8Array, b: Uint8Array, limit: number): number {
  let ai = a.byteLength
  let bi = b.byteLength
  let n = 0
  const step = (count: number): boolean => {
    for (let k = 0; k < count && n < limit; k++) {
      if (a[ai - 1] !== b[bi - 1]) return false
      ai--
      bi--
      n++
    }
    return n < limit
  }
  // Byte by byte until a's end sits on a word boundary.
  if (!step((a.byteOffset + ai) & 3)) return n
  const shift = (b.byteOffset + bi) & 3
  // The aligned word holding b's last bytes must lie inside its buffer; where it does not, those 4 go one by one.
  if (shift !== 0 && (((b.byteOffset + bi) >>> 2) + 1) * 4 > b.buffer.byteLength && !step(4)) return n
  const words = (limit - n) >>> 2
  const wa = new Int32Array(a.buffer, a.byteOffset + ai - words * 4, words)
  const bStart = b.byteOffset + bi - words * 4
  let w = words - 1
  if (shift === 0) {
    const wb = new Int32Array(b.buffer, bStart, words)
    while (w >= 0 && wa[w] === wb[w]) w--
  } else {
    // Word w of b's range starts `shift` bytes into aligned word w of `wb` (little-endian).
    const wb = new Int32Array(b.buffer, bStart - shift, words + 1)
    const low = shift * 8
    const high = 32 - low
    while (w >= 0 && wa[w] === ((wb[w]! >>> low) | (wb[w + 1]! << high))) w--
  }
  const same = (words - 1 - w) * 4
  ai -= same
  bi -= same
  n += same
  step(limit - n)
  return n
}
