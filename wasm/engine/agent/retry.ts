// When a model request fails in a way that may pass (network, 408/409/429/5xx, a stream cut
// mid-way), the loop waits and asks again: 250 ms, 1 s, then doubling, honouring the server's
// Retry-After up to 30 s, at most 6 attempts per request. The host only classifies errors.

import { FX_MODEL_STREAM_TRUNCATED } from '../error-codes'

export const MAX_ATTEMPTS = 6
const MAX_DELAY_MS: f64 = 30000

/** How long to wait before attempt `next` (2…MAX_ATTEMPTS). */
export function retryDelayMs(next: i32, retryAfterMs: f64): f64 {
  if (retryAfterMs > 0) return Math.min(retryAfterMs, MAX_DELAY_MS)
  if (next <= 2) return 250
  return Math.min(1000 * <f64>(1 << (next - 3)), MAX_DELAY_MS)
}

/** The words the activity row uses for a failure: `⚠ Rate limited · retrying in 4s`. */
export function retryReason(code: string, status: i32): string {
  if (status == 429) return 'Rate limited'
  if (status >= 500) return 'Server error ' + status.toString()
  if (status == 408) return 'Request timed out'
  if (status == 409) return 'Server busy'
  if (code == FX_MODEL_STREAM_TRUNCATED) return 'Stream interrupted'
  return 'Connection lost'
}

/** A failed request, as the retry logic needs it. */
export class ModelFailure {
  code: string = ''
  message: string = ''
  retryable: bool = false
  retryAfterMs: f64 = 0
  status: i32 = 0
}
