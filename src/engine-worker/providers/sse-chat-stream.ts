/**
 * Bytes in, `ModelEvent`s out: splits a Chat Completions SSE body into events (the plain text
 * deltas on the bytes with sse-byte-scanner.ts, one-line `data:` events with
 * sse-delta-scanner.ts, the rest with `eventsource-parser`) and hands each `data:` payload to the
 * chunk decoder. Sans-IO: the caller reads the body (see `read-byte-stream.ts`) and feeds its
 * bytes in whatever pieces arrive.
 *
 * A body that ends inside a line (the connection dropped mid-event) is a cut, not a malformed
 * line: an unfinished last line is read only if it is a whole payload, otherwise the stream is
 * reported as dropped (retryable). One event over MAX_EVENT_BYTES is refused at once.
 */
import { ErrorCode } from '../../shared/errors.ts'
import type { ModelEvent } from '../../shared/protocol/model-events.ts'
import { createChatChunkDecoder } from './chat-chunk-decoder.ts'
import { quoteForMessage } from './mask-secrets.ts'
import { createSseByteScanner } from './sse-byte-scanner.ts'
import { createEventSizeGuard, eventTooLarge } from './sse-event-size.ts'
import { createParser } from 'eventsource-parser'

/** Options for {@link createSseChatStream}. */
export type SseChatStreamOptions = {
  emit: (event: ModelEvent) => void
  /** Names the server in messages. */
  label: string
  /** The API key, masked wherever a server message would echo it. */
  secret?: string
}

/** A push parser for one response body. */
export type SseChatStream = {
  /** Any piece of the body (split anywhere, even inside a line or a character). */
  feed(bytes: Uint8Array): void
  /**
   * The body ended (`dropped`: reading it failed): emits the terminal event if none was
   * emitted yet. Nothing is fed after it (its parser goes to the next stream).
   */
  end(dropped?: boolean): void
  /** True once `finish` or `error` was emitted; the caller can stop reading. */
  readonly done: boolean
}

/** Creates the parser for one streamed chat completion. */
export function createSseChatStream(options: SseChatStreamOptions): SseChatStream {
  const decoder = createChatChunkDecoder(options)
  // A non-SSE line (e.g. a plain JSON error body sent with status 200) is an "unknown field" to
  // the SSE parser, which the SSE spec says to ignore. Remember it: if the stream then ends
  // without an answer, quoting it explains far more than "the stream was truncated".
  let strayLine: string | undefined
  let failed = false
  const sizes = createEventSizeGuard()
  /** The last byte fed was inside a line (not CR or LF). */
  let lineOpen = false
  /** Set while the body's end flushes an unfinished last line: what it holds may be cut. */
  let endingCut = false
  /** The unfinished last line was a fragment, so the body was cut mid-line. */
  let cut = false
  const isDone = (): boolean => failed || decoder.done
  const payload = (data: string, event?: string, notPlain?: boolean): void => {
    if (endingCut && !isWholePayload(data)) {
      cut = true
      return
    }
    decoder.payload(data, event, notPlain)
  }
  const parser = createParser({
    onEvent: (message) => payload(message.data, message.event),
    onError: (error) => {
      // A field name cut short by the end of the body is a cut too, not a stray line.
      if (endingCut) cut = true
      else if (error.type === 'unknown-field' && strayLine === undefined) strayLine = error.line
    },
  })
  const scanner = createSseByteScanner({
    text: (delta) => decoder.text(delta),
    data: (data) => payload(data, undefined, true),
    other: (text) => parser.feed(text),
    done: isDone,
  })

  const finish = (dropped: boolean): void => {
    if (isDone()) return
    endingCut = lineOpen
    scanner.end()
    // Servers that end the body without the final blank line still meant their last event.
    parser.feed('\n\n')
    endingCut = false
    if (decoder.done) return
    if (cut) {
      decoder.end(true)
      return
    }
    if (strayLine !== undefined) {
      failed = true
      options.emit({
        type: 'error',
        code: ErrorCode.FX_MODEL_STREAM_MALFORMED,
        message: `${options.label} sent a line that is not part of an event stream: "${quoteForMessage(strayLine, 80, options.secret)}"`,
        retryable: false,
      })
      return
    }
    decoder.end(dropped)
  }

  return {
    feed(bytes) {
      if (isDone() || bytes.length === 0) return
      if (!sizes.add(bytes)) {
        decoder.flush()
        failed = true
        options.emit(eventTooLarge(options.label))
        return
      }
      const last = bytes[bytes.length - 1]
      lineOpen = last !== 0x0a && last !== 0x0d
      scanner.feed(bytes)
      decoder.flush()
    },
    end(dropped = false) {
      finish(dropped)
    },
    get done() {
      return isDone()
    },
  }
}

/** Whether a payload an unfinished last line held is whole: `[DONE]` or a JSON value. */
function isWholePayload(data: string): boolean {
  if (data.trim() === '[DONE]') return true
  try {
    JSON.parse(data)
    return true
  } catch {
    return false
  }
}
