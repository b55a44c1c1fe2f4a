// Announcements for screen readers (/a11y): one `{type: "announce", text}` event per finished reply
// or command result, which the host puts in a polite live region.

import { ByteBuf } from '../util/byte-buf'
import { writeJsonBuf } from '../util/json'
import { Effects, OUT_EVENT } from '../abi/frames'

/** Longest announcement: a reply longer than this is cut (the transcript has it all). */
const ANNOUNCE_MAX_BYTES = 4000

/** Emits `prefix` then `text[start, end)` (UTF-8), cut at a character boundary to a readable length. */
export function announce(fx: Effects, prefix: string, text: Uint8Array, start: i32, end: i32): void {
  const body = new ByteBuf(min(end - start, ANNOUNCE_MAX_BYTES) + prefix.length * 3 + 8)
  body.str(prefix)
  let stop = min(end, start + ANNOUNCE_MAX_BYTES)
  while (stop < end && stop > start && (unchecked(text[stop]) & 0xc0) == 0x80) stop--
  body.slice(text, start, stop)
  if (stop < end) body.str('…')
  const json = new ByteBuf(body.length + 40)
  json.str('{"type":"announce","text":')
  writeJsonBuf(json, body)
  json.byte(0x7d)
  fx.emit(OUT_EVENT, 0, json)
}

/** A command's result for the screen reader: `Ran <command>[, exit N]: <output>`. */
export function announceCommand(fx: Effects, command: ByteBuf, exitCode: i32, stdout: Uint8Array, stderr: Uint8Array): void {
  const out = stdout.length > 0 ? stdout : stderr
  const head = 'Ran ' + command.toString() + (exitCode != 0 ? ', exit ' + exitCode.toString() : '') + (out.length > 0 ? ': ' : ', no output.')
  announce(fx, head, out, 0, out.length)
}
