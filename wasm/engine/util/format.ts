// Numbers as the activity and status rows show them.

/** Elapsed time as the activity row shows it: 5s, 18m0s, 1h1m3s. */
export function formatElapsed(seconds: i64): string {
  if (seconds < 60) return seconds.toString() + 's'
  if (seconds < 3600) return (seconds / 60).toString() + 'm' + (seconds % 60).toString() + 's'
  return (seconds / 3600).toString() + 'h' + ((seconds % 3600) / 60).toString() + 'm' + (seconds % 60).toString() + 's'
}

/** Token counts: 456, 1.2k, 3.4M. */
export function formatCount(n: f64): string {
  if (n < 1000) return (<i64>n).toString()
  const scaled = n < 1e6 ? n / 1000 : n / 1e6
  const unit = n < 1e6 ? 'k' : 'M'
  const tenths = <i64>Math.round(scaled * 10)
  return (tenths / 10).toString() + (tenths % 10 != 0 ? '.' + (tenths % 10).toString() : '') + unit
}

/** `text` ending as a sentence does: a full stop added unless it already ends in one. */
export function sentence(text: string): string {
  const t = text.trimEnd()
  if (t.length == 0) return t
  const last = t.charCodeAt(t.length - 1)
  return last == 0x2e || last == 0x21 || last == 0x3f ? t : t + '.'
}
