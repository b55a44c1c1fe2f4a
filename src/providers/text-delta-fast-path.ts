/**
 * Most events of a streamed reply are one small text delta in one fixed shape, and JSON.parse of
 * each was most of the stream's cost (250,000 events for 1 MB in 4-character deltas). This
 * recognises exactly that shape — scalar envelope fields, one choice at index 0, a delta with
 * only `content` (and maybe `role: assistant`), no finish reason, no usage, no error — and reads
 * the content without building objects. Anything else returns undefined and takes the full parse.
 */

// The content group admits what a JSON string literal may hold: no raw control character, no
// lone backslash (a raw tab would pass here but fail JSON.parse, so it must take the full path).
const TEXT_DELTA =
  /^\{(?:"(?:id|object|created|model|system_fingerprint|provider|service_tier)":(?:"[^"\\]*"|-?\d+|null),)*"choices":\[\{"index":0,"delta":\{(?:"role":"assistant",)?"content":"((?:[^"\\\u0000-\u001f]|\\.)*)"\}(?:,"logprobs":null)?,"finish_reason":null(?:,"logprobs":null)?\}\]\}$/d

/** A plain text-delta payload cut around its content: `prefix + JSON string body + suffix`. */
export type TextDeltaShape = { prefix: string; suffix: string; text: string }

/** The payload's shape and text when `data` is a plain text-delta chunk, else undefined. */
export function textDeltaShape(data: string): TextDeltaShape | undefined {
  const match = TEXT_DELTA.exec(data)
  if (match === null) return undefined
  const [start, end] = match.indices![1]!
  const text = decodeJsonStringBody(match[1]!)
  if (text === undefined) return undefined
  return { prefix: data.slice(0, start), suffix: data.slice(end), text }
}

/** The delta's text when `data` is a plain text-delta chunk, else undefined. */
export function plainTextDelta(data: string): string | undefined {
  return textDeltaShape(data)?.text
}

/**
 * The text of a JSON string literal's body (between the quotes), or undefined when it is not
 * valid JSON (an unknown escape, a raw control character): the full path then reports it.
 */
export function decodeJsonStringBody(raw: string): string | undefined {
  // Escapes are rare in small deltas; JSON.parse of the literal alone decodes them.
  if (!raw.includes('\\')) return hasControl(raw) ? undefined : raw
  try {
    return JSON.parse(`"${raw}"`) as string
  } catch {
    return undefined
  }
}

function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) < 0x20) return true
  return false
}
