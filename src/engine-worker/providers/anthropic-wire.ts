/**
 * Our provider-neutral request → Anthropic's Messages API body (`POST {baseUrl}/messages`).
 * Anthropic keeps the system prompt out of the messages, carries tool calls as `tool_use`
 * blocks of the assistant and their results as `tool_result` blocks of the next user turn,
 * and requires `max_tokens`. Kept apart from the fetch code so the JSON sent is easy to test.
 */
import type { ChatImage, ChatMessage, ModelRequest, ToolSpec } from '../../shared/protocol/model-events.ts'

/** A content block we send. */
export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string }

/** One message as `/v1/messages` expects it. */
export type AnthropicMessage = { role: 'user' | 'assistant'; content: string | AnthropicBlock[] }

/** A tool as `/v1/messages` expects it. */
export type AnthropicTool = { name: string; description: string; input_schema: Record<string, unknown> }

/** The JSON body of a streamed `/v1/messages` request. */
export type AnthropicBody = {
  model: string
  max_tokens: number
  system?: string
  messages: AnthropicMessage[]
  tools?: AnthropicTool[]
  stream: true
}

/**
 * The output cap asked for when the catalog says nothing: every current Claude model allows at
 * least this many output tokens, and the field is required.
 */
export const DEFAULT_MAX_TOKENS = 8192

/** A tool call's argument text as the JSON object Anthropic wants; `{}` when it is not one. */
function toolInput(args: string): unknown {
  try {
    const value: unknown = JSON.parse(args === '' ? '{}' : args)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}
  } catch {
    return {}
  }
}

function imageBlocks(images: ChatImage[] | undefined): AnthropicBlock[] {
  return (images ?? []).map((image) => ({ type: 'image' as const, source: { type: 'base64' as const, media_type: image.mimeType, data: image.data } }))
}

function blocksOf(message: ChatMessage): AnthropicBlock[] {
  switch (message.role) {
    case 'system':
      return []
    case 'user':
      return [...(message.content === '' ? [] : [{ type: 'text' as const, text: message.content }]), ...imageBlocks(message.images)]
    case 'tool':
      // A tool's images follow its result in the same user turn (results are moved first).
      return [{ type: 'tool_result', tool_use_id: message.toolCallId, content: message.content }, ...imageBlocks(message.images)]
    case 'assistant':
      return [
        ...(message.content === '' ? [] : [{ type: 'text' as const, text: message.content }]),
        ...(message.toolCalls ?? []).map((call) => ({ type: 'tool_use' as const, id: call.id, name: call.name, input: toolInput(call.arguments) })),
      ]
  }
}

/**
 * The conversation as Anthropic's alternating turns: the system messages joined into `system`,
 * tool results folded into the user turn that follows the assistant's tool calls, and
 * consecutive messages of one role merged (the API wants user and assistant to alternate).
 */
export function toAnthropicMessages(messages: ChatMessage[]): { system?: string; messages: AnthropicMessage[] } {
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n')
  const out: AnthropicMessage[] = []
  for (const message of messages) {
    if (message.role === 'system') continue
    const role = message.role === 'assistant' ? 'assistant' : 'user'
    const blocks = blocksOf(message)
    if (blocks.length === 0) continue
    const last = out.at(-1)
    if (last && last.role === role) last.content = [...(last.content as AnthropicBlock[]), ...blocks]
    else out.push({ role, content: blocks })
  }
  pairToolResults(out)
  // A lone text block is sent as a plain string: the shortest body, as the API's examples show.
  for (const message of out) {
    const only = message.content.length === 1 ? (message.content as AnthropicBlock[])[0] : undefined
    if (only?.type === 'text') message.content = only.text
  }
  return system === '' ? { messages: out } : { system, messages: out }
}

/** What a call that never got a result (a turn stopped mid-way, then resumed) answers. */
export const MISSING_RESULT = 'No result: the turn stopped before this call finished.'

/**
 * Anthropic refuses (400) a user turn after `tool_use` blocks that does not begin with one
 * `tool_result` per call, and a `tool_result` whose call is not in the turn before. Chat
 * Completions is laxer about order, so the history can hold either: a result after the user's
 * text, or a session saved between a call and its result. Each assistant turn with calls is
 * followed by its results first (a missing one says so), then the rest; a result with no call
 * before it becomes text.
 */
function pairToolResults(out: AnthropicMessage[]): void {
  for (let i = 0; i < out.length; i++) {
    const message = out[i]!
    const blocks = message.content as AnthropicBlock[]
    const calls = message.role === 'assistant' ? blocks.flatMap((block) => (block.type === 'tool_use' ? [block.id] : [])) : []
    if (message.role === 'user') {
      // Results left here answer no call of the turn before: keep their text, not their shape.
      message.content = blocks.map((block) => (block.type === 'tool_result' ? { type: 'text' as const, text: block.content } : block))
    }
    if (calls.length === 0) continue
    let next = out[i + 1]
    if (next === undefined || next.role !== 'user') {
      next = { role: 'user', content: [] }
      out.splice(i + 1, 0, next)
    }
    const rest = next.content as AnthropicBlock[]
    const results = calls.map((id) => rest.find((block) => block.type === 'tool_result' && block.tool_use_id === id) ?? { type: 'tool_result' as const, tool_use_id: id, content: MISSING_RESULT })
    const others = rest.filter((block) => !(block.type === 'tool_result' && calls.includes(block.tool_use_id)))
    next.content = [...results, ...others.map((block) => (block.type === 'tool_result' ? { type: 'text' as const, text: block.content } : block))]
    i++ // the user turn just paired is done
  }
}

/** A tool block as plain text, for a request without tools. */
function asText(block: AnthropicBlock): AnthropicBlock {
  if (block.type === 'tool_use') return { type: 'text', text: `[called ${block.name} ${JSON.stringify(block.input)}]` }
  if (block.type === 'tool_result') return { type: 'text', text: `[result] ${block.content}` }
  return block
}

/** Maps one tool spec to the wire. */
export function toAnthropicTool(tool: ToolSpec): AnthropicTool {
  return { name: tool.name, description: tool.description, input_schema: tool.parameters }
}

/** Builds the request body; `tools` is left out when there are none. */
export function toAnthropicBody(request: ModelRequest, defaultModel: string, maxTokens = DEFAULT_MAX_TOKENS): AnthropicBody {
  const { system, messages } = toAnthropicMessages(request.messages)
  // Anthropic refuses tool_use and tool_result blocks in a request that defines no tools (a
  // session continued where no tools are offered): the model reads them as text instead.
  if (request.tools.length === 0) for (const message of messages) if (typeof message.content !== 'string') message.content = message.content.map(asText)
  const body: AnthropicBody = {
    model: request.model === '' ? defaultModel : request.model,
    max_tokens: maxTokens,
    ...(system === undefined ? {} : { system }),
    messages,
    stream: true,
  }
  if (request.tools.length > 0) body.tools = request.tools.map(toAnthropicTool)
  return body
}
