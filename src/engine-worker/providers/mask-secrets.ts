/**
 * Masking for anything a model server says back to us. Servers sometimes echo the request's
 * Authorization header or the key itself in an error body ("invalid key sk-..."), and those
 * messages end up on screen and in saved sessions, so every server-provided text passes here.
 */

const MASK = '***'

/** Shapes that look like credentials even when they are not our key (e.g. a proxy's token). */
const CREDENTIAL_PATTERNS: RegExp[] = [
  /\bBearer\s+[^\s"',;]+/gi,
  /\bsk-[A-Za-z0-9_-]{6,}/g,
  /\bvck_[A-Za-z0-9_-]{6,}/g,
]

/**
 * Returns `text` with `secret` (when given) and anything that looks like a bearer token or an
 * `sk-`/`vck_` style key replaced by `***`.
 */
export function maskSecrets(text: string, secret?: string): string {
  let masked = text
  // Very short "keys" (a test value like "x") would mask ordinary letters; real keys are long.
  if (secret !== undefined && secret.length >= 4) masked = masked.split(secret).join(MASK)
  for (const pattern of CREDENTIAL_PATTERNS) {
    masked = masked.replace(pattern, (match) => (match.toLowerCase().startsWith('bearer') ? `Bearer ${MASK}` : MASK))
  }
  return masked
}

/**
 * Masks, collapses whitespace (a message must stay on one line) and cuts `text` to at most
 * `max` characters, marking a cut with an ellipsis.
 */
export function quoteForMessage(text: string, max: number, secret?: string): string {
  const oneLine = maskSecrets(text, secret).replace(/\s+/g, ' ').trim()
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`
}
