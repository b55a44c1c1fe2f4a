/**
 * Most events of a streamed reply are one small text delta in one fixed shape, and JSON.parse of
 * each was most of the stream's cost (250,000 events for 1 MB in 4-character deltas). This
 * recognises exactly that shape — scalar envelope fields, one choice at index 0, a delta with
 * only `content` (and maybe `role: assistant`), no finish reason, no usage, no error — and reads
 * the content without building objects. Anything else returns undefined and takes the full parse.
 */

// The content group admits only what a JSON string literal may hold: no raw control character
// (a raw tab would match `[^"\\]` but fail JSON.parse, so it must take the full path and its
// malformed-stream error).
const TEXT_DELTA =
  /^\{(?:"(?:id|object|created|model|system_fingerprint|provider|service_tier)":(?:"[^"\\]*"|-?\d+|null),)*"choices":\[\{"index":0,"delta":\{(?:"role":"assistant",)?"content":"((?:[^"\\\u0000-\u001f]|\\.)*)"\}(?:,"logprobs":null)?,"finish_reason":null(?:,"logprobs":null)?\}\]\}$/

/** The delta's text when `data` is a plain text-delta chunk, else undefined. */
export function plainTextDelta(data: string): string | undefined {
  const match = TEXT_DELTA.exec(data)
  if (match === null) return undefined
  const raw = match[1]!
  if (!raw.includes('\\')) return raw
  // Escapes are rare in small deltas; JSON.parse of the string literal alone decodes them. An
  // escape JSON does not have (`\q`) used to throw out of the SSE parser, and the stream was
  // then reported as a dropped connection: now it takes the full path, which says malformed.
  try {
    return JSON.parse(`"${raw}"`) as string
  } catch {
    return undefined
  }
}
