// Lines that carry a secret are refused before they are kept anywhere: not in the prompt history
// (the host's store), not in the conversation (so not in a session or an /export), not drawn.
// Two kinds: `/key` with anything but a provider name or `clear` (the key typed in the open),
// and a known key shape anywhere in a line. A person saves a key with /key <provider>, where it
// is typed at a masked prompt the host reads itself.

import { Providers } from '../agent/catalog'

/** A key's tail after its prefix is at least this long and has a digit (so `sk-learn-the-basics` is prose). */
const MIN_TAIL: i32 = 20
/** Google's keys are `AIza` and 35 more characters. */
const MIN_GOOGLE_TAIL: i32 = 30
/** Each of a JWT's three parts is at least this long (a header alone is about 20). */
const MIN_JWT_PART: i32 = 8

/**
 * Prefixes of keys people paste: OpenAI and Anthropic (`sk-`, `sk-ant-`), Groq, xAI, Google, AI
 * Gateway, and GitHub's tokens (classic, OAuth, user, server, refresh, fine-grained).
 */
const PREFIXES: string[] = ['sk-', 'gsk_', 'xai-', 'AIza', 'vck_', 'ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_']

/** `/key github` saves a GitHub token for git; it is not a model provider. */
export const GITHUB_KEY_NAME = 'github'

function isKeyChar(c: i32): bool {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c == 0x2d || c == 0x5f
}

function isDigit(c: i32): bool {
  return c >= 0x30 && c <= 0x39
}

/** The length of the run of key characters at `at`, and whether it has a digit (as length | digit << 30). */
function keyRun(s: string, at: i32): i32 {
  let n = 0
  let digit = 0
  while (at + n < s.length && isKeyChar(s.charCodeAt(at + n))) {
    if (isDigit(s.charCodeAt(at + n))) digit = 1
    n++
  }
  return n | (digit << 30)
}

/** True when a JWT (`eyJ…`.`…`.`…`, base64url parts) starts at `at`. */
function jwtAt(s: string, at: i32): bool {
  let i = at
  for (let part = 0; part < 3; part++) {
    const n = keyRun(s, i) & 0x3fffffff
    if (n < MIN_JWT_PART) return false
    i += n
    if (part < 2) {
      if (i >= s.length || s.charCodeAt(i) != 0x2e) return false
      i++
    }
  }
  return true
}

/** True when `s` holds a known key shape that starts a word. */
export function hasKeyShape(s: string): bool {
  for (let i = 0; i < s.length; i++) {
    if (i > 0 && isKeyChar(s.charCodeAt(i - 1))) continue
    if (s.startsWith('eyJ', i) && jwtAt(s, i)) return true
    for (let p = 0; p < PREFIXES.length; p++) {
      const prefix = PREFIXES[p]
      if (!s.startsWith(prefix, i)) continue
      const run = keyRun(s, i + prefix.length)
      const n = run & 0x3fffffff
      const digit = (run >> 30) != 0
      if (prefix == 'AIza' ? n >= MIN_GOOGLE_TAIL : n >= MIN_TAIL && digit) return true
    }
  }
  return false
}

/**
 * True for `/key` followed by a word that is neither `clear` nor one of `providers`: whatever it
 * is, it may be the key itself.
 */
export function isKeyInTheOpen(line: string, providers: Providers): bool {
  if (line != '/key' && !line.startsWith('/key ')) return false
  const words = line.substring(5).split(' ')
  for (let i = 0; i < words.length; i++) {
    const word = words[i]
    if (word.length > 0 && word != 'clear' && word != GITHUB_KEY_NAME && providers.find(word) == null) return true
  }
  return false
}
