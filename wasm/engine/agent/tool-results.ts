// What the model reads after a command: its output, the exit code, and where the shell is now,
// capped at 64 KiB with a marker that gives the original size.

import { ByteBuf } from '../util/byte-buf'
import { utf8Floor } from './conversation'
import { plainText } from '../screen/sanitize'

export const TOOL_RESULT_MAX_BYTES = 64 * 1024

export function toolResultText(stdout: Uint8Array, stderr: Uint8Array, exitCode: i32, cwd: string): ByteBuf {
  const content = new ByteBuf(stdout.length + stderr.length + 64)
  content.bytes(stdout)
  if (stderr.length > 0) {
    newlineIfNeeded(content)
    content.bytes(stderr)
  }
  if (content.length > TOOL_RESULT_MAX_BYTES) {
    const total = content.length
    const shown = utf8Floor(content, TOOL_RESULT_MAX_BYTES)
    content.length = shown
    newlineIfNeeded(content)
    content.str('[tool result truncated: ' + shown.toString() + ' of ' + total.toString() + ' bytes shown]')
  }
  if (exitCode != 0) {
    newlineIfNeeded(content)
    content.str('[exit code ' + exitCode.toString() + ']')
  }
  if (content.length == 0) content.str('(no output)')
  // The model is told where the shell is after every command (cd carries over).
  content.str('\n[cwd: ' + cwd + ']')
  return content
}

function newlineIfNeeded(b: ByteBuf): void {
  if (b.length > 0 && b.u8At(b.length - 1) != 0x0a) b.byte(0x0a)
}

/**
 * A `!command`'s output as the person's screen got it (with colours), for a resume to draw it so
 * again: stdout, then stderr on a line of its own. Null when it holds no escape, so the note
 * (the same text, plain) says it all.
 */
export function shownOutput(stdout: Uint8Array, stderr: Uint8Array): ByteBuf | null {
  if (stdout.indexOf(0x1b) < 0 && stderr.indexOf(0x1b) < 0) return null
  const out = new ByteBuf(stdout.length + stderr.length + 1)
  out.bytes(stdout)
  if (stderr.length > 0) {
    newlineIfNeeded(out)
    out.bytes(stderr)
  }
  return out
}

/** The model's text of a `!command` (whose output went to a terminal): no escape sequences. */
export function plainResultText(stdout: Uint8Array, stderr: Uint8Array, exitCode: i32, cwd: string): ByteBuf {
  return toolResultText(plainText(stdout), plainText(stderr), exitCode, cwd)
}
