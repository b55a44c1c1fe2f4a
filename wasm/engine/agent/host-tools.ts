// Tools the host runs (the agent API's JS tools). The engine offers host tools to the model next
// to run_command, asks the host to run one with a tool-call frame, and takes its text back with a
// tool-result frame. See wasm/ABI.md. The agent API's other inputs are in agent-input.ts.

import { ByteBuf } from '../util/byte-buf'
import { JsonValue, J_ARR, J_OBJ, writeJsonBuf, writeJsonString } from '../util/json'
import { Effects, OUT_TOOL_CALL } from '../abi/frames'

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
export function emitToolCall(fx: Effects, id: u32, callId: string, name: string, args: ByteBuf, rerun: bool): void {
  const at = fx.begin(OUT_TOOL_CALL, id)
  const b = fx.buf
  b.str('{"callId":')
  writeJsonString(b, callId)
  b.str(',"name":')
  writeJsonString(b, name)
  b.str(',"arguments":')
  writeJsonBuf(b, args)
  b.str(rerun ? ',"rerun":true}' : ',"rerun":false}')
  fx.end(at)
}
