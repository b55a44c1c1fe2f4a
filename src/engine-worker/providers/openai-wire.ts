/**
 * Our provider-neutral request → the OpenAI Chat Completions wire format. Kept apart from the
 * fetch code so the exact JSON we send is easy to read and to test.
 */
import type { ChatImage, ChatMessage, ModelRequest, ToolSpec } from '../../shared/protocol/model-events.ts'

/** One message as `/chat/completions` expects it. */
export type WireMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'user'; content: WireContentPart[] }
  | {
      role: 'assistant'
      content: string | null
      tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[]
    }
  | { role: 'tool'; tool_call_id: string; content: string }

/** A part of a user message with images. */
export type WireContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }

/** A function tool as `/chat/completions` expects it. */
export type WireTool = {
  type: 'function'
  function: { name: string; description: string; parameters: Record<string, unknown> }
}

/** The JSON body of a streamed `/chat/completions` request. */
export type ChatCompletionsBody = {
  model: string
  messages: WireMessage[]
  tools?: WireTool[]
  stream: true
  stream_options: { include_usage: true }
  /** From `options.effort`; OpenAI's name, which AI Gateway, Ollama and LM Studio also read. */
  reasoning_effort?: string
  /** From `options.fast`: the provider's faster tier (AI Gateway: `priority`); `ultrafast` from `options.ultrafast`. */
  service_tier?: string
}

/** How a provider maps the request's model options; see {@link toChatCompletionsBody}. */
export type WireOptions = {
  /** The `service_tier` sent for `fast: true`; undefined when the provider has no faster tier. */
  fastServiceTier?: string
}

/** Maps one engine message to the wire. */
export function toWireMessage(message: ChatMessage): WireMessage {
  switch (message.role) {
    case 'system':
      return { role: message.role, content: message.content }
    case 'user':
      if (!message.images || message.images.length === 0) return { role: 'user', content: message.content }
      return {
        role: 'user',
        content: [...(message.content === '' ? [] : [{ type: 'text' as const, text: message.content }]), ...imageParts(message.images)],
      }
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content }
    case 'assistant': {
      const calls = message.toolCalls ?? []
      if (calls.length === 0) return { role: 'assistant', content: message.content }
      return {
        role: 'assistant',
        // null, not "": some backends (Anthropic behind a gateway) reject an empty text block
        // next to tool calls, and null is what the OpenAI spec documents for this case.
        content: message.content === '' ? null : message.content,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        })),
      }
    }
  }
}

function imageParts(images: ChatImage[]) {
  return images.map((image) => ({ type: 'image_url' as const, image_url: { url: `data:${image.mimeType};base64,${image.data}` } }))
}

/**
 * The conversation on the wire. A tool message carries text only in Chat Completions, so the
 * images tools returned go in one user message right after the run of results they belong to
 * (a user message between two results would part them from their calls).
 */
export function toWireMessages(messages: ChatMessage[]): WireMessage[] {
  const out: WireMessage[] = []
  let pending: Array<{ callId: string; images: ChatImage[] }> = []
  messages.forEach((message, i) => {
    out.push(toWireMessage(message))
    if (message.role === 'tool' && message.images && message.images.length > 0) pending.push({ callId: message.toolCallId, images: message.images })
    if (pending.length > 0 && messages[i + 1]?.role !== 'tool') {
      out.push({
        role: 'user',
        content: pending.flatMap(({ callId, images }) => [{ type: 'text' as const, text: `The images the tool call ${callId} returned:` }, ...imageParts(images)]),
      })
      pending = []
    }
  })
  return out
}

/** Maps one tool spec to the wire. */
export function toWireTool(tool: ToolSpec): WireTool {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }
}

/**
 * Builds the request body. `tools` is left out when there are none: several local servers
 * reject an empty array, and "no tools" is the same request either way. Model options appear
 * only when set, so a server that knows neither field never sees one: `effort` becomes
 * `reasoning_effort`, and `fast: true` becomes `service_tier` when the provider names a tier
 * (the adapter refuses `fast` before calling this when it does not).
 */
export function toChatCompletionsBody(request: ModelRequest, defaultModel: string, wire: WireOptions = {}): ChatCompletionsBody {
  const body: ChatCompletionsBody = {
    model: request.model === '' ? defaultModel : request.model,
    messages: toWireMessages(request.messages),
    stream: true,
    stream_options: { include_usage: true },
  }
  if (request.tools.length > 0) body.tools = request.tools.map(toWireTool)
  const effort = request.options?.effort
  if (effort !== undefined && effort !== '') body.reasoning_effort = effort
  if (request.options?.fast === true && wire.fastServiceTier !== undefined) body.service_tier = wire.fastServiceTier
  // OpenAI's name for its fastest tier, which AI Gateway passes on; it outranks `fast`.
  if (request.options?.ultrafast === true) body.service_tier = 'ultrafast'
  return body
}
