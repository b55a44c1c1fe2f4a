// The conversation the engine keeps, and its serialization into a provider-neutral model request
// (the `ModelRequest` type in src/shared/protocol/model-events.ts).

import { writeFileToolSpecs } from './file-tools'
import { ByteBuf } from '../util/byte-buf'
import { JsonReader, writeJsonBuf, writeJsonString } from '../util/json'
import { HostTool, writeHostToolSpecs } from './host-tools'

export const ROLE_USER = 1
export const ROLE_ASSISTANT = 2
export const ROLE_TOOL = 3

export const AFTER_NOTE = 0
export const AFTER_WARNING = 1
export const AFTER_ERROR = 2

export class ToolCallRec {
  args: ByteBuf = new ByteBuf(64)
  constructor(public id: string, public name: string) {}
}

export class Message {
  private text: ByteBuf | null = null
  /**
   * A resumed message's content, still the JSON string literal at `laterAt` in `laterSrc` (the
   * snapshot's body), read on first use: a resume shows only the last turns, and reading every
   * message's text was most of decoding a 1,000-turn session. `laterLength` is its length then.
   */
  private laterSrc: Uint8Array | null = null
  private laterAt: i32 = 0
  private laterLength: i32 = 0
  toolCalls: Array<ToolCallRec> = []
  toolCallId: string = ''
  /** How long the model took to send it (this session only; /export tape paces replays by it). */
  elapsedMs: i32 = 0
  /** An assistant reply that was a refusal (OpenAI's `refusal`): drawn as one, also on resume. */
  refusal: bool = false
  /**
   * What was drawn with this message but is never sent to the model: a reply's reasoning, a file
   * tool's diff. The session keeps it (snapshot.ts) so a resume draws it again; it is no part of
   * this message's JSON.
   */
  shownOnly: ByteBuf | null = null
  /**
   * A line drawn after this message that the model never reads (a turn's end notice, a failed
   * request's error), kept for a resume like `shownOnly`. `afterLevel`: AFTER_NOTE, AFTER_WARNING
   * or AFTER_ERROR.
   */
  afterLine: string = ''
  afterLevel: i32 = 0
  /**
   * This message as JSON, kept because every model request and every session commit writes the
   * whole conversation again (megabytes in a long session). Content and arguments only ever grow
   * (appends), so their sizes at encoding tell when the copy is stale.
   */
  json: ByteBuf | null = null
  private jsonContent: i32 = -1
  private jsonCalls: i32 = -1
  private jsonArgs: i64 = -1
  private jsonCallId: i32 = -1
  constructor(public role: i32) {}

  /** The message's text (read now if it was resumed and not read yet). */
  get content(): ByteBuf {
    if (this.laterSrc != null) this.readLater()
    let text = this.text
    if (text == null) this.text = text = new ByteBuf(64)
    return text
  }

  set content(text: ByteBuf) {
    this.laterSrc = null
    this.text = text
  }

  /** Whether the text starts with `prefix` (ASCII), without reading a resumed message's text. */
  startsWith(prefix: string): bool {
    const n = prefix.length
    const src = this.laterSrc
    if (src != null) {
      // After the literal's opening quote, ASCII that needs no escape reads as itself.
      if (this.laterLength < n || this.laterAt + 1 + n > src.length) return false
      for (let i = 0; i < n; i++) if (<i32>src[this.laterAt + 1 + i] != prefix.charCodeAt(i)) return false
      return true
    }
    const text = this.text
    if (text == null || text.length < n) return false
    for (let i = 0; i < n; i++) if (<i32>text.u8At(i) != prefix.charCodeAt(i)) return false
    return true
  }

  /** The text's length in bytes, without reading a resumed message's text. */
  contentLength(): i32 {
    if (this.laterSrc != null) return this.laterLength
    const text = this.text
    return text != null ? text.length : 0
  }

  /** The text is the JSON string literal at `at` in `src`, `length` bytes once read; `src` is never written again. */
  contentLater(src: Uint8Array, at: i32, length: i32): void {
    this.laterSrc = src
    this.laterAt = at
    this.laterLength = length
  }

  private readLater(): void {
    const r = new JsonReader(this.laterSrc!, this.laterSrc!.length)
    r.pos = this.laterAt
    this.laterSrc = null
    const text = new ByteBuf(max(this.laterLength, 16))
    r.stringInto(text) // it was read once already (its length), so it is whole
    this.text = text
  }

