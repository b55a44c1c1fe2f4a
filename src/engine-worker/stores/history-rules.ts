/**
 * The limits both prompt history stores (IndexedDB and memory) apply, kept in one place so the
 * two answer `append` identically.
 */

/** Options of the prompt history stores. */
export type HistoryLimits = {
  /** Entries kept per workspace root; the oldest go first. Default 1000. */
  maxEntries?: number
  /** A prompt above this many bytes of UTF-8 is declined with 'record_too_large'. Default 64 KiB. */
  maxRecordBytes?: number
}

/** The limits with defaults filled in, or a TypeError naming the bad one. */
export function resolveHistoryLimits(limits: HistoryLimits): Required<HistoryLimits> {
  const maxEntries = limits.maxEntries ?? 1000
  const maxRecordBytes = limits.maxRecordBytes ?? 64 * 1024
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw new TypeError(`maxEntries must be a positive integer, not ${maxEntries}`)
  }
  if (!Number.isSafeInteger(maxRecordBytes) || maxRecordBytes < 0) {
    throw new TypeError(`maxRecordBytes must be a non-negative integer, not ${maxRecordBytes}`)
  }
  return { maxEntries, maxRecordBytes }
}

/** True when `value` takes more than `maxBytes` bytes of UTF-8. */
export function exceedsUtf8Bytes(value: string, maxBytes: number): boolean {
  // A UTF-16 unit takes 1 to 3 bytes, so most answers need no encoding (a paste can be megabytes).
  if (value.length > maxBytes) return true
  if (value.length * 3 <= maxBytes) return false
  return new TextEncoder().encode(value).length > maxBytes
}

/** How many entries `load(root, limit)` returns at most: none for 0, negative or NaN. */
export function loadCount(limit: number): number {
  const count = Math.floor(limit)
  return count > 0 ? count : 0
}

/** Checks the arguments every history call takes, so a bad caller fails loudly, not silently. */
export function checkRoot(workspaceRoot: unknown): asserts workspaceRoot is string {
  if (typeof workspaceRoot !== 'string') throw new TypeError('workspaceRoot must be a string')
}
