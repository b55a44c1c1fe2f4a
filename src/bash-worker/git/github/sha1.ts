/**
 * Bash worker side: SHA-1, synchronously (sha.js, which isomorphic-git itself uses). Rebuilding
 * a commit from GitHub's JSON may hash thousands of candidate texts (one per pair of time
 * zones); a crypto.subtle promise per hash made the worst case take seconds. Used only to
 * compare with ids GitHub gave, never for security.
 */
import shajs from 'sha.js'

/** The SHA-1 of `bytes` as 40 hex digits. */
export function sha1Hex(bytes: Uint8Array): string {
  return shajs('sha1').update(bytes).digest('hex')
}