  private argBytes(): i64 {
    let n: i64 = 0
    for (let i = 0; i < this.toolCalls.length; i++) n += <i64>unchecked(this.toolCalls[i]).args.length
    return n
  }

  /** The kept JSON, when it still matches the message. */
  freshJson(): ByteBuf | null {
    const json = this.json
    if (json == null || this.jsonContent != this.contentLength() || this.jsonCalls != this.toolCalls.length) return null
    if (this.jsonCallId != this.toolCallId.length || this.jsonArgs != this.argBytes()) return null
    return json
  }

  /** Keeps `json` as this message's JSON as it is now. */
  keepJson(json: ByteBuf): void {
    this.json = json
    this.jsonContent = this.contentLength()
    this.jsonCalls = this.toolCalls.length
    this.jsonArgs = this.argBytes()
    this.jsonCallId = this.toolCallId.length
  }
}

// What the workspace offers (its commands, node, python3, limits, whether files are kept) is
// said once, by the tool descriptions the host sends, generated from the workspace itself: the
// system prompt names none of it, so the model is never told two stories.
const SYSTEM_PROMPT =
  'You are fxterm, a coding agent that runs entirely in the user\'s browser tab. ' +
  'When tools are offered, their descriptions say what the workspace has and what it lacks: rely on them. ' +
  'Inspect files before changing them, keep answers short, and use Markdown sparingly.'

/** Sent (not kept) after a reply cut off by a network error, so the retry continues it. */
const CONTINUE_NOTE =
  '[Your previous reply was cut off by a network error after the text above. Continue exactly ' +
  'where it stopped, without repeating any of it.]'

/** One model request's settings besides the conversation itself. */
export class RequestSpec {
  model: string = ''
  provider: string = ''
  withTools: bool = false
  fast: bool = false
  effort: string = ''
  nowMs: f64 = 0
  root: string = '/workspace'
  /** Text already shown from a reply that was cut off, to be continued (or null). */
  continuation: ByteBuf | null = null
}

const DEFAULT_TOOL_DESCRIPTION =
  'Run a bash command in the in-memory workspace and return its output (stdout and stderr, cut ' +
  'to 64 KiB) and exit code. Commands time out after 30 s.'
const TOOL_PARAMETERS =
  '{"type":"object","properties":{"command":{"type":"string","description":' +
  '"The bash command to run, at most 64 KiB"}},"required":["command"],"additionalProperties":false}'
const INSTRUCTIONS_MAX_BYTES = 64 * 1024

export class Conversation {
  /** What the model sees: after a compaction, a summary and the latest turn. */
  messages: Array<Message> = []
  /** Messages compacted away; kept for export and the session, never sent again. */
  archived: Array<Message> = []
  /** AGENTS.md and the like, from the host (capped at 64 KiB with the system prompt). */
  instructions: string = ''
  /** The workspace's own description of run_command, when the host gives one. */
  toolDescription: string = ''
  /** fxterm's own prompt, or the agent API's (boot `systemPrompt`). */
  systemPrompt: string = SYSTEM_PROMPT
  /** The workspace reads and writes files: read_file, write_file and edit_file are offered (boot `fileTools`). */
  fileTools: bool = false
  /** Tools the host runs (boot `hostTools`), offered after run_command. */
  hostTools: Array<HostTool> = []
  /** Say "workspace: none" when there is none (the terminal; the agent API leaves it out). */
  describeNoWorkspace: bool = true

  /** Every message, compacted ones included, as a JSON array (/export json). */
  writeAllMessages(out: ByteBuf): void {
    writeMessagesJson(out, this.all())
  }

  add(m: Message): void {
    this.messages.push(m)
  }

  clear(): void {
    this.messages = []
    this.archived = []
  }

  /** Every message of the session, compacted ones included (export, snapshot). */
  all(): Array<Message> {
    return this.archived.concat(this.messages)
  }

  /** Bytes the model would read: the system prompt and every message (≈ 4 bytes a token). */
  byteSize(): i32 {
    let n = this.systemPrompt.length + this.instructions.length + this.toolDescription.length + 400
    for (let i = 0; i < this.messages.length; i++) {
      const m = unchecked(this.messages[i])
      n += m.contentLength() + 16
      for (let j = 0; j < m.toolCalls.length; j++) n += m.toolCalls[j].args.length + 48
    }
    return n
  }

