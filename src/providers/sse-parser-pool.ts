/**
 * eventsource-parser instances kept from one response body for the next. A parser is a set of
 * closures, and V8 compiles the loop that splits a long network read (its `processLines`, with
 * the event callback inlined) for the very closures it runs in: on-stack replacement specializes
 * the code on them. So a new parser per stream sent the engine worker back to the optimizing
 * compiler on every turn: measured with Chromium's tracing, ~20 ms of TurboFan work a turn on
 * a 200 KB reply, on top of the reading itself. A parser taken from here is one that already
 * ran (reset to its initial state); its events go to the handlers of the stream holding it.
 */
import { createParser, type EventSourceMessage, type EventSourceParser, type ParseError } from 'eventsource-parser'

/** Where a held parser's events go. */
export type SseHandlers = {
  onEvent(message: EventSourceMessage): void
  onError(error: ParseError): void
}

/** A parser held by one stream until `release()`. */
export type HeldSseParser = {
  feed(text: string): void
  /** Gives the parser back for the next stream. Only after the last `feed`: never from a handler. */
  release(): void
}

type Pooled = { parser: EventSourceParser; slot: { handlers: SseHandlers | null } }

/** Parsers no stream holds (as many as streams ever ran at once). */
const idle: Pooled[] = []

function createPooled(): Pooled {
  const slot: Pooled['slot'] = { handlers: null }
  const parser = createParser({
    onEvent: (message) => slot.handlers?.onEvent(message),
    onError: (error) => slot.handlers?.onError(error),
  })
  return { parser, slot }
}

/** A parser for one response body, as if new. */
export function holdSseParser(handlers: SseHandlers): HeldSseParser {
  const pooled = idle.pop() ?? createPooled()
  pooled.slot.handlers = handlers
  let held = true
  return {
    feed(text) {
      if (held) pooled.parser.feed(text)
    },
    release() {
      if (!held) return
      held = false
      pooled.parser.reset()
      pooled.slot.handlers = null
      idle.push(pooled)
    },
  }
}
