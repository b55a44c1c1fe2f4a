// Summaries the bench modules share. Medians and percentiles, not means: one GC pause or one
// scheduling hiccup on a 2-core machine should not move a reported number.

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** Nearest-rank percentile (p in 0..100): a value that was actually measured, never interpolated. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)))
  return sorted[rank - 1]
}

export const ms = (value) => (value === null || value === undefined ? 'n/a' : `${value.toFixed(value < 10 ? 2 : 1)} ms`)
export const times = (value) => (value === null || value === undefined ? 'n/a' : `${value.toFixed(2)}×`)
export const verdict = (ok) => (ok === null || ok === undefined ? '' : ok ? 'OK' : 'MISS')
export const pad = (text, width) => String(text).padEnd(width)