  /**
   * Writes the provider-neutral request as JSON into `out`: our instructions, AGENTS.md, the
   * turn context, then the history. `run_command` is offered only with a workspace.
   */
  writeRequest(out: ByteBuf, spec: RequestSpec): void {
    out.str('{"model":')
    writeJsonString(out, spec.model)
    if (spec.provider.length > 0) {
      out.str(',"provider":')
      writeJsonString(out, spec.provider)
    }
    if (spec.fast || spec.effort.length > 0) {
      out.str(',"options":{')
      if (spec.fast) out.str('"fast":true')
      if (spec.effort.length > 0) {
        if (spec.fast) out.byte(0x2c)
        out.str('"effort":')
        writeJsonString(out, spec.effort)
      }
      out.byte(0x7d)
    }
    out.str(',"messages":[{"role":"system","content":')
    const system = new ByteBuf(this.systemPrompt.length + this.instructions.length + 256)
    system.str(this.systemPrompt)
    if (this.instructions.length > 0) {
      if (system.length > 0) system.str('\n\n')
      system.str(this.instructions)
      if (system.length > INSTRUCTIONS_MAX_BYTES) system.length = utf8Floor(system, INSTRUCTIONS_MAX_BYTES)
    }
    system.str('\n\n<turn_context>\ndate: ' + isoDate(spec.nowMs) + '\n')
    if (spec.withTools) system.str('workspace root: ' + spec.root + '\nshell: just-bash\n')
    else if (this.describeNoWorkspace) system.str('workspace: none (no commands can run)\n')
    system.str('</turn_context>')
    writeJsonBuf(out, system)
    out.str('}')
    for (let i = 0; i < this.messages.length; i++) {
      out.byte(0x2c)
      writeMessage(out, unchecked(this.messages[i]))
    }
    const partial = spec.continuation
    if (partial != null) {
      out.str(',{"role":"assistant","content":')
      writeJsonBuf(out, partial)
      out.str('},{"role":"user","content":')
      writeJsonString(out, CONTINUE_NOTE)
      out.str('}')
    }
    out.str('],"tools":[')
    if (spec.withTools) {
      out.str('{"name":"run_command","description":')
      writeJsonString(out, this.toolDescription.length > 0 ? this.toolDescription : DEFAULT_TOOL_DESCRIPTION)
      out.str(',"parameters":' + TOOL_PARAMETERS + '}')
      if (this.fileTools) writeFileToolSpecs(out)
    }
    writeHostToolSpecs(out, this.hostTools, !spec.withTools)
    out.str(']}')
  }
}

/** The conversation without the system prompt, as a JSON array (for /export json). */
export function writeMessagesJson(out: ByteBuf, messages: Array<Message>): void {
  let size = 2
  for (let i = 0; i < messages.length; i++) {
    const json = unchecked(messages[i]).json
    size += json != null ? json.length + 1 : 64
  }
  out.reserve(size)
  out.byte(0x5b)
  for (let i = 0; i < messages.length; i++) {
    if (i > 0) out.byte(0x2c)
    writeMessage(out, messages[i])
  }
  out.byte(0x5d)
}

function writeMessage(out: ByteBuf, m: Message): void {
  let json = m.freshJson()
  if (json == null) {
    json = new ByteBuf(m.contentLength() + 64)
    encodeMessage(json, m)
    m.keepJson(json)
  }
  out.append(json)
}

function encodeMessage(out: ByteBuf, m: Message): void {
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
    if (m.refusal) out.str(',"refusal":true')
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

/** `YYYY-MM-DD` (UTC) of a time in ms since the epoch; the date arrives as an input, never read. */
export function isoDate(ms: f64): string {
  // Howard Hinnant's days-to-civil algorithm.
  const z = <i64>Math.floor(ms / 86400000) + 719468
  const era = (z >= 0 ? z : z - 146096) / 146097
  const doe = z - era * 146097
  const yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
  const doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
  const mp = (5 * doy + 2) / 153
  const d = doy - (153 * mp + 2) / 5 + 1
  const m = mp < 10 ? mp + 3 : mp - 9
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0)
  return y.toString() + '-' + pad2(m) + '-' + pad2(d)
}

function pad2(n: i64): string {
  return n < 10 ? '0' + n.toString() : n.toString()
}

/** The largest length ≤ `limit` that does not cut a UTF-8 sequence. */
export function utf8Floor(buf: ByteBuf, limit: i32): i32 {
  let n = limit
  while (n > 0 && (buf.u8At(n) & 0xc0) == 0x80) n--
  return n
}
