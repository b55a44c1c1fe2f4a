// Runs a slash command typed in the composer. Commands typed during a turn run at once.

import { Engine } from '../engine'
import { tapeJson, tapeTurns } from './export-tape'
import { a11yCommand } from './a11y'
import { ByteBuf, stringBytes } from '../util/byte-buf'
import { writeJsonBuf } from '../util/json'
import { GRAY } from '../terminal/ansi'
import { ROLE_ASSISTANT, ROLE_TOOL, ROLE_USER } from '../agent/conversation'
import { formatCount } from '../util/format'
import * as S from './slash'
import { fastCommand, modelCommand, modelsCommand, providerCommand } from './model-commands'
import { historyCommand, renameCommand, resumeCommand, sessionsCommand } from './session-commands'
import { authCommand, signInStatus } from './auth-commands'

export const ENGINE_VERSION = '0.1.0'

export function runSlash(engine: Engine, s: string): void {
  const cmd = S.slashCommand(s)
  const t = engine.transcript
  const arg = S.slashArgument(s)
  if (cmd == S.CMD_HELP) t.lines(S.helpText())
  else if (cmd == S.CMD_EXIT) engine.exit()
  else if (cmd == S.CMD_MODEL) modelCommand(engine, arg)
  else if (cmd == S.CMD_MODELS) {
    engine.listModelsWhenLoaded = !engine.providers.active.loaded
    modelsCommand(engine)
  } else if (cmd == S.CMD_FAST) fastCommand(engine)
  else if (cmd == S.CMD_PROVIDER) providerCommand(engine, arg)
  else if (cmd == S.CMD_COMPACT) {
    if (engine.loop.busy) t.error(stringBytes('A turn is running; /compact works between turns (long turns compact on their own).'))
    else engine.loop.compaction.startByRequest()
  }
  else if (cmd == S.CMD_CLEAR) engine.clearAll()
  else if (cmd == S.CMD_MODE) mode(engine, arg)
  else if (cmd == S.CMD_FILES || cmd == S.CMD_DOWNLOAD) {
    if (!engine.loop.withTools) t.error(stringBytes('No workspace is connected, so there are no files.'))
    else engine.action(cmd == S.CMD_FILES ? 'files' : 'download')
  } else if (cmd == S.CMD_STATUS) t.lines(statusText(engine))
  else if (cmd == S.CMD_VERSION) t.notice('fxterm ' + ENGINE_VERSION + ' · engine ABI 1', GRAY)
  else if (cmd == S.CMD_COPY) copyLastReply(engine)
  else if (cmd == S.CMD_EXPORT) exportTranscript(engine, arg)
  else if (cmd == S.CMD_LOGIN || cmd == S.CMD_LOGOUT || cmd == S.CMD_KEY) authCommand(engine, cmd, arg)
  else if (cmd == S.CMD_RESUME) resumeCommand(engine, arg)
  else if (cmd == S.CMD_RENAME) renameCommand(engine, arg)
  else if (cmd == S.CMD_SESSIONS) sessionsCommand(engine)
  else if (cmd == S.CMD_HISTORY) historyCommand(engine, arg)
  else if (cmd == S.CMD_A11Y) a11yCommand(engine, arg)
  else t.error(stringBytes('Unknown command ' + s.trim() + '. Try /help.'))
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

function statusText(engine: Engine): string {
  const loop = engine.loop
  let turns = 0
  for (let i = 0; i < loop.conv.messages.length; i++) if (loop.conv.messages[i].role == ROLE_USER) turns++
  return (
    'Status\n' +
    '  model      ' + loop.model + (loop.fast ? ' ⚡ fast' : '') + '\n' +
    '  provider   ' + engine.providers.active.name + (engine.label == 'demo' ? ' (offline, recorded replies)' : ' · ' + engine.label) + '\n' +
    '  context    ' + formatCount(loop.estimateTokens()) + ' of ' + formatCount(loop.window) + ' tokens (' + (<i64>Math.round((loop.estimateTokens() * 100) / loop.window)).toString() + '%)\n' +
    '  sign-in    ' + signInStatus(engine) + '\n' +
    '  mode       ' + (engine.modeAsk || engine.permissionPrompt ? 'ask' : 'auto') + '\n' +
    '  workspace  ' + (loop.withTools ? loop.cwd : 'none (chat only)') + '\n' +
    '  turns      ' + turns.toString() + '\n' +
    '  tokens     ↑' + formatCount(loop.inputTokens) + ' ↓' + formatCount(loop.outputTokens)
  )
}

function copyLastReply(engine: Engine): void {
  const messages = engine.loop.conv.messages
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]
    if (m.role == ROLE_ASSISTANT && m.content.length > 0) {
      engine.copyToClipboard(m.content)
      engine.transcript.notice('Copied the last reply (' + m.content.length.toString() + ' bytes).', GRAY)
      return
    }
  }
  engine.transcript.error(stringBytes('There is no reply to copy yet.'))
}

function exportTranscript(engine: Engine, arg: string): void {
  const json = arg == 'json'
  if (arg == 'tape') {
    exportTape(engine)
    return
  }
  if (arg.length > 0 && arg != 'md' && !json) {
    engine.transcript.error(stringBytes('Export as md, json or a demo tape: /export md, /export json, /export tape.'))
    return
  }
  const content = json ? transcriptJson(engine) : transcriptMarkdown(engine)
  const out = new ByteBuf(content.length + 128)
  out.str('{"action":"export","fileName":"fxterm-transcript.' + (json ? 'json' : 'md') + '","mimeType":"')
  out.str(json ? 'application/json' : 'text/markdown')
  out.str('","content":')
  writeJsonBuf(out, content)
  out.str('}')
  engine.actionJson(out)
}

/** /export tape: the session as a demo tape the offline provider replays (the host adds the files). */
function exportTape(engine: Engine): void {
  if (tapeTurns(engine) == 0) {
    engine.transcript.error(stringBytes('There is nothing to record yet: a tape needs at least one prompt.'))
    return
  }
  const content = tapeJson(engine)
  const out = new ByteBuf(content.length + 160)
  out.str('{"action":"export","fileName":"fxterm-tape.json","mimeType":"application/json","tape":true,"content":')
  writeJsonBuf(out, content)
  out.str('}')
  engine.actionJson(out)
}

function transcriptMarkdown(engine: Engine): ByteBuf {
  const out = new ByteBuf(4096)
  out.str('# fxterm transcript\n\nModel: ' + engine.loop.model + ' (' + engine.label + ')\n')
  const messages = engine.loop.conv.all()
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]
    if (m.role == ROLE_USER) {
      out.str('\n## You\n\n')
      out.append(m.content)
      out.str('\n')
    } else if (m.role == ROLE_ASSISTANT) {
      if (m.content.length > 0) {
        out.str('\n## fxterm\n\n')
        out.append(m.content)
        out.str('\n')
      }
      for (let j = 0; j < m.toolCalls.length; j++) {
        out.str('\n```json\n')
        out.append(m.toolCalls[j].args)
        out.str('\n```\n')
      }
    } else if (m.role == ROLE_TOOL) {
      out.str('\n```\n')
      out.append(m.content)
      out.str('\n```\n')
    }
  }
  return out
}

function transcriptJson(engine: Engine): ByteBuf {
  const out = new ByteBuf(4096)
  out.str('{"model":')
  const model = new ByteBuf(64)
  model.str(engine.loop.model)
  writeJsonBuf(out, model)
  out.str(',"messages":')
  engine.loop.conv.writeAllMessages(out)
  out.str('}\n')
  return out
}
