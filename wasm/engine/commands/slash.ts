// Slash commands typed in the composer: their names and the help text.

export const HELP_TEXT =
  'Commands\n' +
  '  /help              show this help\n' +
  '  /clear, /new       start a new conversation and clear the screen\n' +
  '  /model             show the model in use\n' +
  '  /mode [ask|auto]   ask before each command, or run them without asking\n' +
  '  /files             list the files in the workspace\n' +
  '  /download          save the workspace as a zip\n' +
  '  /exit, /quit       end the session\n' +
  '\n' +
  'Keys\n' +
  '  Enter submits · Shift+Enter, Alt+Enter or Ctrl+J adds a line · Up/Down walk prompt history\n' +
  '  Esc or Ctrl+C interrupts a running turn · Ctrl+C clears the draft · Ctrl+D on an empty draft exits\n' +
  '  Drop files onto the terminal to upload them into the workspace'

export const CMD_HELP = 1
export const CMD_EXIT = 2
export const CMD_CLEAR = 3
export const CMD_MODEL = 4
export const CMD_MODE = 5
export const CMD_FILES = 6
export const CMD_DOWNLOAD = 7
export const CMD_UNKNOWN = 99

function nameOf(text: string): string {
  const name = text.trim()
  const space = name.indexOf(' ')
  return space > 0 ? name.substring(0, space) : name
}

/** Which command `text` names (the text starts with '/'). */
export function slashCommand(text: string): i32 {
  const name = nameOf(text)
  if (name == '/help' || name == '/?') return CMD_HELP
  if (name == '/exit' || name == '/quit') return CMD_EXIT
  if (name == '/clear' || name == '/new') return CMD_CLEAR
  if (name == '/model') return CMD_MODEL
  if (name == '/mode') return CMD_MODE
  if (name == '/files') return CMD_FILES
  if (name == '/download') return CMD_DOWNLOAD
  return CMD_UNKNOWN
}

/** The text after the command name, trimmed. */
export function slashArgument(text: string): string {
  const t = text.trim()
  const space = t.indexOf(' ')
  return space > 0 ? t.substring(space + 1).trim() : ''
}
