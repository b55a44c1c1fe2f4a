/**
 * Where the SSE event starting at `at` ends: after the first empty line (a line terminator right
 * after another, or at `at` itself). Lines end with CRLF, LF or CR (the SSE spec allows all
 * three, mixed). Returns -1 when `buf` stops first, or when it ends with a CR whose LF may come
 * in the next piece — the caller then waits for more text.
 *
 * Used to hand the SSE parser exactly one whole event at a time, so that between two events it
 * holds no partial line and the fast lane (sse-text-scan.ts) can take the next one. Linear: the
 * next CR and LF are each searched for again only once passed.
 */
export function sseEventEnd(buf: string, at: number): number {
  let lf = buf.indexOf('\n', at)
  let cr = buf.indexOf('\r', at)
  let lineStart = at
  for (;;) {
    if (lf < 0 && cr < 0) return -1
    const crFirst = cr >= 0 && (lf < 0 || cr < lf)
    const terminator = crFirst ? cr : lf
    let next = terminator + 1
    if (crFirst) {
      if (next >= buf.length) return -1
      if (buf.charCodeAt(next) === 0x0a) next++
    }
    if (terminator === lineStart) return next
    lineStart = next
    if (lf >= 0 && lf < next) lf = buf.indexOf('\n', next)
    if (cr >= 0 && cr < next) cr = buf.indexOf('\r', next)
  }
}
