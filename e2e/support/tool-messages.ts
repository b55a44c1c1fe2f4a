// Reading messages (tool results, prompts) out of the requests the page sent to the mock model.
import type { ReceivedRequest } from './mock-model.ts'

/** Tool message content may be a string or a list of text parts; specs only care about its text. */
export const textOf = (content: unknown): string => (typeof content === 'string' ? content : JSON.stringify(content ?? ''))

/** The text of the tool message answering `callId` in one request, or undefined if it has none. */
export function toolResultText(request: ReceivedRequest | undefined, callId: string): string | undefined {
  const message = request?.messages.find((candidate) => candidate.role === 'tool' && candidate.tool_call_id === callId)
  return message ? textOf(message.content) : undefined
}

/** The text of the last user message in one request (what the person's prompt became on the wire). */
export function lastUserText(request: ReceivedRequest | undefined): string | undefined {
  const message = request?.messages.filter((candidate) => candidate.role === 'user').at(-1)
  return message ? textOf(message.content) : undefined
}
