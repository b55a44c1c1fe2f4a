/**
 * Counts the bytes of the SSE event a body is in the middle of, so one event too large to be a
 * model's streaming is refused as soon as it passes the cap instead of being buffered whole (a
 * 10 MB event once took minutes of parsing and ended as a "dropped connection" after 6 attempts).
 * A model streams in small events; only a proxy or a broken server sends megabytes in one.
 */
import { ErrorCode } from '../../shared/errors.ts'
import type { ModelEvent } from '../../shared/protocol/model-events.ts'

/** The largest single SSE event (or non-streamed JSON reply) a provider reads. */
export const MAX_EVENT_BYTES = 4 * 1024 * 1024

const LF = 0x0a
const CR = 0x0d

export type EventSizeGuard = {
  /** Counts `bytes`; false once the unfinished event is over the cap. */
  add(bytes: Uint8Array): boolean
}

/**
 * Creates a guard for one body. An event ends at a blank line: LF LF, CR CR or LF CR LF (the end
 * of CRLF CRLF), possibly across two pieces. Each piece is scanned from its end, so a stream of
 * small events costs a few bytes per piece.
 */
export function createEventSizeGuard(limit = MAX_EVENT_BYTES): EventSizeGuard {
  /** Bytes of the unfinished event so far. */
  let open = 0
  /** The previous piece's last two bytes (0: none), for a blank line split across pieces. */
  let before1 = 0
  let before2 = 0
  return {
    add(bytes) {
      const at = (i: number): number => (i >= 0 ? bytes[i]! : i === -1 ? before1 : before2)
      let end = -1
      for (let i = bytes.length - 1; i >= 0; i--) {
        const b = bytes[i]!
        if (b !== LF && b !== CR) continue
        const prev = at(i - 1)
        if ((b === LF && prev === LF) || (b === CR && prev === CR) || (b === LF && prev === CR && at(i - 2) === LF)) {
          end = i
          break
        }
      }
      open = end >= 0 ? bytes.length - 1 - end : open + bytes.length
      if (bytes.length >= 2) {
        before2 = bytes[bytes.length - 2]!
        before1 = bytes[bytes.length - 1]!
      } else if (bytes.length === 1) {
        before2 = before1
        before1 = bytes[0]!
      }
      return open <= limit
    },
  }
}

/** The error for an event over the cap: refused at once, and no retry would fare better. */
export function eventTooLarge(label: string): ModelEvent {
  return {
    type: 'error',
    code: ErrorCode.FX_MODEL_EVENT_TOO_LARGE,
    message: `${label} sent one stream event larger than ${MAX_EVENT_BYTES / 1024 / 1024} MB, so the reply was refused without reading the rest; ask for the work in smaller steps (write a large file in parts)`,
    retryable: false,
  }
}
