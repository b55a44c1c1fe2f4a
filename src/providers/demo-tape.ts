/**
 * The demo tape: a recorded session the offline demo provider replays. Sans-IO: parsing and
 * choosing the response are pure, so the replay is deterministic and testable.
 *
 * Format (version 1; also described in public/demos/README.md):
 *
 *   {
 *     "version": 1,
 *     "turns": [
 *       {
 *         "match": ["tour", "explore"],        // lowercase keywords; a prompt matches when it
 *                                              // contains any of them (first matching turn wins)
 *         "responses": [                        // one per model request in that turn, in order
 *           { "text": "Let me look.", "toolCalls": [
 *               { "name": "run_command", "arguments": { "command": "ls -la" } } ] },
 *           { "text": "Here is what I found." }
 *         ]
 *       }
 *     ],
 *     "fallback": "Text for prompts no turn matches."
 *   }
 *
 * The Nth model request after the last user message (N = assistant messages since it) gets
 * responses[N]; past the end the model finishes with no text.
 */
import type { ChatMessage } from '../protocol/model-events.ts'

/** A tool call on the tape; arguments are an object, sent as JSON text. */
export type DemoToolCall = { name: 'run_command'; arguments: { command: string } }

/** One recorded model answer. */
export type DemoResponse = { text?: string; toolCalls?: DemoToolCall[] }

/** A recorded turn: the keywords that select it and its answers in order. */
export type DemoTurn = { match: string[]; responses: DemoResponse[] }

/** A whole tape. */
export type DemoTape = { version: 1; turns: DemoTurn[]; fallback: string }

function fail(path: string, expected: string): never {
  throw new Error(`demo tape: ${path} must be ${expected}`)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function parseToolCall(value: unknown, path: string): DemoToolCall {
  if (!isRecord(value) || value['name'] !== 'run_command') fail(`${path}.name`, '"run_command"')
  const args = value['arguments']
  if (!isRecord(args) || typeof args['command'] !== 'string' || args['command'] === '') {
    fail(`${path}.arguments.command`, 'a non-empty string')
  }
  return { name: 'run_command', arguments: { command: args['command'] } }
}

function parseResponse(value: unknown, path: string): DemoResponse {
  if (!isRecord(value)) fail(path, 'an object')
  const response: DemoResponse = {}
  if (value['text'] !== undefined) {
    if (typeof value['text'] !== 'string') fail(`${path}.text`, 'a string')
    response.text = value['text']
  }
  if (value['toolCalls'] !== undefined) {
    const calls = value['toolCalls']
    if (!Array.isArray(calls)) fail(`${path}.toolCalls`, 'an array')
    response.toolCalls = calls.map((call, i) => parseToolCall(call, `${path}.toolCalls[${i}]`))
  }
  if (response.text === undefined && response.toolCalls === undefined) fail(path, 'text and/or toolCalls')
  return response
}

function parseTurn(value: unknown, path: string): DemoTurn {
  if (!isRecord(value)) fail(path, 'an object')
  const match = value['match']
  const validKeyword = (word: unknown): boolean => typeof word === 'string' && word !== '' && word === word.toLowerCase()
  if (!Array.isArray(match) || match.length === 0 || !match.every(validKeyword)) {
    fail(`${path}.match`, 'a non-empty array of lowercase keywords')
  }
  const responses = value['responses']
  if (!Array.isArray(responses) || responses.length === 0) fail(`${path}.responses`, 'a non-empty array')
  return { match: match as string[], responses: responses.map((r, i) => parseResponse(r, `${path}.responses[${i}]`)) }
}

/** Validates an untrusted JSON value as a version 1 tape; throws an Error naming the bad field. */
export function parseDemoTape(value: unknown): DemoTape {
  if (!isRecord(value)) fail('the tape', 'a JSON object')
  if (value['version'] !== 1) fail('version', '1')
  const turns = value['turns']
  if (!Array.isArray(turns)) fail('turns', 'an array')
  if (typeof value['fallback'] !== 'string' || value['fallback'] === '') fail('fallback', 'a non-empty string')
  return { version: 1, turns: turns.map((turn, i) => parseTurn(turn, `turns[${i}]`)), fallback: value['fallback'] }
}

/**
 * Chooses what to replay for a request with these messages: the first turn matching the last
 * user message, at the position given by the assistant messages since it. Unmatched prompts get
 * the fallback once; `undefined` means finish with no text.
 */
export function pickDemoResponse(tape: DemoTape, messages: ChatMessage[]): DemoResponse | undefined {
  let lastUser = -1
  messages.forEach((message, i) => {
    if (message.role === 'user') lastUser = i
  })
  if (lastUser === -1) return { text: tape.fallback }
  // Phones and word processors type curly apostrophes; keywords are written with straight ones.
  const prompt = (messages[lastUser]?.content ?? '').toLowerCase().replace(/[\u2018\u2019]/g, "'")
  const step = messages.slice(lastUser + 1).filter((message) => message.role === 'assistant').length
  const turnIndex = tape.turns.findIndex((turn) => turn.match.some((keyword) => prompt.includes(keyword)))
  const turn = tape.turns[turnIndex]
  if (turn === undefined) return step === 0 ? { text: tape.fallback } : undefined
  return turn.responses[step]
}
