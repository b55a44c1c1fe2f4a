// Runs a slash command typed in the composer.

import { Engine } from '../engine'
import { stringBytes } from '../util/byte-buf'
import { GRAY } from '../terminal/ansi'
import { HELP_TEXT, slashCommand, slashArgument, CMD_HELP, CMD_EXIT, CMD_CLEAR, CMD_MODEL, CMD_MODE, CMD_FILES, CMD_DOWNLOAD } from './slash'

export function runSlash(engine: Engine, s: string): void {
  const cmd = slashCommand(s)
  const t = engine.transcript
  if (cmd == CMD_HELP) t.lines(HELP_TEXT)
  else if (cmd == CMD_EXIT) engine.exit()
  else if (cmd == CMD_MODEL) t.notice('Model: ' + engine.loop.model + ' (' + engine.label + ')', GRAY)
  else if (cmd == CMD_CLEAR) engine.clearAll()
  else if (cmd == CMD_MODE) mode(engine, slashArgument(s))
  else if (cmd == CMD_FILES || cmd == CMD_DOWNLOAD) {
    if (!engine.loop.withTools) t.error(stringBytes('No workspace is connected, so there are no files.'))
    else engine.action(cmd == CMD_FILES ? 'files' : 'download')
  } else t.error(stringBytes('Unknown command ' + s + '. Try /help.'))
}

function mode(engine: Engine, arg: string): void {
  const t = engine.transcript
  if (arg == 'ask') engine.setModeAsk(true)
  else if (arg == 'auto') engine.setModeAsk(false)
  else if (arg.length > 0) {
    t.error(stringBytes('Unknown mode "' + arg + '". Use /mode ask or /mode auto.'))
    return
  }
  const ask = engine.modeAsk || engine.permissionPrompt
  let text = ask ? 'Mode: ask — fxterm asks before each command.' : 'Mode: auto — commands run in the sandboxed workspace without asking.'
  if (engine.permissionPrompt && !engine.modeAsk) text += ' (This workspace always asks.)'
  t.notice(text, GRAY)
}
