/**
 * JS tools: normalized from an array or an object keyed by name, offered to the engine as host
 * tools, and run when the engine asks. A thrown error reaches the model as a failed result; a
 * string is sent as it is, `{ type: 'libfx.tool-result', text, images }` as its text and images,
 * anything else as JSON. The engine runs calls one after another.
 */
import { ErrorCode, FxError } from '../../shared/errors.ts'
import type { HostToolCall, HostToolSpec } from '../../shared/messages/engine-frames.ts'
import type { ChatImage } from '../../shared/protocol/model-events.ts'
import { checkImages } from '../../engine-worker/agent/prompt-input.ts'
import type { FxAgentOptions, FxTool, FxToolContext } from '../../shared/agent-api/types.ts'

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/

/** The tools of `options.tools`, checked: unique names the model APIs accept, an `execute` each. */
export function normalizeTools(tools: FxAgentOptions['tools']): FxTool[] {
  if (tools === undefined) return []
  const list: FxTool[] = Array.isArray(tools) ? tools : Object.entries(tools).map(([name, tool]) => ({ ...tool, name: tool.name ?? name }) as FxTool)
  const seen = new Set<string>()
  for (const tool of list) {
    if (typeof tool?.name !== 'string' || !TOOL_NAME.test(tool.name)) throw new FxError(ErrorCode.FX_TOOL_INVALID, `A tool name must be 1-64 letters, digits, _ or - (got ${JSON.stringify(tool?.name)}).`)
    if (tool.name === 'run_command') throw new FxError(ErrorCode.FX_TOOL_INVALID, 'run_command is the workspace tool; give yours another name.')
    if (seen.has(tool.name)) throw new FxError(ErrorCode.FX_TOOL_INVALID, `Two tools are named ${tool.name}.`)
    if (typeof tool.execute !== 'function') throw new FxError(ErrorCode.FX_TOOL_INVALID, `The tool ${tool.name} has no execute function.`)
    seen.add(tool.name)
  }
  return list
}

/** The specs the engine offers to the model. */
export function hostToolSpecs(tools: FxTool[]): HostToolSpec[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description ?? '',
    parameters: JSON.stringify(tool.inputSchema ?? { type: 'object' }),
    idempotent: tool.idempotent === true,
  }))
}

/** A call's id that stays the same when the call runs again: the session and the model's call id. */
export function executionIdOf(sessionId: string, callId: string): string {
  return `${sessionId}:${callId}`
}

export type ToolOutcome = { output: string; isError: boolean; input: unknown; images?: ChatImage[] }

/** The reference's way for a tool to return images: base64 data, within a prompt's limits. */
export type FxToolResult = { type: 'libfx.tool-result'; text?: string; images?: Array<{ mimeType: string; data: string }> }

const isToolResult = (value: unknown): value is FxToolResult => typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'libfx.tool-result'

/** The most the model reads of one tool result (docs/ARCHITECTURE.md, "Limits": 64 KiB, with a marker). */
export const TOOL_RESULT_MAX_BYTES = 64 * 1024
const encoder = new TextEncoder()

/** Cuts `text` to 64 KiB of UTF-8 on a character boundary, saying how much was shown. */
export function capToolOutput(text: string): string {
  if (text.length <= TOOL_RESULT_MAX_BYTES / 3) return text // cannot exceed 64 KiB as UTF-8
  const bytes = encoder.encode(text)
  if (bytes.length <= TOOL_RESULT_MAX_BYTES) return text
  let end = TOOL_RESULT_MAX_BYTES
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--
  return `${new TextDecoder().decode(bytes.subarray(0, end))}\n[tool result truncated: ${end} of ${bytes.length} bytes shown]`
}

/** Text the model reads from a tool's return value. */
export function toolOutputText(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === undefined) return ''
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

/** Runs one call; never throws (a failure becomes the result the model reads). */
export async function runToolCall(tools: FxTool[], call: HostToolCall, context: Omit<FxToolContext, 'executionId'> & { sessionId: string }): Promise<ToolOutcome> {
  const tool = tools.find((t) => t.name === call.name)
  let input: unknown
  try {
    input = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments)
  } catch {
    return { input: call.arguments, isError: true, output: `The arguments of ${call.name} were not valid JSON, so it did not run.` }
  }
  if (!tool) return { input, isError: true, output: `There is no tool named ${call.name}.` }
  try {
    const value = await tool.execute(input, { ...context, executionId: executionIdOf(context.sessionId, call.callId) })
    if (!isToolResult(value)) return { input, isError: false, output: capToolOutput(toolOutputText(value)) }
    const output = capToolOutput(toolOutputText(value.text ?? ''))
    const given = value.images ?? []
    if (!Array.isArray(given) || given.some((image) => typeof image?.data !== 'string' || typeof image?.mimeType !== 'string')) {
      return { input, isError: true, output: `Error: the tool ${call.name} returned images that are not { mimeType, data } with base64 data.` }
    }
    const images = checkImages(given, `The tool ${call.name}'s result`).map(({ mimeType, data }) => ({ mimeType, data }))
    return { input, isError: false, output, ...(images.length > 0 ? { images } : {}) }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return { input, isError: true, output: capToolOutput(`Error: the tool ${call.name} failed: ${message}`) }
  }
}
