// Slash commands typed in the composer. Returns false when the text is not a known command.

export const HELP_TEXT =
  'Commands\n' +
  '  /help     show this help\n' +
  '  /clear    start a new conversation and clear the screen\n' +
  '  /model    show the model in use\n' +
  '  /exit     end the session\n' +
  '\n' +
  'Keys\n' +
  '  Enter submits · Shift+Enter, Alt+Enter or Ctrl+J adds a line · Up/Down walk prompt history\n' +
  '  Esc or Ctrl+C interrupts a running turn · Ctrl+C clears the draft · Ctrl+D on an empty draft exits'

export const CMD_NONE = 0
export const CMD_HELP = 1
export const CMD_EXIT = 2
export const CMD_CLEAR = 3
export const CMD_MODEL = 4
export const CMD_UNKNOWN = 99

/** Which command `text` names (the text starts with '/'). */
export function slashCommand(text: string): i32 {
  let name = text.trim()
  const space = name.indexOf(' ')
  if (space > 0) name = name.substring(0, space)
  if (name == '/help' || name == '/?') return CMD_HELP
  if (name == '/exit' || name == '/quit') return CMD_EXIT
  if (name == '/clear' || name == '/new') return CMD_CLEAR
  if (name == '/model') return CMD_MODEL
  return CMD_UNKNOWN
}
