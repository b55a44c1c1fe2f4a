/**
 * Caps command output to a byte budget of UTF-8, the way the model is shown it: cut on character
 * boundaries (never a U+FFFD from half a character) and followed by a notice that says how much
 * was cut. Pure, so it runs in Node tests, the bash worker and the main thread alike.
 */

const encoder = new TextEncoder()

/** The number of bytes `text` takes as UTF-8, counted without encoding it (outputs can be huge). */
export function utf8ByteLength(text: string): number {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit < 0x80) bytes += 1
    else if (unit < 0x800) bytes += 2
    else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4
      i++
    } else bytes += 3 // includes lone surrogates, which TextEncoder writes as U+FFFD (3 bytes)
  }
  return bytes
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff
}

/** The longest prefix of `text` whose UTF-8 fits in `maxBytes`, never splitting a character. */
export function cutUtf8(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return ''
  // encodeInto only writes whole characters, and `read` says how many UTF-16 units they came from.
  const buffer = new Uint8Array(Math.min(maxBytes, text.length * 3))
  const { read } = encoder.encodeInto(text, buffer)
  return text.slice(0, read)
}

/** `1234567` → `"1,234,567"`, independent of the runtime's locale data. */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

/** The notice line (without its newline) appended when output was cut: shown of total bytes. */
export function truncationNotice(shownBytes: number, totalBytes: number): string {
  return `[output truncated: ${formatCount(shownBytes)} of ${formatCount(totalBytes)} bytes shown]`
}

/** Appends `line` and a newline to `text`, first ending an unterminated last line. */
export function appendLine(text: string, line: string): string {
  const separator = text === '' || text.endsWith('\n') ? '' : '\n'
  return `${text}${separator}${line}\n`
}

export type TruncatedOutput = { stdout: string; stderr: string; cutBytes: number }

/**
 * Limits stdout and stderr together to `limitBytes` of UTF-8, notice included. When it has to
 * cut, the budget is split fairly: each stream gets up to half, and a stream that needs less
 * than its half leaves the rest to the other (so an error is not drowned by a flood of stdout,
 * nor a short stdout by noisy stderr). The notice goes at the end of stderr.
 */
export function truncateOutput(
  output: { stdout: string; stderr: string },
  limitBytes: number,
): TruncatedOutput {
  const outBytes = utf8ByteLength(output.stdout)
  const errBytes = utf8ByteLength(output.stderr)
  const total = outBytes + errBytes
  const limit = Math.max(0, Math.floor(limitBytes))
  if (total <= limit) return { stdout: output.stdout, stderr: output.stderr, cutBytes: 0 }

  // The notice is sized with the largest numbers it could show, so the real one always fits;
  // +2 for the newline that may end stderr's cut last line and the notice's own newline.
  const reserve = utf8ByteLength(truncationNotice(limit, total)) + 2
  const budget = Math.max(0, limit - reserve)
  const stderrShare = Math.min(errBytes, Math.floor(budget / 2))
  const stdout = cutUtf8(output.stdout, budget - stderrShare)
  const stdoutShown = utf8ByteLength(stdout)
  // stderr gets whatever stdout left, which is more than its half when stdout was short.
  const stderr = cutUtf8(output.stderr, budget - stdoutShown)
  const shown = stdoutShown + utf8ByteLength(stderr)
  const cutBytes = total - shown
  return { stdout, stderr: appendLine(stderr, truncationNotice(shown, total)), cutBytes }
}
