/**
 * Bytes in, `ModelEvent`s out: splits a Chat Completions SSE body into events (the plain text
 * deltas on the bytes with sse-byte-scanner.ts, one-line `data:` events with
 * sse-delta-scanner.ts, the rest with `eventsource-parser`) and hands each `data:` payload to the
 * chunk decoder. Sans-IO: the caller reads the body (see `read-byte-stream.ts`) and feeds its
 * bytes in whatever pieces arrive.
 */
import { ErrorCode } from '../errors.ts'
import type { ModelEvent } from '../protocol/model-events.ts'
import { createChatChunkDecoder } from './chat-chunk-decoder.ts'
import { quoteForMessage } from './mask-secrets.ts'
import { createSseByteScanner } from './sse-byte-scanner.ts'
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
  const isDone = (): boolean => failed || decoder.done
  const parser = createParser({
    onEvent: (message) => decoder.payload(message.data, message.event),
    onError: (error) => {
      if (error.type === 'unknown-field' && strayLine === undefined) strayLine = error.line
    },
  })
  const scanner = createSseByteScanner({
    text: (delta) => decoder.text(delta),
    data: (payload) => decoder.payload(payload, undefined, true),
    other: (text) => parser.feed(text),
    done: isDone,
  })

  const finish = (dropped: boolean): void => {
    if (isDone()) return
    scanner.end()
    // Servers that end the body without the final blank line still meant their last event.
    parser.feed('\n\n')
    if (decoder.done) return
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
      if (isDone()) return
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
