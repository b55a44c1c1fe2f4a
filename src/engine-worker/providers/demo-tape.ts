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
 *
 * Version 2 (what /export tape writes) adds, per turn, the recorded `prompt` (then `match` is
 * optional), and at the top `files`: the workspace's starting files (`{ "path": "content" }`, the
 * same shape as a seed manifest, so the tape itself seeds the workspace). A prompt picks the turn
 * whose recorded prompt it equals (ignoring case, spacing and punctuation), else the closest one
 * (most words in common, at least 60%), else one whose keyword it contains; a prompt that matches
 * nothing gets the fallback and the tape's next prompt as a suggestion.
 */
import type { ChatMessage } from '../../shared/protocol/model-events.ts'

/** A tool call on the tape; arguments are an object, sent as JSON text. */
export type DemoToolCall = { name: 'run_command'; arguments: { command: string } }

/** One recorded model answer; `ms`: how long the model took to send it, the pace a replay keeps. */
export type DemoResponse = { text?: string; toolCalls?: DemoToolCall[]; ms?: number }

/** A recorded turn: its prompt and/or keywords that select it, and its answers in order. */
export type DemoTurn = { prompt?: string; match: string[]; responses: DemoResponse[] }

/** A whole tape. */
export type DemoTape = { version: 1 | 2; turns: DemoTurn[]; fallback: string; files?: Record<string, string> }

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
  const ms = value['ms']
  if (ms !== undefined) {
    if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0 || ms > 600_000) fail(`${path}.ms`, 'whole milliseconds from 0 to 600000')
    response.ms = ms
  }
  return response
}

function parseTurn(value: unknown, path: string, version: 1 | 2): DemoTurn {
  if (!isRecord(value)) fail(path, 'an object')
  const prompt = value['prompt']
  if (version === 2 && (typeof prompt !== 'string' || prompt.trim() === '')) fail(`${path}.prompt`, 'a non-empty string')
  const match = value['match'] ?? (version === 2 ? [] : undefined)
  const validKeyword = (word: unknown): boolean => typeof word === 'string' && word !== '' && word === word.toLowerCase()
  if (!Array.isArray(match) || (version === 1 && match.length === 0) || !match.every(validKeyword)) {
    fail(`${path}.match`, version === 1 ? 'a non-empty array of lowercase keywords' : 'an array of lowercase keywords')
  }
  const responses = value['responses']
  if (!Array.isArray(responses) || responses.length === 0) fail(`${path}.responses`, 'a non-empty array')
  return {
    ...(typeof prompt === 'string' ? { prompt } : {}),
    match: match as string[],
    responses: responses.map((r, i) => parseResponse(r, `${path}.responses[${i}]`)),
  }
}

function parseFiles(value: unknown): Record<string, string> | undefined {
  if (value === undefined) return undefined
  if (!isRecord(value)) fail('files', 'an object of path → text')
  for (const [path, content] of Object.entries(value)) if (typeof content !== 'string') fail(`files["${path}"]`, 'a string')
  return value as Record<string, string>
}

/** Validates an untrusted JSON value as a version 1 or 2 tape; throws an Error naming the bad field. */
export function parseDemoTape(value: unknown): DemoTape {
  if (!isRecord(value)) fail('the tape', 'a JSON object')
  const version = value['version']
  if (version !== 1 && version !== 2) fail('version', '1 or 2')
  const turns = value['turns']
  if (!Array.isArray(turns)) fail('turns', 'an array')
  if (typeof value['fallback'] !== 'string' || value['fallback'] === '') fail('fallback', 'a non-empty string')
  const files = parseFiles(value['files'])
  return { version, turns: turns.map((turn, i) => parseTurn(turn, `turns[${i}]`, version)), fallback: value['fallback'], ...(files ? { files } : {}) }
}

/** Lowercase words, apostrophes straightened, punctuation and spacing ignored. */
function words(text: string): string[] {
  return text.toLowerCase().replace(/[\u2018\u2019]/g, "'").match(/[\p{L}\p{N}']+/gu) ?? []
}

/** Share of words two prompts have in common (Dice coefficient over word sets), 0 to 1. */
export function promptSimilarity(a: string, b: string): number {
  const x = new Set(words(a))
  const y = new Set(words(b))
  if (x.size === 0 || y.size === 0) return 0
  let common = 0
  for (const w of x) if (y.has(w)) common++
  return (2 * common) / (x.size + y.size)
}

const CLOSE_ENOUGH = 0.6

/** The turn recorded with the same words as `prompt`, or -1. */
function exactTurn(tape: DemoTape, prompt: string): number {
  const said = words(prompt).join(' ')
  return tape.turns.findIndex((turn) => turn.prompt !== undefined && words(turn.prompt).join(' ') === said)
}

/** The turn a prompt selects: same words, else closest (≥ 60%), else a keyword; -1 for none. */
export function matchTurn(tape: DemoTape, prompt: string): number {
  const exact = exactTurn(tape, prompt)
  if (exact >= 0) return exact
  let best = -1
  let bestScore = 0
  tape.turns.forEach((turn, i) => {
    const score = turn.prompt === undefined ? 0 : promptSimilarity(turn.prompt, prompt)
    if (score > bestScore) {
      best = i
      bestScore = score
    }
  })
  if (best >= 0 && bestScore >= CLOSE_ENOUGH) return best
  const lower = prompt.toLowerCase().replace(/[\u2018\u2019]/g, "'")
  return tape.turns.findIndex((turn) => turn.match.some((keyword) => lower.includes(keyword)))
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
  const step = messages.slice(lastUser + 1).filter((message) => message.role === 'assistant').length
  const prompt = messages[lastUser]?.content ?? ''
  const index = matchTurn(tape, prompt)
  const turn = tape.turns[index]
  if (turn === undefined) return step === 0 ? { text: withSuggestion(tape, messages.slice(0, lastUser)) } : undefined
  const response = turn.responses[step]
  // A prompt the tape did not record is never answered silently with another prompt's recording.
  // (A turn recorded without its prompt is one that keywords select, and answers any of them.)
  if (step > 0 || response === undefined || turn.prompt === undefined || exactTurn(tape, prompt) === index) return response
  const note = `*Offline demo: it only has recorded answers and no recording for this prompt, so this replays the closest recorded one, “${turn.prompt}”.*`
  return { ...response, text: response.text ? `${note}\n\n${response.text}` : note }
}

/** The fallback, and the tape's next recorded prompt after the last one played, to try next. */
function withSuggestion(tape: DemoTape, earlier: ChatMessage[]): string {
  let last = -1
  for (const message of earlier) {
    if (message.role !== 'user') continue
    const index = matchTurn(tape, message.content)
    if (index >= 0) last = index
  }
  const next = tape.turns.slice(last + 1).find((turn) => turn.prompt !== undefined) ?? tape.turns.find((turn) => turn.prompt !== undefined)
  return next?.prompt ? `${tape.fallback}\n\nTry: “${next.prompt}”` : tape.fallback
}
