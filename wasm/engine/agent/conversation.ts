// The conversation the engine keeps, and its serialization into a provider-neutral model request
// (the `ModelRequest` type in src/protocol/model-events.ts).

import { ByteBuf } from '../util/byte-buf'
import { writeJsonBuf, writeJsonString } from '../util/json'

export const ROLE_USER = 1
export const ROLE_ASSISTANT = 2
export const ROLE_TOOL = 3

export class ToolCallRec {
  args: ByteBuf = new ByteBuf(64)
  constructor(public id: string, public name: string) {}
}

export class Message {
  content: ByteBuf = new ByteBuf(64)
  toolCalls: Array<ToolCallRec> = []
  toolCallId: string = ''
  constructor(public role: i32) {}
}

const SYSTEM_PROMPT =
  'You are fxterm, a coding agent that runs entirely in the user\'s browser tab. ' +
  'You can run shell commands with the run_command tool in an in-memory bash (just-bash: a bash ' +
  'emulator with coreutils-style commands such as ls, cat, grep, sed, awk, sort, head, tail, wc, ' +
  'find, and heredocs; there is no network, no git, no node or python). The workspace is /workspace. ' +
  'Inspect files before changing them, keep answers short, and use Markdown sparingly.'

const DEFAULT_TOOL_DESCRIPTION =
  'Run a bash command in the in-memory workspace and return its output (stdout and stderr, cut ' +
  'to 64 KiB) and exit code. Commands time out after 30 s.'
const TOOL_PARAMETERS =
  '{"type":"object","properties":{"command":{"type":"string","description":' +
  '"The bash command to run, at most 64 KiB"}},"required":["command"],"additionalProperties":false}'
const INSTRUCTIONS_MAX_BYTES = 64 * 1024

export class Conversation {
  messages: Array<Message> = []
  /** AGENTS.md and the like, from the host (capped at 64 KiB with the system prompt). */
  instructions: string = ''
  /** The workspace's own description of run_command, when the host gives one. */
  toolDescription: string = ''

  writeMessages(out: ByteBuf): void {
    writeMessagesJson(out, this.messages)
  }

  add(m: Message): void {
    this.messages.push(m)
  }

  clear(): void {
    this.messages = []
  }

  /** Writes `{model, messages, tools}` as JSON into `out`. */
  writeRequest(out: ByteBuf, model: string, withTools: bool): void {
    out.str('{"model":')
    writeJsonString(out, model)
    out.str(',"messages":[{"role":"system","content":')
    const system = new ByteBuf(SYSTEM_PROMPT.length + this.instructions.length + 64)
    system.str(SYSTEM_PROMPT)
    if (this.instructions.length > 0) {
      system.str('\n\n')
      system.str(this.instructions)
      if (system.length > INSTRUCTIONS_MAX_BYTES) system.length = utf8Floor(system, INSTRUCTIONS_MAX_BYTES)
    }
    writeJsonBuf(out, system)
    out.str('}')
    for (let i = 0; i < this.messages.length; i++) {
      out.byte(0x2c)
      writeMessage(out, unchecked(this.messages[i]))
    }
    out.str('],"tools":[')
    if (withTools) {
      out.str('{"name":"run_command","description":')
      writeJsonString(out, this.toolDescription.length > 0 ? this.toolDescription : DEFAULT_TOOL_DESCRIPTION)
      out.str(',"parameters":' + TOOL_PARAMETERS + '}')
    }
    out.str(']}')
  }
}

/** The conversation without the system prompt, as a JSON array (for /export json). */
export function writeMessagesJson(out: ByteBuf, messages: Array<Message>): void {
  out.byte(0x5b)
  for (let i = 0; i < messages.length; i++) {
    if (i > 0) out.byte(0x2c)
    writeMessage(out, messages[i])
  }
  out.byte(0x5d)
}

function writeMessage(out: ByteBuf, m: Message): void {
  if (m.role == ROLE_USER) {
    out.str('{"role":"user","content":')
    writeJsonBuf(out, m.content)
  } else if (m.role == ROLE_TOOL) {
    out.str('{"role":"tool","toolCallId":')
    writeJsonString(out, m.toolCallId)
    out.str(',"content":')
    writeJsonBuf(out, m.content)
  } else {
    out.str('{"role":"assistant","content":')
    writeJsonBuf(out, m.content)
    if (m.toolCalls.length > 0) {
      out.str(',"toolCalls":[')
      for (let i = 0; i < m.toolCalls.length; i++) {
        const c = unchecked(m.toolCalls[i])
        if (i > 0) out.byte(0x2c)
        out.str('{"id":')
        writeJsonString(out, c.id)
        out.str(',"name":')
        writeJsonString(out, c.name)
        out.str(',"arguments":')
        writeJsonBuf(out, c.args)
        out.str('}')
      }
      out.str(']')
    }
  }
  out.str('}')
}

/** The largest length ≤ `limit` that does not cut a UTF-8 sequence. */
function utf8Floor(buf: ByteBuf, limit: i32): i32 {
  let n = limit
  while (n > 0 && (buf.u8At(n) & 0xc0) == 0x80) n--
  return n
}
