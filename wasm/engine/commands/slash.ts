// The slash commands: one registry for /help, the Tab menu and dispatch.

export const CMD_HELP = 1
export const CMD_EXIT = 2
export const CMD_CLEAR = 3
export const CMD_MODEL = 4
export const CMD_MODE = 5
export const CMD_FILES = 6
export const CMD_DOWNLOAD = 7
export const CMD_STATUS = 8
export const CMD_VERSION = 9
export const CMD_COPY = 10
export const CMD_EXPORT = 11
export const CMD_LOGIN = 12
export const CMD_LOGOUT = 13
export const CMD_RENAME = 14
export const CMD_RESUME = 15
export const CMD_COMPACT = 16
export const CMD_FAST = 17
export const CMD_MODELS = 18
export const CMD_PROVIDER = 19
export const CMD_SESSIONS = 20
export const CMD_HISTORY = 21
export const CMD_KEY = 22
export const CMD_A11Y = 23
export const CMD_DIFF = 40
export const CMD_UNDO = 41
export const CMD_OPEN = 42
export const CMD_CLONE = 43
export const CMD_UNKNOWN = 99

export class SlashCommand {
  constructor(
    public id: i32,
    public name: string,
    public args: string,
    public about: string,
    public category: string,
  ) {}
}

/** Every command, in the order /help and the menu list them. */
export const COMMANDS: Array<SlashCommand> = [
  new SlashCommand(CMD_HELP, '/help', '', 'show commands and keys', 'Session'),
  new SlashCommand(CMD_CLEAR, '/new', '', 'start a new conversation', 'Session'),
  new SlashCommand(CMD_CLEAR, '/clear', '', 'start a new conversation and clear the screen', 'Session'),
  new SlashCommand(CMD_RESUME, '/resume', '', 'pick a saved session', 'Session'),
  new SlashCommand(CMD_SESSIONS, '/sessions', '', 'list saved sessions', 'Session'),
  new SlashCommand(CMD_RENAME, '/rename', '<title>', 'rename this session', 'Session'),
  new SlashCommand(CMD_COMPACT, '/compact', '', 'summarize the conversation to free context', 'Session'),
  new SlashCommand(CMD_STATUS, '/status', '', 'model, provider, mode, workspace, tokens', 'Session'),
  new SlashCommand(CMD_EXIT, '/exit', '', 'end the session', 'Session'),
  new SlashCommand(CMD_EXIT, '/quit', '', 'end the session', 'Session'),
  new SlashCommand(CMD_MODEL, '/model', '[id]', 'show or change the model', 'Model'),
  new SlashCommand(CMD_MODELS, '/models', '', 'list the models you can use', 'Model'),
  new SlashCommand(CMD_FAST, '/fast', '', 'toggle fast mode', 'Model'),
  new SlashCommand(CMD_PROVIDER, '/provider', '[name]', 'list or switch model providers', 'Model'),
  new SlashCommand(CMD_MODE, '/mode', '[ask|auto]', 'ask before each command, or run them', 'Model'),
  new SlashCommand(CMD_FILES, '/files', '', 'list the files in the workspace', 'Workspace'),
  new SlashCommand(CMD_DOWNLOAD, '/download', '', 'save the workspace as a zip', 'Workspace'),
  new SlashCommand(CMD_OPEN, '/open', '', 'work on a folder of this computer (asks which)', 'Workspace'),
  new SlashCommand(CMD_CLONE, '/clone', '<owner/repo|url>', 'git clone a repository into the workspace', 'Workspace'),
  new SlashCommand(CMD_DIFF, '/diff', '[last]', "show the agent's changes to the files (last: the last turn's)", 'Workspace'),
  new SlashCommand(CMD_UNDO, '/undo', '', 'put the files back as they were before the last turn', 'Workspace'),
  new SlashCommand(CMD_COPY, '/copy', '', 'copy the last reply', 'Transcript'),
  new SlashCommand(CMD_EXPORT, '/export', '[format]', 'download the transcript (md, json) or a demo tape (tape)', 'Transcript'),
  new SlashCommand(CMD_HISTORY, '/history', 'clear', 'forget the prompts typed here', 'Transcript'),
  new SlashCommand(CMD_A11Y, '/a11y', '[on|off]', 'screen reader mode: read out finished replies and results', 'Transcript'),
  new SlashCommand(CMD_LOGIN, '/login', '', 'sign in', 'Account'),
  new SlashCommand(CMD_LOGOUT, '/logout', '', 'sign out', 'Account'),
  new SlashCommand(CMD_KEY, '/key', '[provider] [clear]', "save a provider's API key (typed masked), or remove it", 'Account'),
  new SlashCommand(CMD_VERSION, '/version', '', 'show the version', 'Account'),
]

const KEYS_HELP =
  'Keys\n' +
  '  Enter submits · Shift+Enter, Alt+Enter or Ctrl+J adds a line · Up/Down walk prompt history\n' +
  '  Enter during a turn queues a message for the model (↑ takes it back)\n' +
  '  Esc or Ctrl+C interrupts a turn · Esc twice clears the draft · /exit ends the session\n' +
  '  With a selection, Ctrl+C (Ctrl+Shift+C, Cmd+C) copies it\n' +
  '  Tab completes commands · Ctrl+O shows the whole transcript · Ctrl+Shift+F (Cmd+F) searches it\n' +
  '  !command runs a command in the workspace shell yourself: the model sees it with your next prompt\n' +
  '  Drop files onto the terminal to upload them into the workspace'

/** /help: the commands by category, then the keys. */
export function helpText(): string {
  const lines = new Array<string>()
  // The widest usage sets the column, so no description ever touches its command.
  let width = 0
  for (let i = 0; i < COMMANDS.length; i++) width = max(width, usageOf(COMMANDS[i]).length + 2)
  let category = ''
  for (let i = 0; i < COMMANDS.length; i++) {
    const c = COMMANDS[i]
    if (c.category != category) {
      if (category.length > 0) lines.push('')
      category = c.category
      lines.push(category)
    }
    lines.push('  ' + usageOf(c).padEnd(width) + c.about)
  }
  lines.push('')
  lines.push(KEYS_HELP)
  return lines.join('\n')
}

function usageOf(c: SlashCommand): string {
  return c.args.length > 0 ? c.name + ' ' + c.args : c.name
}

function nameOf(text: string): string {
  const name = text.trim()
  const space = name.indexOf(' ')
  return space > 0 ? name.substring(0, space) : name
}

/** Which command `text` names (the text starts with '/'). */
export function slashCommand(text: string): i32 {
  const name = nameOf(text)
  if (name == '/?') return CMD_HELP
  for (let i = 0; i < COMMANDS.length; i++) if (COMMANDS[i].name == name) return COMMANDS[i].id
  return CMD_UNKNOWN
}

/** The text after the command name, trimmed. */
export function slashArgument(text: string): string {
  const t = text.trim()
  const space = t.indexOf(' ')
  return space > 0 ? t.substring(space + 1).trim() : ''
}

/** Indexes into COMMANDS whose name starts with `prefix` (which includes the slash). */
export function matchCommands(prefix: string): Array<i32> {
  const out = new Array<i32>()
  for (let i = 0; i < COMMANDS.length; i++) if (COMMANDS[i].name.startsWith(prefix)) out.push(i)
  return out
}
