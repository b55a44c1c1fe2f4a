// Builders for OpenAI Chat Completions stream chunks, so specs describe a reply instead of
// spelling out wire JSON. The mock server adds id/object/created/model to each.

export type Chunk = Record<string, unknown>

type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter'

const choice = (delta: Record<string, unknown>, finishReason: FinishReason | null = null): Chunk => ({
  choices: [{ index: 0, delta, finish_reason: finishReason }],
})

/** The first chunk of a real stream names the role; servers send it with empty content. */
export const roleChunk = (): Chunk => choice({ role: 'assistant', content: '' })

export const textDelta = (content: string): Chunk => choice({ content })

export const finish = (reason: FinishReason = 'stop'): Chunk => choice({}, reason)

/** Sent last when the client asked for stream_options.include_usage: no choices, only usage. */
export const usage = (promptTokens = 12, completionTokens = 34): Chunk => ({
  choices: [],
  usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
})

/**
 * A tool call streamed the way real servers do: id and name first, then the JSON arguments
 * cut into `pieces` fragments (cut mid-token on purpose, so the client must concatenate).
 */
export function toolCallChunks(options: { id: string; name: string; args: Record<string, unknown>; index?: number; pieces?: number }): Chunk[] {
  const index = options.index ?? 0
  const json = JSON.stringify(options.args)
  const pieces = Math.max(1, Math.min(options.pieces ?? 3, json.length))
  const size = Math.ceil(json.length / pieces)
  const chunks: Chunk[] = [
    choice({ tool_calls: [{ index, id: options.id, type: 'function', function: { name: options.name, arguments: '' } }] }),
  ]
  for (let at = 0; at < json.length; at += size) {
    chunks.push(choice({ tool_calls: [{ index, function: { arguments: json.slice(at, at + size) } }] }))
  }
  return chunks
}

/** The agent's one tool: run a bash command in the workspace. */
export const runCommand = (id: string, command: string): Chunk[] =>
  toolCallChunks({ id, name: 'run_command', args: { command } })

/** A complete plain-text reply: role, the text in the given pieces, finish, usage. */
export const textReply = (...pieces: string[]): Chunk[] => [roleChunk(), ...pieces.map(textDelta), finish('stop'), usage()]

/** A complete reply that only calls run_command. */
export const commandReply = (id: string, command: string): Chunk[] => [roleChunk(), ...runCommand(id, command), finish('tool_calls'), usage()]
