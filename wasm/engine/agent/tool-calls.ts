// The model's run_command calls: what a call asks to run, whether it can run, and the exec
// request sent to the host. Pure helpers for the loop (agent/loop.ts), which owns the turn.

import { ByteBuf } from '../util/byte-buf'
import { parseJson, J_STR, writeJsonBuf, writeJsonString } from '../util/json'
import { Effects, OUT_EXEC } from '../abi/frames'
import { ToolCallRec } from './conversation'

export const COMMAND_MAX_BYTES = 64 * 1024
/** The largest content write_file writes or edit_file puts in (src/bash-worker/file-tool-rules.ts). */
export const FILE_TOOL_MAX_BYTES = 10 * 1024 * 1024
export const OUTPUT_LIMIT_BYTES = 64 * 1024
export const COMMAND_TIMEOUT_MS = 30000

/** The command a run_command call asks for (empty when its arguments have none). */
export function commandOf(call: ToolCallRec): ByteBuf {
  const out = new ByteBuf(call.args.length)
  const v = parseJson(call.args.data, 0, call.args.length)
  if (v == null) return out
  const c = v.get('command')
  if (c != null && c.kind == J_STR) out.str(c.str)
  return out
}

/** Why a call cannot run, in words the model reads, or '' when it can. */
export function callProblem(call: ToolCallRec, withTools: bool): string {
  if (call.name != 'run_command') return 'The model asked for an unknown tool "' + call.name + '"; only run_command exists.'
  if (!withTools) return 'No workspace is available, so commands cannot run.'
  if (parseJson(call.args.data, 0, call.args.length) == null) {
    return 'The arguments of run_command were not valid JSON, so nothing ran. Send {"command": "<bash command>"}.'
  }
  const command = commandOf(call)
  if (command.length == 0) return 'run_command needs arguments {"command": "<bash command>"}.'
  return ''
}

/**
 * Why a call is refused for its size, in words the model reads, or '' when it is not. A refused
 * call's arguments are then replaced in the conversation by a short placeholder (tool, size,
 * why): kept whole, a 12 MB write_file that never ran went out again with every later request.
 * Decoded text is never longer than its JSON, so calls within the limits are not parsed here.
 */
export function sizeProblem(call: ToolCallRec, withFileTools: bool): string {
  const name = call.name
  if (name == 'run_command') {
    if (call.args.length <= COMMAND_MAX_BYTES) return ''
    if (commandOf(call).length <= COMMAND_MAX_BYTES) return ''
    return refuseForSize(call, 'The command is longer than 64 KiB and was not run.', 'a command is at most 64 KiB')
  }
  if (!withFileTools || (name != 'write_file' && name != 'edit_file') || call.args.length <= FILE_TOOL_MAX_BYTES) return ''
  const v = parseJson(call.args.data, 0, call.args.length)
  if (v == null) return ''
  const field = name == 'write_file' ? 'content' : 'new_string'
  const text = v.get(field)
  if (text == null || text.kind != J_STR) return ''
  const size = String.UTF8.byteLength(text.str)
  if (size <= FILE_TOOL_MAX_BYTES) return ''
  const why =
    name == 'write_file'
      ? 'write_file: the content is ' + megabytes(size) + '; files are written up to 10 MB. Nothing was written.'
      : 'edit_file: the new text is ' + megabytes(size) + '; files are edited up to 10 MB. Nothing was changed.'
  return refuseForSize(call, why, name + ' takes at most 10 MB of ' + field)
}

/** Replaces a refused call's arguments with their placeholder; returns `why`. */
function refuseForSize(call: ToolCallRec, why: string, limit: string): string {
  const note = megabytes(call.args.length) + ' of ' + call.name + ' arguments, not kept: refused because ' + limit
  const placeholder = new ByteBuf(note.length + 32)
  placeholder.str('{"omitted":')
  writeJsonString(placeholder, note)
  placeholder.byte(0x7d)
  call.args = placeholder
  return why
}

/** `12.0 MB`, as the workspace writes sizes (MiB, one decimal). */
function megabytes(bytes: i32): string {
  const tenths = <i64>Math.round(<f64>bytes * 10 / (1024 * 1024))
  return (tenths / 10).toString() + '.' + (tenths % 10).toString() + ' MB'
}

/** What the model hears for a call whose arguments the output limit cut off (it never runs). */
export const CUT_CALL_RESULT =
  'Your reply reached the output limit before the arguments of this call were complete, so nothing ran. Do the work in smaller steps (write a long file in parts).'

/**
 * Whether the call at `index` is one that a reply stopped at the output limit (`"length"`) cut
 * off: the stream ends inside the last call, so only it can be cut, and its arguments do not
 * parse. A call whose arguments were complete runs as usual.
 */
export function cutByLimit(calls: Array<ToolCallRec>, index: i32, stoppedAtLimit: bool): bool {
  if (!stoppedAtLimit || index != calls.length - 1) return false
  const call = calls[index]
  return parseJson(call.args.data, 0, call.args.length) == null
}

/**
 * Asks the host to run `command` in `cwd` (output frame exec), with the time and output limits.
 * `tty`: the output goes to the person's terminal (a `!command`), so programs may colour it as
 * on a terminal (git does); the model's commands run without it and get plain output.
 */
export function emitExec(fx: Effects, id: u32, command: ByteBuf, cwd: string, tty: bool = false): void {
  const at = fx.begin(OUT_EXEC, id)
  const b = fx.buf
  b.str('{"command":')
  writeJsonBuf(b, command)
  b.str(',"cwd":')
  writeJsonString(b, cwd)
  b.str(',"timeoutMs":' + COMMAND_TIMEOUT_MS.toString() + ',"outputLimitBytes":' + OUTPUT_LIMIT_BYTES.toString() + (tty ? ',"tty":true}' : '}'))
  fx.end(at)
}
