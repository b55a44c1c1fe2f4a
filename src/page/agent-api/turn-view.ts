/**
 * What `session.prompt()` returns: the prompt's messageId, `accepted` (the prompt is stored),
 * `result`, and the turn's lines — async iteration and NDJSON `readable` — from its
 * `turn_start` (or `turn_resume`) to its `turn_end`. A repeated messageId follows the original.
 */
import type { SessionCore } from './session-core.ts'
import type { StreamLog } from './stream-log.ts'
import type { FxLogLine, FxStreamLine, FxTurn, FxTurnResult } from '../../shared/agent-api/types.ts'

const encoder = new TextEncoder()

/** Lines of one turn: skip until its start, stop after its end. */
function turnFilter(messageId: string) {
  let inside = false
  const keep = (line: FxLogLine) => {
    if (!inside && (line.type === 'turn_start' || line.type === 'turn_resume') && line['messageId'] === messageId) inside = true
    return inside
  }
  const until = (line: FxLogLine) => line.type === 'turn_end' && line['messageId'] === messageId
  return { keep, until }
}

export type TurnViewParts = {
  core: SessionCore
  messageId: string
  accepted: Promise<{ messageId: string; sessionId: string }>
  result: Promise<FxTurnResult>
  /** The log cursor to read from: lines before it cannot belong to this turn (0 for a repeat; null: no lines, the prompt was not stored). */
  from: Promise<number | null>
  /** No lines at all (a prompt cancelled before it was stored). */
  empty?: boolean
}

export function createTurnView(parts: TurnViewParts): FxTurn {
  const { messageId } = parts
  const source = async (): Promise<{ log: StreamLog; from: number } | null> => {
    if (parts.empty) return null
    const from = await parts.from
    if (from === null) return null
    return { log: await parts.core.log(), from }
  }
  return {
    messageId,
    accepted: parts.accepted,
    result: parts.result,
    [Symbol.asyncIterator](): AsyncIterator<FxStreamLine> {
      let inner: AsyncIterator<FxLogLine> | null = null
      const filter = turnFilter(messageId)
      const open = async () => {
        if (inner) return inner
        const s = await source()
        if (!s) return null
        inner = s.log.iterate(s.from, { until: filter.until })[Symbol.asyncIterator]()
        return inner
      }
      return {
        async next() {
          const it = await open()
          if (!it) return { value: undefined, done: true }
          for (;;) {
            const step = await it.next()
            // The log holds only lines the session wrote, each one an FxStreamLine.
            if (step.done || filter.keep(step.value)) return step as IteratorResult<FxStreamLine>
          }
        },
        async return() {
          await inner?.return?.()
          return { value: undefined, done: true }
        },
      }
    },
    get readable() {
      const view = this
      let iterator: AsyncIterator<FxStreamLine> | null = null
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          iterator ??= view[Symbol.asyncIterator]()
          const step = await iterator.next()
          if (step.done) controller.close()
          else controller.enqueue(encoder.encode(`${JSON.stringify(step.value)}\n`))
        },
        async cancel() {
          await iterator?.return?.()
        },
      })
    },
  }
}
