/** Reading a turn back from the screen, and feeding the model's side of it. */
import type { Harness } from './harness.ts'
import type { ModelEvent } from '../../src/shared/protocol/model-events.ts'

const isDivider = (line: string) => /^─+$/.test(line)
/** The activity row: a spinner frame, or the retry countdown. */
const SPINNER_ROW = /^([⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] |⚠ .* · retrying in )/

/**
 * The conversation as drawn: every screen line after the banner and before the live footer
 * (spinner, composer, status), without the blank rows that close it.
 */
export function conversation(h: Harness): string[] {
  const lines = h.screen().split('\n')
  const dividers = lines.flatMap((line, i) => (isDivider(line) ? [i] : []))
  const body = lines.slice(0, dividers.at(-2) ?? lines.length)
  while (body.length && (body.at(-1) === '' || SPINNER_ROW.test(body.at(-1)!))) body.pop()
  return body.slice(body.indexOf('') + 1)
}

/** The row just above the composer: the spinner while a turn runs, blank otherwise. */
export function spinnerRow(h: Harness): string {
  const lines = h.viewport()
  const dividers = lines.flatMap((line, i) => (isDivider(line) ? [i] : []))
  return lines[(dividers.at(-2) ?? 0) - 1] ?? ''
}

/** The composer's rows: the viewport lines between the last two dividers. */
export function composerRows(h: Harness): string[] {
  const lines = h.viewport()
  const dividers = lines.flatMap((line, i) => (isDivider(line) ? [i] : []))
  return lines.slice((dividers.at(-2) ?? 0) + 1, dividers.at(-1))
}

export async function modelEvents(h: Harness, id: number, events: ModelEvent[]) {
  for (const event of events) await h.model(id, event)
}

/** A tool call the way providers stream it: start, the arguments in pieces, end. */
export function toolCall(index: number, id: string, name: string, args: string, pieces = 3): ModelEvent[] {
  const size = Math.ceil(args.length / pieces)
  const deltas: ModelEvent[] = []
  for (let at = 0; at < args.length; at += size) deltas.push({ type: 'tool_call_delta', index, delta: args.slice(at, at + size) })
  return [{ type: 'tool_call_start', index, id, name }, ...deltas, { type: 'tool_call_end', index }]
}

