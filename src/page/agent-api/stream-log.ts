/**
 * A session's stream: every line a turn produced, numbered by `cursor` (1, 2, …; cursor 0 means
 * "before the first line"). Readers catch up from any cursor and then follow new lines live, so a
 * reader that reconnects with the last cursor it saw continues exactly where it stopped.
 * Each line's NDJSON text is built once, the first time a `readable` needs it: a turn read by
 * async iteration (or not read at all) never stringifies its lines.
 */
import type { FxLogLine } from '../../shared/agent-api/types.ts'

const encoder = new TextEncoder()

export type StreamLog = {
  /** Appends a line; returns it with its cursor. */
  append(line: { type: string } & Record<string, unknown>): FxLogLine
  /** Ends every open reader (the agent closed). */
  close(): void
  /** Takes a line another tab stored (it keeps its cursor, the next after ours). */
  adopt(line: FxLogLine): void
  /** The cursor of the last line (0: none yet). */
  readonly cursor: number
  /** Lines after `cursor`, oldest first. */
  since(cursor: number): FxLogLine[]
  /** Calls `listener` for every new line; returns the unsubscribe function. */
  onLine(listener: (line: FxLogLine) => void): () => void
  /** NDJSON of every line after `cursor`, then live lines until `until(line)` or the signal. */
  readable(cursor: number, options?: { until?: (line: FxLogLine) => boolean; signal?: AbortSignal }): ReadableStream<Uint8Array>
  /** Async iteration over the same lines as `readable`. */
  iterate(cursor: number, options?: { until?: (line: FxLogLine) => boolean; signal?: AbortSignal }): AsyncIterable<FxLogLine>
}

/** A log that starts after `restored` lines (loaded from a store). */
export function createStreamLog(restored: FxLogLine[] = []): StreamLog {
  const lines: FxLogLine[] = [...restored]
  /** NDJSON of `lines[i]`, once some reader asked for it. */
  const texts: Array<string | undefined> = []
  const textAt = (i: number): string => (texts[i] ??= `${JSON.stringify(lines[i])}\n`)
  const listeners = new Set<(line: FxLogLine) => void>()
  /** Every open reader's stop, so closing the log ends them. */
  const readers = new Set<() => void>()
  const base = restored.length > 0 ? restored[0]!.cursor - 1 : 0

  const since = (cursor: number) => lines.slice(Math.max(0, cursor - base))

  /** Follows the log from `cursor`: pushes lines (and their index) to `push` until `until` or `signal`; returns stop(). */
  const follow = (cursor: number, push: (line: FxLogLine, index: number) => void, done: () => void, options: { until?: (line: FxLogLine) => boolean; signal?: AbortSignal } = {}) => {
    let stopped = false
    const stop = () => {
      if (stopped) return
      stopped = true
      readers.delete(stop)
      listeners.delete(listener)
      options.signal?.removeEventListener('abort', stop)
      done()
    }
    const deliver = (line: FxLogLine, index: number) => {
      // A reader's cursor may be ahead of this log (lines another page never stored): skip to it.
      if (stopped || line.cursor <= cursor) return
      push(line, index)
      if (options.until?.(line)) stop()
    }
    const listener = (line: FxLogLine) => deliver(line, line.cursor - base - 1)
    const from = Math.max(0, cursor - base)
    for (let i = from; i < lines.length && !stopped; i++) deliver(lines[i]!, i)
    if (!stopped) {
      readers.add(stop)
      listeners.add(listener)
      if (options.signal?.aborted) stop()
      else options.signal?.addEventListener('abort', stop)
    }
    return stop
  }

  const log: StreamLog = {
    append(line) {
      // Frozen: every reader gets this same object, and its NDJSON is built later, from it.
      const full = Object.freeze({ ...line, cursor: base + lines.length + 1 }) as FxLogLine
      lines.push(full)
      for (const listener of [...listeners]) listener(full)
      return full
    },
    close() {
      for (const stop of [...readers]) stop()
    },
    adopt(line) {
      if (line.cursor !== base + lines.length + 1) return
      lines.push(line)
      for (const listener of [...listeners]) listener(line)
    },
    get cursor() {
      return base + lines.length
    },
    since,
    onLine(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    readable(cursor, options = {}) {
      let stop = () => {}
      return new ReadableStream<Uint8Array>({
        start(controller) {
          // The catch-up goes out as one chunk: 10,000 lines are one enqueue, not 10,000.
          let batch: string[] | null = []
          const flushBatch = () => {
            if (batch && batch.length > 0) controller.enqueue(encoder.encode(batch.join('')))
            batch = null
          }
          stop = follow(
            cursor,
            (_line, index) => {
              if (batch) batch.push(textAt(index))
              else controller.enqueue(encoder.encode(textAt(index)))
            },
            () => {
              flushBatch()
              try {
                controller.close()
              } catch {
                // already cancelled by the reader
              }
            },
            options,
          )
          flushBatch()
        },
        cancel() {
          stop()
        },
      })
    },
    iterate(cursor, options = {}) {
      return {
        [Symbol.asyncIterator]() {
          const ready: FxLogLine[] = []
          let finished = false
          let wake: (() => void) | null = null
          const stop = follow(
            cursor,
            (line) => {
              ready.push(line)
              wake?.()
            },
            () => {
              finished = true
              wake?.()
            },
            options,
          )
          return {
            async next(): Promise<IteratorResult<FxLogLine>> {
              while (ready.length === 0 && !finished) await new Promise<void>((resolve) => (wake = resolve))
              wake = null
              if (ready.length > 0) return { value: ready.shift()!, done: false }
              return { value: undefined, done: true }
            },
            async return(): Promise<IteratorResult<FxLogLine>> {
              stop()
              return { value: undefined, done: true }
            },
          }
        },
      }
    },
  }
  return log
}
