// Tools the host runs (the agent API's JS tools) and the agent API's inputs (prompt, steer,
// cancel). The engine offers host tools to the model next to run_command, asks the host to run
// one with a tool-call frame, and takes its text back with a tool-result frame. See wasm/ABI.md.

import { ByteBuf } from '../util/byte-buf'
import { JsonValue, J_ARR, J_OBJ, writeJsonBuf, writeJsonString } from '../util/json'
import { AGENT_CANCEL, AGENT_PROMPT, AGENT_STEER, Effects, OUT_TOOL_CALL } from '../abi/frames'
import { ToolCallRec } from './conversation'
import { AgentLoop } from './loop'

/** A tool the host runs: its name, description, JSON Schema (as JSON text) and whether it may run twice. */
export class HostTool {
  constructor(public name: string, public description: string, public parameters: string, public idempotent: bool) {}
}

/** Reads boot's `hostTools: [{name, description, parameters (JSON text), idempotent}]`. */
export function readHostTools(v: JsonValue | null, into: Array<HostTool>): void {
  if (v == null || v.kind != J_ARR) return
  for (let i = 0; i < v.items.length; i++) {
    const t = v.items[i]
    if (t.kind != J_OBJ) continue
    const name = t.getString('name', '')
    if (name.length == 0) continue
    const parameters = t.getString('parameters', '')
    into.push(new HostTool(name, t.getString('description', ''), parameters.length > 0 ? parameters : '{"type":"object"}', t.getBool('idempotent', false)))
  }
}

export function findHostTool(tools: Array<HostTool>, name: string): HostTool | null {
  for (let i = 0; i < tools.length; i++) if (tools[i].name == name) return tools[i]
  return null
}

/** Appends each host tool's spec to a request's `tools` array; `first` when none was written yet. */
export function writeHostToolSpecs(out: ByteBuf, tools: Array<HostTool>, first: bool): void {
  for (let i = 0; i < tools.length; i++) {
    const t = tools[i]
    if (!first || i > 0) out.byte(0x2c)
    out.str('{"name":')
    writeJsonString(out, t.name)
    out.str(',"description":')
    writeJsonString(out, t.description)
    out.str(',"parameters":')
    out.str(t.parameters)
    out.byte(0x7d)
  }
}

/** Asks the host to run a call: `{callId, name, arguments, rerun}` (`rerun` after an interruption). */
export function emitToolCall(fx: Effects, id: u32, call: ToolCallRec, rerun: bool): void {
  const at = fx.begin(OUT_TOOL_CALL, id)
  const b = fx.buf
  b.str('{"callId":')
  writeJsonString(b, call.id)
  b.str(',"name":')
  writeJsonString(b, call.name)
  b.str(',"arguments":')
  writeJsonBuf(b, call.args)
  b.str(rerun ? ',"rerun":true}' : ',"rerun":false}')
  fx.end(at)
}

/**
 * The agent API's input frame. A prompt starts a turn (the host sends one only when none runs;
 * one that arrives during a turn steers it); a steer joins the running turn at its next model
 * request, or starts a turn when none runs; cancel interrupts the turn.
 */
export function agentInput(loop: AgentLoop, sub: i32, bytes: Uint8Array, start: i32, end: i32, nowMs: f64): void {
  if (sub == AGENT_CANCEL) {
    loop.interrupt()
    return
  }
  if (sub != AGENT_PROMPT && sub != AGENT_STEER) return
  const text = new ByteBuf(end - start + 1)
  text.slice(bytes, start, end)
  if (loop.busy) loop.steer(text)
  else loop.submit(text, nowMs)
}
