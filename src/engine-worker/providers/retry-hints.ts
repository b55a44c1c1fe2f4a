/**
 * What an adapter tells the engine about retrying a failed request. The engine decides whether
 * and when to retry (backoff, attempt count, the activity row); the adapter only classifies,
 * because only the adapter sees the status, the headers and how the connection ended.
 */

/** The longest wait a server's `Retry-After` may ask for; a longer one is cut to this. */
export const MAX_RETRY_AFTER_MS = 30_000

/** The retry fields of an `error` ModelEvent. */
export type RetryHints = { retryable: boolean; retryAfterMs?: number; status?: number }

/**
 * True for the statuses worth sending again unchanged: 408 (timeout), 409 (conflict, e.g. a
 * lock held upstream), 429 (rate limit) and every 5xx. The same set the OpenAI SDKs retry.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500
}

/**
 * Parses `Retry-After` (delta-seconds, or an HTTP-date measured against `now`) into
 * milliseconds, capped at {@link MAX_RETRY_AFTER_MS}. Also accepts OpenAI's `retry-after-ms`,
 * which is preferred when both are present. Undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: Pick<Headers, 'get'>, now: number): number | undefined {
  const milliseconds = headers.get('retry-after-ms')?.trim()
  if (milliseconds && /^\d+(\.\d+)?$/.test(milliseconds)) return Math.min(Math.ceil(Number(milliseconds)), MAX_RETRY_AFTER_MS)
  const value = headers.get('retry-after')?.trim()
  if (!value) return undefined
  if (/^\d+$/.test(value)) return Math.min(Number(value) * 1000, MAX_RETRY_AFTER_MS)
  // An HTTP-date names a day; without letters it is a malformed number, not a date.
  const date = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN
  if (Number.isNaN(date)) return undefined
  return Math.min(Math.max(0, date - now), MAX_RETRY_AFTER_MS)
}

/**
 * The retry hints for an error status. A server may override the status rule with
 * `x-should-retry: true|false` (OpenAI and AI Gateway send it), so its word wins.
 */
export function httpRetryHints(status: number, headers: Pick<Headers, 'get'>, now: number): RetryHints {
  const override = headers.get('x-should-retry')?.trim().toLowerCase()
  const retryable = override === 'true' ? true : override === 'false' ? false : isRetryableStatus(status)
  const retryAfterMs = retryable ? parseRetryAfter(headers, now) : undefined
  return retryAfterMs === undefined ? { retryable, status } : { retryable, retryAfterMs, status }
}

/** Words in an error's `type`/`code` that mean the request itself is wrong, so a retry repeats the failure. */
const PERMANENT_ERROR = /invalid|auth|permission|forbidden|not_found|not found|unsupported|context_length|too_long|content_filter|billing|insufficient/i

/**
 * Classifies an `{"error": …}` object a server sent inside a 200 stream. These are nearly
 * always upstream trouble (overloaded, a provider timeout), so they are retryable unless a
 * numeric status or the error's type/code says the request itself was refused.
 */
export function streamErrorRetryable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return true
  const record = error as Record<string, unknown>
  for (const key of ['status', 'code', 'status_code']) {
    const value = record[key]
    if (typeof value === 'number' && value >= 400 && value < 600) return isRetryableStatus(value)
  }
  const words = ['type', 'code'].map((key) => record[key]).filter((value): value is string => typeof value === 'string')
  return !words.some((word) => PERMANENT_ERROR.test(word))
}
