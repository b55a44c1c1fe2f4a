// Text fxterm adds to the conversation for the model, as user messages: never the person's words.
// Each note starts with NOTE_PREFIX, so a resume, /export and the session's title and turn count
// can tell it from a prompt without a field of its own in the snapshot. (The interrupted-turn
// note predates the prefix and is recognised by its whole text.)

import { ByteBuf } from '../util/byte-buf'
import { Message, ROLE_USER } from './conversation'

export const NOTE_PREFIX = '[fxterm: '

/** What the model is told when a saved turn continues. */
export const INTERRUPTED_NOTE = '[The previous turn was interrupted: the tab closed or fxterm stopped before it ended. Continue where it stopped.]'
const INTERRUPTED_NOTE_BYTES = String.UTF8.byteLength(INTERRUPTED_NOTE)

const SHELL_HEAD = NOTE_PREFIX + 'the person ran this command in the workspace shell themselves]\n$ '
const UNDO_HEAD = NOTE_PREFIX + 'the person ran /undo, which said "'
const UNDO_FILES = '". These files were put back as they were before the last turn that changed them: '
const UNDO_TAIL = '. Read them again before relying on what you wrote.]'

/** The engine's note that a saved turn continues: not a turn, not replayed. */
export function isInterruptedNote(m: Message): bool {
  return m.role == ROLE_USER && m.contentLength() == INTERRUPTED_NOTE_BYTES && m.content.toString() == INTERRUPTED_NOTE
}

/** Any note of fxterm's: not the person's words, so not a turn, a title or a "You" in /export. */
export function isFxtermNote(m: Message): bool {
  return m.role == ROLE_USER && (m.startsWith(NOTE_PREFIX) || isInterruptedNote(m))
}

/** `!command`: the command on its own line, then what the model would read of a tool result. */
export function shellNote(command: ByteBuf, result: ByteBuf): ByteBuf {
  const out = new ByteBuf(SHELL_HEAD.length + command.length + result.length + 1)
  out.str(SHELL_HEAD)
  out.append(command)
  out.byte(0x0a)
  out.append(result)
  return out
}

/** A shell note's command and result text, or null when `text` is not one. */
export function readShellNote(text: string): string[] | null {
  if (!text.startsWith(SHELL_HEAD)) return null
  const eol = text.indexOf('\n', SHELL_HEAD.length)
  if (eol < 0) return null
  return [text.substring(SHELL_HEAD.length, eol), text.substring(eol + 1)]
}

/** /undo: what the workspace said (the person saw it too) and the files it put back. */
export function undoNote(message: string, paths: string): string {
  return UNDO_HEAD + message + UNDO_FILES + paths + UNDO_TAIL
}

/** What /undo showed the person, from its note ('' when `text` is not one). */
export function undoNoteMessage(text: string): string {
  if (!text.startsWith(UNDO_HEAD)) return ''
  const end = text.indexOf(UNDO_FILES, UNDO_HEAD.length)
  return end < 0 ? '' : text.substring(UNDO_HEAD.length, end)
}
