// The model's file tools (read_file, write_file, edit_file): their specs in a model request, and
// the workspace op that asks the host to run one. The host applies the rules (paths inside the
// root, edit_file's matches, sizes) and answers with the text for the model and the diff for the
// row; the engine only decides when a call runs and draws what comes back. See wasm/ABI.md.

import { ByteBuf } from '../util/byte-buf'
import { writeJsonBuf, writeJsonString } from '../util/json'
import { Effects, OUT_WORKSPACE } from '../abi/frames'

/** Whether `name` is one of the file tools. */
export function isFileTool(name: string): bool {
  return name == 'read_file' || name == 'write_file' || name == 'edit_file'
}

/** Whether a call changes files (and so needs approval in ask mode). */
export function changesFiles(name: string): bool {
  return name == 'write_file' || name == 'edit_file'
}

/** The row's verb while a call waits or runs ("Edit", "Write", "Read"). */
export function fileToolVerb(name: string): string {
  return name == 'edit_file' ? 'Edit' : name == 'write_file' ? 'Write' : 'Read'
}

// The shapes coding models are trained on (Claude Code's Read / Write / Edit, with snake_case
// names), so a model calls them without coaching.
const READ_SPEC =
  '{"name":"read_file","description":"Read a text file in the workspace. Returns its lines numbered like cat -n ' +
  '(at most 2000 lines or 64 KiB per call). Relative paths resolve against the current directory; only files ' +
  'under the workspace root can be read.","parameters":{"type":"object","properties":{' +
  '"path":{"type":"string","description":"The file to read"},' +
  '"offset":{"type":"integer","description":"The line number to start at (1-based)"},' +
  '"limit":{"type":"integer","description":"How many lines to read"}},' +
  '"required":["path"],"additionalProperties":false}}'
const WRITE_SPEC =
  '{"name":"write_file","description":"Create a file, or replace all of its content (parent directories are ' +
  'created; at most 10 MB). Prefer edit_file to change part of an existing file. The person sees the change as ' +
  'a diff.","parameters":{"type":"object","properties":{' +
  '"path":{"type":"string","description":"The file to write"},' +
  '"content":{"type":"string","description":"The whole new content"}},' +
  '"required":["path","content"],"additionalProperties":false}}'
const EDIT_SPEC =
  '{"name":"edit_file","description":"Replace exact text in a file (up to 10 MB). old_string must match the ' +
  'file exactly, whitespace included, and only once unless replace_all is true; otherwise nothing changes and ' +
  'the result says why. Read the file first. The person sees the change as a diff.",' +
  '"parameters":{"type":"object","properties":{' +
  '"path":{"type":"string","description":"The file to change"},' +
  '"old_string":{"type":"string","description":"The exact text to replace"},' +
  '"new_string":{"type":"string","description":"The text to put in its place"},' +
  '"replace_all":{"type":"boolean","description":"Replace every match instead of exactly one"}},' +
  '"required":["path","old_string","new_string"],"additionalProperties":false}}'

/** Appends the three specs to a request's `tools` array (after run_command). */
export function writeFileToolSpecs(out: ByteBuf): void {
  out.str(',' + READ_SPEC + ',' + WRITE_SPEC + ',' + EDIT_SPEC)
}

/** Asks the host to run a file tool call (`apply` false: only its diff, for approval first). */
export function emitFileOp(fx: Effects, id: u32, name: string, args: ByteBuf, cwd: string, apply: bool): void {
  const at = fx.begin(OUT_WORKSPACE, id)
  const b = fx.buf
  b.str('{"op":"file","name":')
  writeJsonString(b, name)
  b.str(',"arguments":')
  writeJsonBuf(b, args)
  b.str(',"cwd":')
  writeJsonString(b, cwd)
  b.str(apply ? ',"apply":true}' : ',"apply":false}')
  fx.end(at)
}

/** A workspace op with no arguments: `turn` (id 0, no answer), `undo`; or `diff` with its scope. */
export function emitWorkspaceOp(fx: Effects, id: u32, op: string, scope: string = ''): void {
  const at = fx.begin(OUT_WORKSPACE, id)
  fx.buf.str('{"op":"' + op + '"')
  if (scope.length > 0) fx.buf.str(',"scope":"' + scope + '"')
  fx.buf.byte(0x7d)
  fx.end(at)
}
